// Three people at one Red Dog table, each in their own browser context: the host
// creates the table with a fixed seed and sits down from the lobby, the others
// join through the invite link, everyone bets by clicking, and the deal's
// result on the table page must show exactly the chips the seed deals them,
// the same numbers as each player's ledger page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, withFixture } from './harness.mjs';

const SEED = 20261123;
const STARTING_CHIPS = 1000;
// Seat → what that seat bets. Seat 0 deals, so seats 1, 2, 0 bet in that order.
const BETS = { 1: 2, 2: 1, 0: 1 };
// What the seed deals, seat → chips won (+) or lost (−), antes included. Seed
// 20261123 deals alice 8H 6H TH 7D 2D, bob 4D 8D 4S 3D 6D, carol KC 4H JC 8S KD;
// everyone antes 1; bob bets 2 and loses (−3), carol bets 1 and wins (0),
// alice bets 1 and loses (−2). The pot carries over, so no one antes again at
// the next deal and each balance stays 1000 + this.
const EXPECTED = { 0: -2, 1: -3, 2: 0 };
const HANDS = {
  alice: ['8H', '6H', 'TH', '7D', '2D'],
  bob: ['4D', '8D', '4S', '3D', '6D'],
  carol: ['KC', '4H', 'JC', '8S', 'KD'],
};

