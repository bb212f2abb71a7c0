// A shortfall owed to another player, shown by name (issue 29: the result table
// said "owed to the pool" for every rest). Red and Black with a stacked deck:
// the operator gives alice, the banker, 2,000 chips more (`parlour admin
// adjust`: a bank covers bets up to half its chips); bob bets all his 1,000 on
// black and is dealt five red cards, a double loss of 2,000 to alice; he pays
// the 1,000 he has, and the result's `unpaid` names the other 1,000 as owed to
// alice's seat (docs/protocol.md "Unpaid rests"). Both browsers must say so, by name.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { assertEventually, withFixture } from './harness.mjs';

// With this seed the first dealer drawn at two seats is seat 0 (as
// tests/integration/test_integration.cpp's seat_0_deals), so alice banks.
const SEED = 2;
const FIVE_RED = ['2H', '5D', '9H', 'JH', '3D'];

/**
 * Requests over a WebSocket of the page's own, signed in with the identity the
 * page keeps: the stacked deck and bob's whole-stack bet are not on any form.
 */
async function overOwnSocket(page, requests) {
  return page.evaluate((requests) => new Promise((resolve, reject) => {
    const identity = JSON.parse(localStorage.getItem('parlour.identity'));
    const socket = new WebSocket(`ws://${location.host}/ws`);
    const replies = [];
    const timer = setTimeout(() => reject(new Error(`no reply; had ${JSON.stringify(replies)}`)), 10_000);
    let next = 0;
    const send = (message) => socket.send(JSON.stringify({ ...message, id: next + 1 }));
    socket.onopen = () => socket.send(JSON.stringify({ type: 'hello', id: 0, name: identity.name, token: identity.token }));
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.re === undefined) return;  // a push
      if (message.type === 'error') {
        clearTimeout(timer);
        reject(new Error(JSON.stringify(message)));
        return;
      }
      if (message.re > 0) replies.push(message);
      if (next === requests.length) {
        clearTimeout(timer);
        socket.close();
        resolve(replies);
        return;
      }
      const request = requests[next];
      ++next;
      send(typeof request === 'function' ? request(replies) : request);
    };
    socket.onerror = () => reject(new Error('websocket error'));
  }), requests);
}

test('Red and Black: a rest owed to the banker is shown as owed to her, by name', { timeout: 90_000 }, async () => {
  await withFixture('unpaid', async (fixture) => {
    const alice = await fixture.player('alice');
    const bob = await fixture.player('bob');
    await promisify(execFile)(process.env.PARLOUR_BINARY,
      ['admin', 'adjust', 'alice', '2000', '--memo', 'a deep bank', '--db', fixture.server.db]);
    // The running server reads the adjustment from the store's change feed.
    await assertEventually(async () => (await overOwnSocket(alice.page, [{ type: 'ledger' }]))[0].balance === 3000,
      'alice has her 3000 chips');
    const [created] = await overOwnSocket(alice.page, [
      { type: 'create', game: 'red_and_black', seats: 2, seed: SEED, deck: FIVE_RED },
    ]);
    const tableId = created.table;
    assert.ok(tableId, `create answered ${JSON.stringify(created)}`);
    await alice.joinFromLobby(tableId);
    await bob.joinFromLobby(tableId);
    await alice.start();
    await bob.waitForTurn();

    const [bet] = await overOwnSocket(bob.page, [
      { type: 'act', table: tableId, action: { type: 'bet', colour: 'black', amount: 1000 } },
    ]);
    assert.equal(bet.type, 'ok');

    for (const viewer of [alice, bob]) {
      const unpaid = viewer.page.locator('[data-zone="result-unpaid"] li');
      await assertEventually(async () => (await unpaid.count()) === 1, `${viewer.name} sees one unpaid rest`);
      assert.equal((await unpaid.textContent()).trim(), 'bob could not pay 1000 chips owed to alice.',
        `${viewer.name} is told who the rest is owed to`);
      assert.deepEqual(await viewer.resultDeltas(), { 0: 1000, 1: -1000 }, `${viewer.name}'s result rows`);
    }
    assert.equal((await bob.ledger()).balance, 0);
  });
});
