// Playing cards: recognising the two-character card strings of PROTOCOL.md
// ("TH", "JK", "??") and drawing them.

import { el } from './dom.js';

const CARD_PATTERN = /^([A2-9TJQK][SHDC]|JK|\?\?)$/;

const SUITS = {
  S: { symbol: '♠', name: 'spades', red: false },
  H: { symbol: '♥', name: 'hearts', red: true },
  D: { symbol: '♦', name: 'diamonds', red: true },
  C: { symbol: '♣', name: 'clubs', red: false },
};

const RANK_NAMES = {
  A: 'ace', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven',
  8: 'eight', 9: 'nine', T: 'ten', J: 'jack', Q: 'queen', K: 'king',
};

export function isCard(value) {
  return typeof value === 'string' && CARD_PATTERN.test(value);
}

/** A non-empty array whose every element is a card string. */
export function isCardList(value) {
  return Array.isArray(value) && value.length > 0 && value.every(isCard);
}

/** "T" is shown as "10": that is how the rank is printed on real cards. */
function rankLabel(rank) {
  return rank === 'T' ? '10' : rank;
}

function describe(card) {
  if (card === '??') return 'hidden card';
  if (card === 'JK') return 'joker';
  return `${RANK_NAMES[card[0]]} of ${SUITS[card[1]].name}`;
}

/** A card face (or back, or joker) ~48×68 px. */
export function cardElement(card) {
  if (card === '??') return el('span', { class: 'card card-back', title: describe(card), 'aria-label': describe(card) });
  if (card === 'JK') {
    return el('span', { class: 'card card-joker', title: describe(card), 'aria-label': describe(card) },
      el('span', { class: 'card-corner', text: 'JK' }),
      el('span', { class: 'card-pip', text: '★' }));
  }
  const suit = SUITS[card[1]];
  return el('span', { class: `card${suit.red ? ' card-red' : ''}`, title: describe(card), 'aria-label': describe(card) },
    el('span', { class: 'card-corner' }, el('span', { text: rankLabel(card[0]) }), el('span', { text: suit.symbol })),
    el('span', { class: 'card-pip', text: suit.symbol }));
}

/** A row of cards. */
export function cardRow(cards) {
  return el('span', { class: 'card-row' }, cards.map(cardElement));
}

/** Inline text form for labels: "7♥" with the suit coloured, "Joker", "hidden card". */
export function cardText(card) {
  if (card === '??') return el('span', { class: 'card-text', text: 'hidden', title: describe(card) });
  if (card === 'JK') return el('span', { class: 'card-text', text: 'Joker', title: describe(card) });
  const suit = SUITS[card[1]];
  return el('span', { class: `card-text${suit.red ? ' card-text-red' : ''}`, title: describe(card) },
    rankLabel(card[0]) + suit.symbol);
}
