// A card room on a laptop (1366×800) and a phone (390×844): when a turn starts,
// the hand, the legal moves and the pot or upcard are on screen without
// scrolling (Red Dog and Rummy); no internal id is on screen and axe-core finds
// no serious or critical violation on the lobby, the create form, the tables,
// the ledger, the settle-up table and the replay; in Rummy the hand sorts by suit
// and by rank, a card dragged within the hand moves there, a selection is undone
// by Escape and by "Clear", the drawn card is marked, and a card dragged onto the
// discard pile is discarded.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LAPTOP, PHONE, ROOT, WAIT_MS, assertCleanPage, assertEventually, outsideViewport, withFixture, assertInWords,
} from './harness.mjs';

const RANKS = 'A23456789TJQK';
const SUIT_ORDER = 'SHCD';

/** Waits for the viewer's turn, then for the client to bring the hand and the moves into view. */
async function assertTurnInView(player, label, selectors) {
  await player.waitForTurn(20_000);
  let outside = [];
  try {
    await assertEventually(async () => (outside = await outsideViewport(player.page, selectors)).length === 0,
      `${label}: everything needed to act is in view`, 3000);
  } catch (error) {
    throw new Error(`${error.message}: ${outside.join('; ')}`);
  }
}

async function playRedDog(player, size) {
  const { page } = player;
  await player.gotoLobby();
  if (size === 'laptop') {
    assert.deepEqual(await outsideViewport(page, ['form[data-testid="create-table"] [type="submit"]']), [],
      'laptop: "Create table" is above the fold');
  }
  await assertCleanPage(player, `${size} lobby`);
  await page.locator('form[data-testid="create-table"] select[name="game"]').selectOption('five_hundred_rummy');
  await assertCleanPage(player, `${size} create form`);

  const tableId = await player.createTable({ game: 'red_dog', seed: 7, seats: 2 });
  await player.joinFromLobby(tableId);
  await player.addBot();
  await assertCleanPage(player, `${size} waiting table`);
  await player.start();
  await assertTurnInView(player, `${size} Red Dog`, [
    '[data-zone="hand"]', '[data-zone="actions"] button[data-action-type="bet"]', '[data-zone="pool"]']);
  await player.screenshot(`turn-red_dog-${size}.png`);
  await assertCleanPage(player, `${size} Red Dog table`);
  await player.submitAmount('bet', 1);
  await page.locator('[data-zone="result"] [data-chips-delta]').first().waitFor({ timeout: WAIT_MS });
  // Red Dog's result says lost when the chips went down.
  const rows = await page.locator('[data-zone="result"] tr[data-seat]').evaluateAll((nodes) =>
    nodes.map((node) => ({ delta: Number(node.dataset.chipsDelta), text: node.textContent })));
  for (const row of rows) {
    if (row.delta < 0) assert.doesNotMatch(row.text, /\bwon\b/, `a seat that lost chips is not said to have won: ${row.text}`);
    if (row.delta > 0) assert.doesNotMatch(row.text, /\blost\b/, `a seat that won chips is not said to have lost: ${row.text}`);
    if (row.delta === 0) assert.doesNotMatch(row.text, /\b(won|lost)\b/, `a seat whose chips did not move neither won nor lost: ${row.text}`);
  }
  await assertCleanPage(player, `${size} Red Dog result`);
  await assertInWords(player.page, '[data-zone="log"] li, [data-zone="result"]', 'Red Dog');
  await player.endTable();
  await page.locator(`${ROOT}[data-status="finished"]`).waitFor();
  await assertCleanPage(player, `${size} finished table`);

  await page.goto(`${player.server.url}#/replay/${tableId}?deal=1`);
  await page.locator('[data-zone="replay"] [data-testid="replay-step"]').waitFor();
  await assertCleanPage(player, `${size} replay`);
  await page.goto(`${player.server.url}#/ledger/${player.name}?table=${tableId}`);
  await page.locator(`[data-testid="balances"][data-table="${tableId}"] [data-player]`).first().waitFor();
  await assertCleanPage(player, `${size} ledger and settle-up`);
}

const handCards = (player) => player.handCards();
const selectedCount = (player) => player.page.locator('[data-zone="hand"] [aria-pressed="true"]').count();

