// The server dies mid-deal (SIGKILL) and is started again on the same port and
// database: the page notices, reconnects by itself, keeps its seat and hand,
// and play goes on from where it stopped.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertEventually, withFixture } from './harness.mjs';

test('reconnect: the server restarts mid-deal, the page reconnects and keeps its seat', { timeout: 90_000 }, async () => {
  await withFixture('reconnect', async (fixture) => {
    const dora = await fixture.player('dora');
    const { page } = dora;

    const tableId = await dora.createTable({ game: 'red_dog', seed: 7, seats: 2 });
    await dora.joinFromLobby(tableId);
    await dora.addBot();
    await dora.start();

    // Seat 0 deals, so the bot in seat 1 bets first; then it is dora's turn, mid-deal.
    await dora.waitForTurn();
    const seat = await dora.seatNumber();
    const hand = await dora.handCards();
    assert.equal(hand.length, 5, `dora holds five cards: ${hand}`);
    await dora.connection.and(page.locator('[data-state="connected"]')).waitFor();

    await fixture.server.kill();
    // The page sees the connection go (reconnecting or offline, never "connected").
    await assertEventually(async () => (await dora.connection.getAttribute('data-state')) !== 'connected',
      'the page notices the server is gone');
    const downState = await dora.connection.getAttribute('data-state');
    assert.ok(['reconnecting', 'offline'].includes(downState), `connection state while down: ${downState}`);
    // The table does not look live meanwhile: it greys out under "Reconnecting…".
    await dora.table.and(page.locator('[data-connection="reconnecting"]')).waitFor();
    await page.getByText('Reconnecting…', { exact: true }).waitFor();

    await fixture.server.start();
    // No reload, no click: the page reconnects by itself (its backoff starts at 1 s).
    await dora.connection.and(page.locator('[data-state="connected"]')).waitFor({ timeout: 30_000 });
    assert.equal(dora.page.url().endsWith(`#/table/${tableId}`), true, `still on the table page: ${dora.page.url()}`);
    // Live again, and no error left over from the outage.
    await dora.table.and(page.locator('[data-connection="connected"]')).waitFor();
    await assertEventually(async () => (await page.locator('[data-zone="error"]').count()) === 0, 'no error banner once reconnected');

    // Same seat, same hand, still dora's turn.
    await dora.waitForTurn();
    assert.equal(await dora.seatNumber(), seat, 'dora keeps her seat');
    assert.deepEqual(await dora.handCards(), hand, 'dora keeps her hand');

    // Play continues: her bet settles the deal.
    await dora.submitAmount('bet', 1);
    const mine = page.locator(`[data-zone="result"] [data-seat="${seat}"][data-chips-delta]`);
    await mine.waitFor();
    const delta = Number(await mine.getAttribute('data-chips-delta'));
    assert.ok(Number.isInteger(delta) && delta >= -3 && delta <= 1, `antes and a bet of 1: ${delta}`);

    // The ledger, read after the restart, has the deal in it.
    const ledger = await dora.ledger();
    assert.equal(ledger.balance, 1000 + delta, "dora's ledger balance after the restart");
  });
});
