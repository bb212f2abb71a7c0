// The server is restarted gracefully mid-deal (SIGTERM: the drain of
// docs/metrics.md) and started again on the same port and database: the page
// gets WebSocket close 1012 ("service restart"), shows no error banner, greys
// the table out while the server is away, reconnects by itself, keeps its seat
// and hand, and finishes the deal.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertEventually, withFixture } from './harness.mjs';

// Every WebSocket the page opens records the close code it gets (injected
// through the DevTools protocol, which the page's CSP does not govern).
function recordCloseCodes() {
  const Native = window.WebSocket;
  window.parlourCloseCodes = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('close', (event) => window.parlourCloseCodes.push(event.code));
    }
  };
}

test('drain: SIGTERM mid-deal closes with 1012, the page reconnects without an error banner and plays on', { timeout: 90_000 }, async () => {
  await withFixture('drain', async (fixture) => {
    const dora = await fixture.player('dora');
    const { page } = dora;
    await dora.context.addInitScript(recordCloseCodes);
    await page.reload();
    await dora.connection.and(page.locator('[data-state="connected"]')).waitFor();

    const tableId = await dora.createTable({ game: 'red_dog', seed: 7, seats: 2 });
    await dora.joinFromLobby(tableId);
    await dora.addBot();
    await dora.start();
    // Seat 0 deals, so the bot in seat 1 bets first; then it is dora's turn, mid-deal.
    await dora.waitForTurn();
    const seat = await dora.seatNumber();
    const hand = await dora.handCards();
    assert.equal(hand.length, 5, `dora holds five cards: ${hand}`);

    // SIGTERM, and the harness waits for the process to exit.
    await fixture.server.stop();
    await assertEventually(async () => (await page.evaluate(() => window.parlourCloseCodes)).includes(1012),
      'the page got close 1012 (service restart)');
    await assertEventually(async () => (await dora.connection.getAttribute('data-state')) !== 'connected',
      'the page notices the server is gone');
    await dora.table.and(page.locator('[data-connection="reconnecting"]')).waitFor();
    assert.equal(await page.locator('[data-zone="error"]').count(), 0, 'no error banner for a restart');

    await fixture.server.start();
    await dora.connection.and(page.locator('[data-state="connected"]')).waitFor({ timeout: 30_000 });
    assert.equal(page.url().endsWith(`#/table/${tableId}`), true, `still on the table page: ${page.url()}`);
    await dora.table.and(page.locator('[data-connection="connected"]')).waitFor();
    await assertEventually(async () => (await page.locator('[data-zone="error"]').count()) === 0,
      'no error banner once reconnected');

    // Same seat, same hand, still her turn; her bet settles the deal.
    await dora.waitForTurn();
    assert.equal(await dora.seatNumber(), seat, 'dora keeps her seat');
    assert.deepEqual(await dora.handCards(), hand, 'dora keeps her hand');
    await dora.submitAmount('bet', 1);
    const mine = page.locator(`[data-zone="result"] [data-seat="${seat}"][data-chips-delta]`);
    await mine.waitFor();
    assert.equal(await page.locator('[data-zone="error"]').count(), 0, 'no error banner after the deal');
    const delta = Number(await mine.getAttribute('data-chips-delta'));
    const ledger = await dora.ledger();
    assert.equal(ledger.balance, 1000 + delta, "dora's ledger balance after the restart");
  });
});
