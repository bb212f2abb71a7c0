// A deal of Royal Cassino played by clicking against a careful (level-1) bot,
// to its result: a capture is the hand card, then the table cards and builds
// it takes, then "Take"; a build is the hand card, the cards it goes with, then
// "Build N"; a trail is the hand card, then "Trail". The seed deals at least one
// build, capture and trail to the test's player.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, assertEventually, assertInWords, withFixture } from './harness.mjs';

const SEED = 7;

async function pickHandCard(page, card) {
  const node = page.locator(`[data-zone="hand"] button[data-card="${card}"]`);
  await node.click();
  await assertEventually(async () => (await node.getAttribute('aria-pressed')) === 'true', `${card} is picked`);
}

/** Picks the loose cards and builds a capture or build names, each offered and toggled on by a click. */
async function pickTable(page, action) {
  for (const card of action.take ?? action.with ?? []) {
    const node = page.locator(`[data-zone="pile"][data-pile="table"] button:has([data-card="${card}"])`);
    await node.click();
    await assertEventually(async () => (await node.getAttribute('aria-pressed')) === 'true', `the table's ${card} is picked`);
  }
  for (const id of action.builds ?? []) {
    const node = page.locator(`[data-zone="melds"] button[data-meld="${id}"]`);
    await node.click();
    await assertEventually(async () => (await node.getAttribute('aria-pressed')) === 'true', `build ${id} is picked`);
  }
}

const size = (action) => (action.take?.length ?? 0) + (action.builds?.length ?? 0);

test('Royal Cassino: a deal against the bot, played by clicking (captures, a build, a trail)', { timeout: 60_000 }, async () => {
  await withFixture('cassino', async (fixture) => {
    const player = await fixture.player('carla');
    const { page } = player;
    const tableId = await player.createTable({ game: 'royal_cassino', seed: SEED, seats: 2 });
    await player.joinFromLobby(tableId);
    await player.addBot();
    await player.start();

    const result = page.locator('[data-zone="result"] [data-seat][data-chips-delta]');
    const yourTurn = page.locator(`${ROOT}[data-your-turn="true"]`);
    const done = { capture: 0, build: 0, trail: 0 };
    const seen = { takeWhy: 0, dimmed: 0 };
    for (let turn = 0; ; ++turn) {
      await result.first().or(yourTurn).first().waitFor({ timeout: 20_000 });
      if (await result.count()) break;
      assert.ok(turn < 40, 'the deal ends within 40 of my turns');
      const legal = (await player.legalActions()).map((json) => JSON.parse(json));
      const seq = await player.table.getAttribute('data-seq');
      const captures = legal.filter((a) => a.type === 'capture').sort((a, b) => size(b) - size(a));
      const builds = legal.filter((a) => a.type === 'build');
      const trails = legal.filter((a) => a.type === 'trail');
      // Take a build first (one's own must be taken), build once, capture the most cards, else trail.
      const takeBuild = captures.find((a) => a.builds?.length);
      const action = takeBuild || (done.build ? null : builds[0]) || captures[0] || trails[0];
      assert.ok(action, `a capture, build or trail is offered: ${JSON.stringify(legal)}`);
      await assertInWords(page, '[data-zone="actions"] button', 'the move buttons');
      // A dimmed card says why it cannot be played, on it and, once clicked, in the strip below.
      const muted = page.locator('[data-zone="hand"] button.is-muted');
      const reasons = await muted.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-muted-reason')));
      for (const reason of reasons) assert.match(reason ?? '', /\S/, 'a dimmed card says why it cannot be played');
      if (reasons.length) {
        seen.dimmed += reasons.length;
        await muted.first().click();
        await assertEventually(async () => ((await page.locator('[data-testid="cassino-hint"]').textContent()) ?? '').startsWith(reasons[0] ?? '?'),
          'a click on a dimmed card says why');
      }
      await pickHandCard(page, action.card);
      if (action.type === 'capture') {
        // Take is greyed until what the card takes is picked, and says so.
        assert.equal(await page.locator('[data-tool="capture"]').isDisabled(), true, 'Take waits for the cards it takes');
        const why = (await page.locator('[data-testid="take-why"]').textContent()) ?? '';
        assert.match(why, /^Pick what \S+ takes first: .+\.$/, `greyed Take says why: "${why}"`);
        seen.takeWhy++;
      }
      if (action.type === 'trail') {
        await page.locator('[data-tool="trail"]').click();
      } else {
        await pickTable(page, action);
        const tool = action.type === 'build'
          ? page.locator(`[data-tool="build"][data-value="${action.value}"]`)
          : page.locator('[data-tool="capture"]');
        if (action.type === 'capture') assert.equal(await page.locator('[data-testid="take-why"]').count(), 0, 'no reason once Take can be pressed');
        await tool.click();
      }
      done[action.type]++;
      await assertEventually(async () => (await player.table.getAttribute('data-seq')) !== seq, `the server answers ${JSON.stringify(action)}`);
    }

    const deltas = await player.resultDeltas();
    await player.screenshot('result-royal_cassino.png');
    console.log(`royal_cassino: ${JSON.stringify(done)}; result ${JSON.stringify(deltas)}; reasons seen ${JSON.stringify(seen)}`);
    assert.ok(seen.takeWhy >= 1, 'a greyed Take gave its reason');
    assert.deepEqual(Object.keys(deltas).sort(), ['0', '1'], 'a result row for both seats');
    const summary = (await player.page.locator('[data-zone="result"] .result-summary').textContent()) ?? '';
    assert.doesNotMatch(summary, /ended:|_/, `the result says how the deal ended in words: "${summary}"`);
    assert.match(summary, /the deal was played out|the game is won|the last deal was played/, `the result says how the deal ended: "${summary}"`);
    await assertInWords(page, '[data-zone="result"]', 'the result');
    await assertInWords(page, '[data-zone="log"] li', 'the log');
    assert.ok(await page.locator('[data-zone="result-items"] li').count() > 0, 'the count-out is listed item by item');
    assert.ok(done.capture >= 1, 'captures were made by clicking');
    assert.equal(done.build, 1, 'a build was made by clicking');
    assert.ok(done.trail >= 1, 'a card was trailed by clicking');
  });
});