async function playRummy(player, size) {
  const { page } = player;
  await player.gotoLobby();
  const tableId = await player.createTable({ game: 'rummy', seed: 424242, seats: 2 });
  await player.joinFromLobby(tableId);
  await player.addBot();
  await player.start();
  await assertTurnInView(player, `${size} Rummy`, [
    '[data-zone="hand"]', '[data-zone="actions"] button[data-action-type]', '[data-zone="discard"]', '[data-zone="stock"]']);
  await player.screenshot(`turn-rummy-${size}.png`);
  await assertCleanPage(player, `${size} Rummy table`);

  // Sorting: by suit, then by rank.
  await page.locator('[data-testid="sort-suit"]').click();
  const bySuit = await handCards(player);
  const suitKey = (card) => SUIT_ORDER.indexOf(card[1]) * 20 + RANKS.indexOf(card[0]);
  assert.deepEqual(bySuit, [...bySuit].sort((a, b) => suitKey(a) - suitKey(b)), `sorted by suit: ${bySuit}`);
  await page.locator('[data-testid="sort-rank"]').click();
  const byRank = await handCards(player);
  const rankKey = (card) => RANKS.indexOf(card[0]) * 4 + SUIT_ORDER.indexOf(card[1]);
  assert.deepEqual(byRank, [...byRank].sort((a, b) => rankKey(a) - rankKey(b)), `sorted by rank: ${byRank}`);

  // Drag and drop within the hand: the first card dropped on the last goes there.
  const hand = page.locator('[data-zone="hand"] [data-card]');
  await hand.first().dragTo(hand.last());
  const moved = await handCards(player);
  assert.equal(moved[moved.length - 1], byRank[0], `the dragged ${byRank[0]} is now last: ${moved}`);
  assert.deepEqual([...moved].sort(), [...byRank].sort(), 'the same cards');

  // Draw from the stock: the drawn card is marked.
  const before = await player.movesKey();
  await page.locator('[data-zone="stock"] [data-card]').first().click();
  await player.waitForChange(before, 'the stock is drawn');
  await assertEventually(async () => (await page.locator('[data-zone="hand"] [data-drawn="true"]').count()) === 1,
    'the drawn card is marked');
  const drawn = await page.locator('[data-zone="hand"] [data-drawn="true"]').getAttribute('data-card');
  assert.ok((await handCards(player)).includes(drawn), 'the drawn card is in the hand');

  // A selection is undone by Escape and by "Clear".
  await hand.nth(0).click();
  await hand.nth(1).click();
  assert.equal(await selectedCount(player), 2, 'two cards selected');
  await page.keyboard.press('Escape');
  assert.equal(await selectedCount(player), 0, 'Escape clears the selection');
  await hand.nth(2).click();
  assert.equal(await selectedCount(player), 1, 'one card selected, nothing sent');
  await page.locator('[data-tool="clear"]').click();
  assert.equal(await selectedCount(player), 0, '"Clear" clears the selection');

  // A card dragged onto the discard pile is discarded (a legal move now).
  const legal = (await player.legalActions()).map((json) => JSON.parse(json));
  const discardable = legal.filter((a) => a.type === 'discard').map((a) => a.card);
  assert.ok(discardable.length > 0, 'a discard is legal after the draw');
  const card = discardable[0];
  const count = (await handCards(player)).length;
  await page.locator(`[data-zone="hand"] [data-card="${card}"]`).first().dragTo(page.locator('[data-zone="discard"]'));
  // Discarded: it left the hand (the bot, quick to play, may have covered it or drawn it already).
  await assertEventually(async () => {
    const now = await handCards(player);
    return now.length === count - 1 && !now.includes(card);
  }, `the dragged ${card} is discarded`);
}

async function otherGames(player, size) {
  for (const game of ['rams', 'carousel', 'five_hundred_rummy', 'red_and_black']) {
    await player.gotoLobby();
    const seats = game === 'rams' ? 3 : 2;
    const tableId = await player.createTable({ game, seed: 5, seats });
    await player.joinFromLobby(tableId);
    for (let bots = 1; bots < seats; ++bots) await player.addBot();
    await player.start();
    await player.page.locator(`${ROOT}[data-your-turn="true"]`)
      .or(player.page.locator('[data-zone="result"] [data-chips-delta]').first()).first().waitFor({ timeout: 20_000 });
    // The rules are one click away.
    await player.page.locator('[data-testid="how-to-play"]').click();
    await player.page.locator('[data-zone="help"]').waitFor();
    await assertCleanPage(player, `${size} ${game} table`);
    await assertInWords(player.page, '[data-zone="log"] li', `${game}'s log`);
    await assertInWords(player.page, '[data-zone="actions"] button', `${game}'s buttons`);
    await assertInWords(player.page, '[data-zone="result"]', `${game}'s result`);
    await player.screenshot(`turn-${game}-${size}.png`);
    await player.endTable();
  }
}

for (const [size, viewport] of [['laptop', LAPTOP], ['phone', PHONE]]) {
  test(`a card room on a ${size} (${viewport.width}×${viewport.height})`, { timeout: 240_000 }, async () => {
    await withFixture(`card-room-${size}`, async (fixture) => {
      const player = await fixture.player(`ann-${size}`, undefined, { viewport });
      await playRedDog(player, size);
      await playRummy(player, size);
      await otherGames(player, size);
    });
  });
}