test('Red Dog: three browsers, invite link, a deal played by clicking, result = ledger', { timeout: 90_000 }, async () => {
  await withFixture('red-dog', async (fixture) => {
    const { players: [alice, bob, carol], tableId } =
      await fixture.seatedTable(['alice', 'bob', 'carol'], { game: 'red_dog', seed: SEED });

    // Everyone sees all three seated, in the order they sat down.
    for (const viewer of [alice, bob, carol]) {
      assert.equal(await viewer.seatNumber('alice'), 0, `${viewer.name} sees alice in seat 0`);
      assert.equal(await viewer.seatNumber('bob'), 1, `${viewer.name} sees bob in seat 1`);
      assert.equal(await viewer.seatNumber('carol'), 2, `${viewer.name} sees carol in seat 2`);
    }

    await alice.start();
    for (const viewer of [alice, bob, carol]) await viewer.table.locator('[data-zone="hand"] [data-card]').first().waitFor();

    // Each sees five cards of their own and no face of anyone else's.
    const hands = {};
    for (const viewer of [alice, bob, carol]) {
      const cards = await viewer.handCards();
      assert.equal(cards.length, 5, `${viewer.name} holds five cards: ${cards}`);
      assert.ok(cards.every((card) => /^[2-9TJQKA][SHDC]$/.test(card)), `${viewer.name}'s cards are faces: ${cards}`);
      hands[viewer.name] = cards;
      assert.deepEqual([...cards].sort(), [...HANDS[viewer.name]].sort(), `the seed deals ${viewer.name} the same hand`);
      const elsewhere = await viewer.cardsOutsideHand();
      assert.ok(elsewhere.every((card) => card === 'back'), `${viewer.name} sees no face outside the hand: ${elsewhere}`);
    }

    const bySeat = { 0: alice, 1: bob, 2: carol };
    for (const seat of [1, 2, 0]) {
      const player = bySeat[seat];
      await player.waitForTurn();
      for (const other of Object.values(bySeat).filter((p) => p !== player)) {
        assert.equal(await other.table.getAttribute('data-your-turn'), 'false', `not ${other.name}'s turn while ${player.name} bets`);
      }
      await player.submitAmount('bet', BETS[seat]);
      await player.page.locator(`${ROOT}[data-your-turn="false"]`).waitFor();
    }

    // The deal is settled: the same result on every page.
    const results = [];
    for (const viewer of [alice, bob, carol]) {
      await viewer.page.locator('[data-zone="result"] [data-seat="2"][data-chips-delta]').waitFor();
      results.push(await viewer.resultDeltas());
    }
    console.log(`hands ${JSON.stringify(hands)}; result ${JSON.stringify(results[0])}`);
    await bob.screenshot('result-red_dog.png');
    assert.deepEqual(results[1], results[0], 'bob sees the same result as alice');
    assert.deepEqual(results[2], results[0], 'carol sees the same result as alice');
    assert.deepEqual(results[0], EXPECTED, 'the seed deals exactly these chips');

    // The table is drawn from pushes that leave out what each page has had
    // (docs/protocol.md "State"): the ante (a view constant, in the first push
    // only), the host (likewise) and each seat's chips (sent alone when only
    // chips changed) are still on every page, and right.
    for (const viewer of [alice, bob, carol]) {
      const ante = viewer.table.locator('.fact', { hasText: 'Ante' }).locator('strong');
      assert.equal((await ante.textContent()).trim(), '1', `${viewer.name} sees the ante`);
      const hostSeat = viewer.table.locator('[data-zone="seat"][data-player="alice"]');
      assert.equal(await hostSeat.locator('.badge-host').count(), 1, `${viewer.name} sees alice as the host`);
      for (const [seat, player] of Object.entries(bySeat)) {
        const amount = viewer.table.locator(`[data-zone="seat"][data-player="${player.name}"] .seat-chips-amount`);
        assert.equal(Number((await amount.textContent()).replace(/[^0-9-]/g, '')), STARTING_CHIPS + EXPECTED[seat],
          `${viewer.name} sees ${player.name}'s chips`);
      }
    }

    // Each ledger page agrees with the result.
    for (const [seat, player] of Object.entries(bySeat)) {
      const ledger = await player.ledger();
      const expected = STARTING_CHIPS + EXPECTED[seat];
      assert.equal(ledger.balance, expected, `${player.name}'s ledger balance`);
      assert.equal(Number(ledger.text.replace(/[^0-9-]/g, '')), expected, `${player.name}'s balance text "${ledger.text}"`);
      assert.equal(ledger.amounts.reduce((a, b) => a + b, 0), expected, `${player.name}'s ledger entries add up`);
    }
    // Alice on another device: the secret key on her ledger page signs a fresh
    // browser context in as her, with the same balance.
    await alice.ledger();
    const keyBox = alice.page.locator('[data-testid="token"]');
    assert.match((await keyBox.textContent()).trim(), /^•+$/, 'the hidden key shows only dots');
    await alice.page.locator('[data-testid="token-show"]').click();
    const token = (await keyBox.textContent()).trim();
    assert.ok(token.length >= 16 && !token.includes('•'), 'Show reveals the secret key');
    const aliceElsewhere = await fixture.player('alice', token);
    assert.equal((await aliceElsewhere.ledger()).balance, STARTING_CHIPS + EXPECTED[0], "alice's balance on her other device");

    // The host's settle-up table for this table: every player's net there and balance now.
    // (Its rows' data-player / data-net / data-balance go beyond the written contract.)
    await alice.page.goto(`${fixture.server.url}#/ledger/alice?table=${tableId}`);
    const settle = alice.page.locator(`[data-testid="balances"][data-table="${tableId}"]`);
    await settle.locator('[data-player="carol"][data-net]').waitFor();
    const rows = await settle.locator('[data-player]').evaluateAll((nodes) => Object.fromEntries(nodes.map((node) =>
      [node.getAttribute('data-player'), [Number(node.getAttribute('data-net')), Number(node.getAttribute('data-balance'))]])));
    assert.deepEqual(rows, Object.fromEntries(Object.entries(bySeat).map(([seat, player]) =>
      [player.name, [EXPECTED[seat], STARTING_CHIPS + EXPECTED[seat]]])), 'the settle-up table agrees with the result');

    // And a player can read another's ledger.
    const bobSeenByCarol = await carol.ledger('bob');
    assert.equal(bobSeenByCarol.balance, STARTING_CHIPS + EXPECTED[1], "carol reads bob's balance");
  });
});
