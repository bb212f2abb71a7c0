// Settle-up in the browser: three people play a deal of Red Dog with a fixed
// seed, the host ends the table, and her ledger page settles tonight's tables:
// each person's net, the payments line "X pays Y N", the CSV of it, and each
// ledger movement linked to its deal with a memo that names its rule.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { ROOT, withFixture } from './harness.mjs';

// The seed of red_dog.test.mjs: alice (seat 0) deals; everyone antes 1 (pot 3);
// bob bets 2 and loses, carol bets 1 and wins, alice bets 1 and loses: pot 5.
// The host ends the table before the next deal (the deal pause is long here):
// the pot of 5 is shared from the dealer's left, bob 2, carol 2, alice 1.
// Nets: alice -2 +1 = -1, bob -3 +2 = -1, carol 0 +2 = +2. One group of three,
// so two payments: alice pays carol 1, bob pays carol 1 (the tie between the two
// debtors goes by name).
const SEED = 20261123;
const BETS = { 1: 2, 2: 1, 0: 1 };
const NETS = { alice: -1, bob: -1, carol: 2 };
const STARTING_CHIPS = 1000;

test('Settle-up: a deal of Red Dog, the table ended, tonight settled in two payments', { timeout: 90_000 }, async () => {
  await withFixture('settle', async (fixture) => {
    const { players: [alice, bob, carol], tableId } =
      await fixture.seatedTable(['alice', 'bob', 'carol'], { game: 'red_dog', seed: SEED });
    await alice.start();

    const bySeat = { 0: alice, 1: bob, 2: carol };
    for (const seat of [1, 2, 0]) {
      const player = bySeat[seat];
      await player.waitForTurn();
      await player.submitAmount('bet', BETS[seat]);
      // After the last bet the deal is over and `continue` is offered: it stays her turn.
      if (seat !== 0) await player.page.locator(`${ROOT}[data-your-turn="false"]`).waitFor();
    }
    await alice.page.locator('[data-zone="result"] [data-seat="2"][data-chips-delta]').waitFor();
    await alice.endTable();

    // Tonight's tables are settled by default on the host's own ledger page.
    await alice.page.goto(`${fixture.server.url}#/ledger/alice`);
    const settle = alice.page.locator(`[data-testid="balances"][data-table="${tableId}"]`);
    await settle.locator('[data-player="carol"][data-net]').waitFor();
    const nets = await settle.locator('[data-player]').evaluateAll((nodes) => Object.fromEntries(nodes.map((node) =>
      [node.getAttribute('data-player'), [Number(node.getAttribute('data-net')), Number(node.getAttribute('data-balance'))]])));
    assert.deepEqual(nets, Object.fromEntries(Object.entries(NETS).map(([name, net]) => [name, [net, STARTING_CHIPS + net]])),
      'each person\'s net and balance');
    assert.equal(await alice.page.locator(`[data-testid="settle-tables"] input[value="${tableId}"]`).isChecked(), true,
      'tonight\'s table is ticked');

    const payments = alice.page.locator('[data-testid="payments"] [data-testid="payment"]');
    await payments.first().waitFor();
    const lines = await payments.evaluateAll((nodes) => nodes.map((node) =>
      [node.getAttribute('data-from'), node.getAttribute('data-to'), Number(node.getAttribute('data-amount')), node.textContent.trim()]));
    assert.deepEqual(lines, [['alice', 'carol', 1, 'alice pays carol 1'], ['bob', 'carol', 1, 'bob pays carol 1']],
      'the payments that settle everybody');
    assert.equal(await alice.page.locator('[data-testid="settle-apart"] li').count(), 0, 'no bot, no chips left in a pool');
    await alice.screenshot('settle-up.png');

    // The settle-up as CSV.
    const [download] = await Promise.all([
      alice.page.waitForEvent('download'),
      alice.page.locator('[data-testid="settle-csv"]').click(),
    ]);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    assert.ok(csv.startsWith('kind,from,to,amount,table,game\r\n'), `the CSV's header: ${csv}`);
    assert.ok(csv.includes('payment,alice,carol,1,,\r\n') && csv.includes('payment,bob,carol,1,,\r\n'), `the CSV's payments: ${csv}`);

    // Each movement links to its deal and names its rule.
    const deals = await alice.page.locator('[data-testid="ledger-entry"] [data-testid="deal-link"]')
      .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-deal'), node.getAttribute('href')]));
    assert.ok(deals.length >= 3, `alice's ante, bet and share link to their deal: ${JSON.stringify(deals)}`);
    for (const [deal, href] of deals) {
      assert.equal(deal, '1', 'every movement is of deal 1');
      assert.equal(href, `#/table/${encodeURIComponent(tableId)}`, 'the deal links to its table');
    }
    const rows = await alice.page.locator('[data-testid="ledger-entry"]').allTextContents();
    assert.ok(rows.some((text) => text.includes('Red Dog: the table ends: the pot of 5 is shared equally among 3')),
      `the share of the pot says why: ${rows.join(' | ')}`);
    assert.ok(rows.some((text) => text.includes("Red Dog: alice's ante of 1 into the pot")), 'the ante says whose');

    // A second table tonight, hosted by alice, where bob antes too. A friend's settle-up ticks the tables
    // she played at tonight, so bob's reads what alice's does (it used to tick only his newest table).
    await alice.gotoLobby();
    const second = await alice.createTable({ game: 'red_dog', seed: SEED, seats: 2 });
    await bob.acceptInvite(await alice.inviteLink(), second);
    await alice.start();
    await alice.page.locator('[data-zone="log"]').getByText('A new pot is formed', { exact: false }).first().waitFor();
    await alice.endTable();
    const settled = async (player) => {
      await player.page.goto(`${fixture.server.url}#/ledger/${player.name}`);
      await player.page.locator('[data-testid="balances"] [data-player][data-net]').first().waitFor();
      return player.page.evaluate(() => ({
        tables: [...document.querySelectorAll('[data-testid="settle-tables"] input:checked')].map((node) => node.getAttribute('value')).sort(),
        nets: Object.fromEntries([...document.querySelectorAll('[data-testid="balances"] [data-player][data-net]')]
          .map((node) => [node.getAttribute('data-player'), node.getAttribute('data-net')])),
      }));
    };
    const hosts = await settled(alice);
    assert.deepEqual(hosts.tables, [tableId, second].sort(), 'the host ticks both of tonight\'s tables');
    assert.deepEqual(await settled(bob), hosts, 'a friend who played at both ticks the same tables and reads the same nets');
  }, { serverArgs: ['--deal-pause-ms', '600000'] });
});
