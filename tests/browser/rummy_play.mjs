import { assertEventually } from './harness.mjs';

// How the Rummy test picks and makes its discards.

const RANKS = 'A23456789TJQK';

/**
 * The discard least likely to help a meld: the card with the fewest partners
 * (same rank, or same suit within two ranks) in the hand, highest rank first
 * among equals (it counts most against us). Only cards in `allowed` qualify.
 */
export function chooseDiscard(hand, allowed) {
  const rank = (card) => RANKS.indexOf(card[0]);
  const partners = (card) => hand.filter((other) => other !== card &&
    (other[0] === card[0] || (other[1] === card[1] && Math.abs(rank(other) - rank(card)) <= 2))).length;
  const choices = [...new Set(allowed)];
  choices.sort((a, b) => partners(a) - partners(b) || rank(b) - rank(a));
  return choices[0];
}

/**
 * Draws from the stock the way a person would: a click on the stock pile's
 * card. Resolves once the server has answered (the viewer's moves changed);
 * false when the stock shows no card (it is empty and a draw turns the pile over).
 */
export async function drawByStock(player) {
  const before = await player.movesKey();
  const card = player.page.locator('[data-zone="stock"] [data-card]');
  if (!(await card.count())) return false;
  await card.first().click();
  await player.waitForChange(before, 'a click on the stock draws');
  return true;
}

/**
 * Discards `card` the way a person would: a click on it in the hand. When the
 * hand is in selecting mode (melds or lay-offs are possible) that click only
 * selects it (aria-pressed="true"), and a click on the discard pile then
 * discards it. Resolves once the server has answered.
 */
export async function discardByHand(player, card) {
  const { page } = player;
  const before = await player.movesKey();
  const inHand = page.locator(`[data-zone="hand"] [data-card="${card}"]`).first();
  await inHand.click();
  let selected = false;
  await assertEventually(async () => {
    if ((await player.movesKey()) !== before) return true;
    // Read without waiting: after a discard the card is gone from the hand.
    selected = await page.evaluate((code) =>
      document.querySelector(`[data-zone="hand"] [data-card="${code}"]`)?.getAttribute('aria-pressed') === 'true', card);
    return selected;
  }, `a click on ${card} in the hand discards or selects it`);
  if (selected) {
    await page.locator('[data-zone="discard"] [data-card]').first().click();
    await player.waitForChange(before, `a click on the pile discards the selected ${card}`);
  }
  return { selected };
}
