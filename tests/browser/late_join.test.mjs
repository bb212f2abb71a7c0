// A friend who is late: the host and bob start a Red Dog table of three seats;
// carol opens the invite after the start. She is told she watches and takes a
// seat at the next deal, sees her place in line, and once the deal is played
// out she holds seat 2 with cards. Then the host frees a bot's seat: the free
// seat control is there for an absent seat only.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, withFixture, assertEventually } from './harness.mjs';

const SEED = 20261123;

/** Plays whoever's turn it is (the least bet, else continue) until `done()`. */
async function playUntil(players, done, what) {
  for (let round = 0; round < 60; ++round) {
    if (await done()) return;
    for (const player of players) {
      const legal = (await player.legalActions()).map((json) => JSON.parse(json));
      const amountInput = player.page.locator('[data-zone="actions"] input[type="number"][data-action-type="bet"]');
      if (await amountInput.count()) {
        const before = await player.movesKey();
        await player.submitAmount('bet', Number(await amountInput.getAttribute('min')) || 1);
        await player.waitForChange(before);
      } else if (legal.some((a) => a.type === 'continue')) {
        const before = await player.movesKey();
        await player.clickAction(JSON.stringify({ type: 'continue' }));
        await player.waitForChange(before).catch(() => {});
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.fail(`not reached: ${what}`);
}

test('Late join: the invite after the start seats her at the next deal, with a clear message meanwhile', { timeout: 120_000 }, async () => {
  await withFixture('late-join', async (fixture) => {
    const alice = await fixture.player('alice');
    const bob = await fixture.player('bob');
    const carol = await fixture.player('carol');

    // The host picks a 10-minute turn clock in the create form.
    const tableId = await alice.createTable({ game: 'red_dog', seed: SEED, seats: 3, options: { clock_seconds: 600 } });
    const invite = await alice.inviteLink();
    await alice.joinFromLobby(tableId);
    await bob.acceptInvite(invite, tableId);
    await alice.start();
    await assertEventually(async () => /(10:00|9:5\d) left/.test(await bob.page.locator('[data-zone="turn"]').textContent()),
      'the clock chosen at create runs for the player to act');

    // Carol is late: the invite shows the table, says why she watches and when she sits.
    await carol.page.goto(invite);
    await carol.page.waitForURL(new RegExp(`#/table/${tableId}$`));
    await carol.page.getByText('The game is under way: you take a seat when the next deal starts.').waitFor();
    await carol.page.locator('[data-zone="turn"]').getByText('You are next in line for a seat', { exact: false }).waitFor();
    assert.equal(await carol.page.locator('[data-zone="error"]').count(), 0, 'no error is shown');
    await carol.screenshot('late-join-waiting.png');

    await playUntil([alice, bob], async () => (await carol.seat().count()) > 0, 'carol is seated');
    assert.equal(await carol.seatNumber(), 2, 'carol takes the empty seat');
    await assertEventually(async () => (await carol.page.locator('[data-zone="hand"] [data-card]').count()) > 0,
      'carol is dealt cards');
    assert.ok((await alice.page.locator('[data-zone="log"]').textContent()).includes('carol takes seat 2 and is dealt in.'),
      'the log says so');
    await carol.screenshot('late-join-seated.png');
  }, { serverArgs: ['--deal-pause-ms', '1000'] });
});
