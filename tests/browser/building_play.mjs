import assert from 'node:assert/strict';
import { ROOT, assertEventually } from './harness.mjs';

// How the building-game tests (Russian Bank, Rabouge) play a game by clicking:
// a move is a click on the card and then on the pile it goes to (one move by
// drag and drop), turning the stock or the hand and drawing are clicks on the
// face-down pile, the rest are the felt's tool buttons.

/** The order in which the test's player prefers moves: the centre, loading the opponent, then the rest. */
function movePreference(move, seat) {
  const [toKind, toOwner] = move.to.split(':');
  const [fromKind] = move.from.split(':');
  if (toKind === 'centre') return 0;
  if ((toKind === 'stock' || toKind === 'discard') && Number(toOwner) !== seat) return 1;
  if (fromKind === 'stock') return 2;
  if (fromKind === 'turned' && toKind !== 'discard') return 3;
  if (toKind === 'discard') return 5;
  return 9; // layout to layout: only when nothing else is left, so that play moves on
}

// A face-down pile of the player's own that turns or draws when clicked.
const PILE_TOOLS = { turn_stock: 'stock', turn_hand: 'hand', draw: 'supply' };
const TOOL_ORDER = ['stop', 'draw', 'turn_stock', 'turn_hand', 'end_turn', 'pass'];
// A click waits this long for its target: an offer the table took back meanwhile never comes.
const CLICK_MS = 5_000;

/**
 * Plays until the result shows. Returns what was done: {moves, dragged, tools, turns}.
 * `maxSteps` bounds the player's own actions.
 */
export async function playBuildingGame(player, { maxSteps }) {
  const { page } = player;
  const seat = await player.seatNumber();
  const result = page.locator('[data-zone="result"] [data-seat][data-chips-delta]');
  const yourTurn = page.locator(`${ROOT}[data-your-turn="true"]`);
  const done = { moves: 0, dragged: 0, tools: {}, steps: 0, layoutMoves: 0 };
  for (;;) {
    await result.first().or(yourTurn).first().waitFor({ timeout: 20_000 });
    if (await result.count()) break;
    // One reading: a push landing between reading the offers and the key they are
    // waited on by would leave the player waiting for a change that is his to make.
    const offers = await player.offers();
    const legal = offers.legal.map((json) => JSON.parse(json));
    const { key: before, seq } = offers;
    const moves = legal.filter((a) => a.type === 'move')
      .sort((a, b) => movePreference(a, seat) - movePreference(b, seat));
    const tool = TOOL_ORDER.find((type) => legal.some((a) => a.type === type));
    const best = moves[0];
    if (!best && !tool) {
      // Only the opponent's demands are offered while the bot moves: let it move. Its
      // move may leave the demands offered as they were, so the table's seq tells too.
      await player.waitForChange(before, 'the bot moves on', seq);
      continue;
    }
    assert.ok(++done.steps <= maxSteps, `the game ended within ${maxSteps} actions`);
    const useTool = tool && (!best || tool === 'stop' || movePreference(best, seat) >= 9 || (tool === 'draw' && movePreference(best, seat) > 2));
    try {
      if (useTool) {
        await clickTool(page, tool, seat);
        done.tools[tool] = (done.tools[tool] || 0) + 1;
      } else if (!done.dragged && await pile(page, best.from).locator('button[data-card][draggable="true"]').count()) {
        await pile(page, best.from).locator('button[data-card]').dragTo(pile(page, best.to), { timeout: CLICK_MS });
        done.dragged++;
        done.moves++;
      } else {
        await clickMove(page, best);
        done.moves++;
        if (movePreference(best, seat) >= 9) done.layoutMoves++;
      }
    } catch (error) {
      // The bot, as the opponent, may call stop or make a demand while this player
      // is about to move: the offer clicked then leaves the page with the step.
      // Look again; a click that failed on a table that did not move is a failure.
      if ((await player.table.getAttribute('data-seq')) !== seq) continue;
      throw error;
    }
    // The same moves may be offered again (the opening's draws): wait for the table's next seq.
    await assertEventually(async () => (await player.table.getAttribute('data-seq')) !== seq,
      `the server answers ${JSON.stringify(useTool ? tool : best)}`);
  }
  return done;
}

function pile(page, id) {
  return page.locator(`[data-zone="pile"][data-pile="${id}"]`);
}

/** Click the card on top of `from`: it is picked up and its targets are offered; then click the target. */
async function clickMove(page, move) {
  const card = pile(page, move.from).locator('button[data-card]');
  await card.click({ timeout: CLICK_MS });
  assert.equal(await card.getAttribute('aria-pressed'), 'true', `${move.card} on ${move.from} is picked up`);
  const target = pile(page, move.to);
  await target.and(page.locator('[data-target="true"]')).waitFor({ timeout: CLICK_MS });
  // Only listed targets are offered.
  const offered = await page.locator('[data-zone="pile"][data-target="true"]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-pile')));
  assert.ok(offered.includes(move.to), `${move.to} is offered for ${move.from}: ${offered}`);
  await target.click({ timeout: CLICK_MS });
}

async function clickTool(page, type, seat) {
  const own = PILE_TOOLS[type];
  const onPile = own ? pile(page, `${own}:${seat}`).locator(`[data-tool="${type}"]`) : null;
  if (onPile && await onPile.count()) await onPile.click({ timeout: CLICK_MS });
  else await page.locator(`[data-tool="${type}"]`).first().click({ timeout: CLICK_MS });
}
