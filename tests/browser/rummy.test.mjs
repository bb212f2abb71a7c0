// A deal of Rummy played by clicking against a bot until its result shows: draw
// from the stock, meld and lay off whatever the legal list offers, and discard
// by picking a card in the hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, withFixture } from './harness.mjs';
import { chooseDiscard, discardByHand, drawByStock } from './rummy_play.mjs';

const SEED = 424242;
const MAX_TURNS = 150; // the pile is turned over at most once, so a deal ends long before this

test('Rummy: a deal played by clicking to its result against a bot', { timeout: 120_000 }, async () => {
  await withFixture('rummy', async (fixture) => {
    const erin = await fixture.player('erin');
    const { page } = erin;
    const tableId = await erin.createTable({ game: 'rummy', seed: SEED, seats: 2 });
    await erin.joinFromLobby(tableId);
    await erin.addBot();
    await erin.start();

    const result = page.locator('[data-zone="result"] [data-seat][data-chips-delta]');
    const yourTurn = page.locator(`${ROOT}[data-your-turn="true"]`);
    const counts = { draw: 0, meld: 0, lay_off: 0, discard: 0, selected: 0, heldBack: 0, other: 0 };
    let turns = 0;
    for (;;) {
      // Either the deal is over or it is erin's move.
      await result.first().or(yourTurn).first().waitFor({ timeout: 20_000 });
      if (await result.count()) break;
      assert.ok(++turns <= MAX_TURNS, `the deal ended within ${MAX_TURNS} moves`);
      const legal = (await erin.legalActions()).map((json) => ({ json, action: JSON.parse(json) }));
      assert.ok(legal.length > 0, 'your-turn means there is a legal action button');
      const before = await erin.movesKey();
      const of = (type) => legal.filter((entry) => entry.action.type === type);
      if (of('draw').length) {
        const fromStock = of('draw').find((entry) => entry.action.from === 'stock');
        // A click on the stock pile; the action button when the stock is empty (a draw turns the pile).
        if (!fromStock || !(await drawByStock(erin))) await erin.clickAction((fromStock ?? of('draw')[0]).json);
        await erin.waitForChange(before);
        counts.draw++;
      } else if ((of('meld').length || of('lay_off').length) && of('discard').length && !counts.heldBack &&
                 await page.locator('[data-zone="discard"] [data-card]').count()) {
        // Once per deal, hold the melds back and discard a card that is in none of
        // them: with melds possible, a click on a hand card selects it, and a
        // click on the discard pile then discards it.
        const used = new Set([...of('meld'), ...of('lay_off')].flatMap((entry) => entry.action.cards));
        const spare = of('discard').map((entry) => entry.action.card).filter((card) => !used.has(card));
        const card = chooseDiscard(await erin.handCards(), spare.length ? spare : of('discard').map((entry) => entry.action.card));
        const { selected } = await discardByHand(erin, card);
        assert.ok(selected, `with melds possible a click on ${card} selects it`);
        counts.heldBack++;
        counts.selected++;
        counts.discard++;
      } else if (of('meld').length) {
        // The biggest meld first, with the contract's action button.
        const meld = of('meld').sort((a, b) => b.action.cards.length - a.action.cards.length)[0];
        await erin.clickAction(meld.json);
        await erin.waitForChange(before);
        counts.meld++;
      } else if (of('lay_off').length) {
        await erin.clickAction(of('lay_off')[0].json);
        await erin.waitForChange(before);
        counts.lay_off++;
      } else if (of('discard').length) {
        // A click on the card in the hand.
        const card = chooseDiscard(await erin.handCards(), of('discard').map((entry) => entry.action.card));
        const { selected } = await discardByHand(erin, card);
        assert.ok(selected, `a click on ${card} selects it; the pile confirms the discard`);
        counts.selected++;
        counts.discard++;
      } else {
        // Anything else the options might offer (pass, decline, …): the first button.
        await erin.clickAction(legal[0].json);
        await erin.waitForChange(before);
        counts.other++;
      }
    }

    const deltas = await erin.resultDeltas();
    await erin.screenshot('result-rummy.png');
    console.log(`rummy: ${turns} moves ${JSON.stringify(counts)}; result ${JSON.stringify(deltas)}`);
    assert.deepEqual(Object.keys(deltas).sort(), ['0', '1'], 'a result row for both seats');
    assert.equal(deltas[0] + deltas[1], 0, 'what one seat wins the other loses');
    assert.ok(counts.draw > 0 && counts.discard > 0, 'erin drew and discarded');
    assert.equal(counts.selected, counts.discard, 'every discard went through selecting the card and confirming it');
    // The chips reached the ledger.
    const mine = deltas[await erin.seatNumber()];
    const ledger = await erin.ledger();
    assert.equal(ledger.balance, 1000 + mine, "erin's ledger agrees with the result");
  });
});
