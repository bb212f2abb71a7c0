// The end of a table in the browser: a deal played, the host ends the table,
// both players see the standings (chips as in their ledgers), the host opens a
// same-seed rematch, the other joins it from the old table's "Join the rematch",
// the same first hand is dealt, and the rematch's standings stand side by side
// with the first table's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, assertEventually, withFixture } from './harness.mjs';

const SEED = 20261123;

/** Both bet 1 whenever it is their turn, until the deal's result shows. */
async function playOneDeal(players) {
  await assertEventually(async () => {
    for (const player of players) {
      if ((await player.table.getAttribute('data-your-turn')) === 'true' &&
          await player.page.locator('[data-zone="actions"] input[type="number"][data-action-type="bet"]').count()) {
        await player.submitAmount('bet', 1).catch(() => {});
      }
    }
    return (await players[0].page.locator('[data-zone="result"] [data-chips-delta]').count()) > 0;
  }, 'the deal is played to its result', 30_000);
}

/** The standings rows: {player: {chips, deals}}. */
async function standings(player) {
  await player.page.locator('[data-zone="standings"] [data-testid="standing"]').first().waitFor();
  const rows = await player.page.locator('[data-testid="standing"]').evaluateAll((nodes) => nodes.map((node) => [
    node.getAttribute('data-player'), Number(node.getAttribute('data-chips')), Number(node.getAttribute('data-deals-won'))]));
  return Object.fromEntries(rows.map(([name, chips, deals]) => [name, { chips, deals }]));
}

test('standings and a same-seed rematch: chips = ledger, Join the rematch, the same hand, side by side', { timeout: 120_000 }, async () => {
  await withFixture('standings', async (fixture) => {
    const ann = await fixture.player('ann');
    const bob = await fixture.player('bob');

    const first = await ann.createTable({ game: 'red_dog', seed: SEED, seats: 2 });
    const invite = await ann.inviteLink();
    await ann.joinFromLobby(first);
    await bob.acceptInvite(invite, first);
    await ann.start();
    await bob.table.locator('[data-zone="hand"] [data-card]').first().waitFor();
    const firstHand = await bob.handCards();
    await playOneDeal([ann, bob]);
    await ann.endTable();

    const before = await standings(bob);
    assert.deepEqual(Object.keys(before).sort(), ['ann', 'bob']);
    assert.equal(before.ann.chips + before.bob.chips, 0, 'what one lost the other won');
    assert.deepEqual(await standings(ann), before, 'both see the same standings');
    assert.equal(await bob.page.locator('[data-testid="rematch"]').count(), 0, 'only the host may open a rematch');

    // The host's same-seed rematch takes him to the new table, seated.
    await ann.page.locator('[data-testid="rematch-same-seed"]').check();
    await ann.page.locator('[data-testid="rematch"]').click();
    await ann.page.waitForURL((url) => /#\/table\//.test(url.hash) && !url.hash.endsWith(first));
    const second = decodeURIComponent(ann.page.url().replace(/^.*#\/table\//, ''));
    await ann.page.locator(`${ROOT}[data-table="${second}"]`).waitFor();
    await ann.seat().waitFor();

    // Bob, still at the finished table, is offered the rematch and keeps his seat there.
    await bob.page.locator(`[data-testid="join-rematch"][data-rematch="${second}"]`).click();
    await bob.page.waitForURL(new RegExp(`#/table/${second}$`));
    await bob.seat().waitFor();
    assert.equal(await bob.seatNumber(), await bob.seatNumber('bob'));

    await ann.start();
    await bob.table.locator('[data-zone="hand"] [data-card]').first().waitFor();
    assert.deepEqual(await bob.handCards(), firstHand, 'the same seed deals bob the same hand');
    await playOneDeal([ann, bob]);
    await ann.endTable();

    const after = await standings(bob);
    await bob.page.locator(`[data-testid="compare"][data-compare="${first}"]`).waitFor();
    for (const name of ['ann', 'bob']) {
      const row = bob.page.locator(`[data-testid="compare-row"][data-player="${name}"]`);
      assert.equal(Number(await row.getAttribute('data-chips')), after[name].chips, `${name} now`);
      assert.equal(Number(await row.getAttribute('data-previous-chips')), before[name].chips, `${name} then`);
    }
    await bob.screenshot('standings.png');

    // The standings are the ledger's: each balance is 1000 plus both tables' chips.
    for (const player of [ann, bob]) {
      const ledger = await player.ledger();
      assert.equal(ledger.balance, 1000 + before[player.name].chips + after[player.name].chips, `${player.name}'s ledger`);
    }
  });
});
