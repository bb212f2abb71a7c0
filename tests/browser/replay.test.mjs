// The hand history in the browser: alice plays a seeded Red Dog deal against a
// bot; while the table runs, bob (never seated) is refused its replay; once
// alice ends it, "Verify deals" re-shuffles every deal from the revealed seed,
// and the replay page steps back and forth over the deal, showing at its first
// step the hand alice was dealt live, and downloads the whole history as JSON.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { ROOT, WAIT_MS, assertEventually, withFixture } from './harness.mjs';

const SEED = 16;

test('Replay: a finished table stepped through, verified and downloaded; a stranger refused before its end', { timeout: 120_000 }, async () => {
  await withFixture('replay', async (fixture) => {
    const alice = await fixture.player('alice');
    const bob = await fixture.player('bob');

    const tableId = await alice.createTable({ game: 'red_dog', seed: SEED, seats: 2 });
    await alice.joinFromLobby(tableId);
    await alice.addBot();
    await alice.start();
    await alice.table.locator('[data-zone="hand"] [data-card]').first().waitFor();
    const dealt = await alice.handCards();
    assert.equal(dealt.length, 5, `alice holds five cards: ${dealt}`);

    // Before the end, bob (never seated) may not replay it: the page says forbidden.
    await bob.page.goto(`${fixture.server.url}#/replay/${tableId}?deal=1`);
    await bob.page.locator('[data-zone="replay"][data-error="forbidden"]').waitFor();

    // alice bets when her turn comes, until deal 1 is settled.
    await alice.waitForTurn();
    await alice.submitAmount('bet', 1);
    await alice.page.locator('[data-zone="result"] [data-chips-delta]').first().waitFor({ timeout: WAIT_MS });
    // A seated player may replay the finished deal while the table runs.
    await alice.page.locator('[data-testid="replay-deal-link"]').waitFor();

    await alice.endTable();
    await alice.page.locator(`${ROOT}[data-status="finished"]`).waitFor();
    await alice.page.locator('[data-testid="verify-deals"]').click();
    await alice.page.locator('[data-zone="verify"][data-state="ok"]').waitFor();

    await alice.page.locator('[data-testid="replay"]').click();
    const page = alice.page.locator('[data-zone="replay"]');
    await page.locator('[data-testid="replay-step"]').waitFor();
    await assertEventually(async () => (await page.getAttribute('data-step')) === '0', 'the replay opens at its first step');
    assert.equal(await page.getAttribute('data-seq'), '1', 'the first step is the start');
    // Seen from alice's seat (hers at a finished table), the first step shows the hand dealt to her live.
    const firstHand = await page.locator('[data-zone="hand"] [data-card]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-card')));
    assert.deepEqual([...firstHand].sort(), [...dealt].sort(), 'the replay shows the hand dealt live');

    const last = Number(await page.locator('[data-testid="replay-slider"]').getAttribute('max'));
    assert.ok(last >= 2, `deal 1 has several steps (${last + 1})`);
    await page.locator('[data-testid="replay-next"]').click();
    await assertEventually(async () => (await page.getAttribute('data-step')) === '1', 'forward goes one step on');
    assert.match(await page.locator('[data-testid="replay-event"]').textContent(), /\S/, 'the step is described in words');
    await page.locator('[data-testid="replay-prev"]').click();
    await assertEventually(async () => (await page.getAttribute('data-step')) === '0', 'back goes one step back');
    await page.locator('[data-testid="replay-slider"]').fill(String(last));
    await assertEventually(async () => (await page.getAttribute('data-step')) === String(last), 'the slider jumps to the end');
    assert.equal(await page.locator('[data-testid="replay-next"]').isDisabled(), true, 'no step after the last');
    await alice.page.keyboard.press('ArrowLeft');
    await assertEventually(async () => (await page.getAttribute('data-step')) === String(last - 1), 'the left arrow steps back');
    await alice.screenshot('replay-red_dog.png');

    const [download] = await Promise.all([
      alice.page.waitForEvent('download'),
      page.locator('[data-testid="replay-download"]').click(),
    ]);
    const saved = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    assert.equal(saved.table, tableId);
    assert.equal(typeof saved.fair.seed, 'string', 'the download carries the revealed seed');
    assert.equal(saved.fair.seed, String(SEED));
    assert.deepEqual(saved.steps.map((step) => step.seq), saved.steps.map((_, i) => i + 1), 'every step of the log, in order');
    assert.ok(saved.received_commitments.some((c) => c.deal === 1), 'with the commitments this browser received');

    // After the end, bob may replay it too, every hand shown.
    await bob.page.goto(`${fixture.server.url}#/replay/${tableId}?deal=1&verify=1`);
    await bob.page.locator('[data-zone="replay"][data-step="0"]').waitFor();
    await bob.page.locator('[data-zone="verify"][data-state="ok"]').waitFor();
  });
});
