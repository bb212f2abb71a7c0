// An absent player: the host sets a 5-second turn clock, bob never moves. His
// clock runs out, the table plays his safe move and marks him away (after one
// miss here); everyone sees the "away" badge, bob sees "I'm back", and when he
// clicks it he is back at his seat and the badge goes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withFixture, assertEventually } from './harness.mjs';

const SEED = 20261123; // alice deals, so bob is first to bet

test('Absent player: the clock runs out, a bot plays his seat, "I\'m back" returns it', { timeout: 90_000 }, async () => {
  await withFixture('absent', async (fixture) => {
    const alice = await fixture.player('alice');
    const bob = await fixture.player('bob');

    const tableId = await alice.createTable({
      game: 'red_dog', seed: SEED, seats: 2, options: { clock_seconds: 5, clock_away_after: 1 },
    });
    const invite = await alice.inviteLink();
    await alice.joinFromLobby(tableId);
    await bob.acceptInvite(invite, tableId);
    await alice.start();

    // Bob does nothing: after 5 s the table bets for him and marks him away.
    const awayBadge = alice.page.locator('[data-zone="seat"][data-player="bob"] .badge-away');
    await awayBadge.waitFor({ timeout: 20_000 });
    await alice.page.locator('[data-zone="log"]').getByText("bob's time ran out: the table plays", { exact: false }).first().waitFor();
    await alice.page.locator('[data-zone="log"]').getByText('bob is away: a bot plays for them until they are back.').first().waitFor();
    const back = bob.page.locator('[data-action="back"]');
    await back.waitFor();
    assert.ok((await bob.page.locator('[data-zone="turn"]').textContent()).includes('You are away: a bot plays for you.'),
      'bob is told a bot plays for him');
    await bob.screenshot('absent-away.png');

    await back.click();
    await assertEventually(async () => (await awayBadge.count()) === 0, 'the away badge goes once bob is back');
    await bob.page.locator('[data-action="back"][hidden]').waitFor({ state: 'attached' });
    await alice.page.locator('[data-zone="log"]').getByText('bob is back.').first().waitFor();
  }, { serverArgs: ['--deal-pause-ms', '600000'] });
});
