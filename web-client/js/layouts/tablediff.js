// @ts-check
// What a whole-table `layout` action (Carousel) changes, compared with the table
// now: new melds from the hand, cards laid off on existing melds, the rest
// rearranged. Wild cards written "JK=TH" count as the wild card ("JK").

import { isPlainObject } from '../dom.js';

/**
 * @template T
 * @param {T} card
 * @returns {T | string}
 */
export function plainCard(card) {
  return typeof card === 'string' ? card.split('=')[0] : card;
}

/**
 * @param {string[]} cards
 * @returns {Map<string, number>}
 */
function counts(cards) {
  const map = new Map();
  for (const card of cards) map.set(card, (map.get(card) || 0) + 1);
  return map;
}

/**
 * a − b as multisets of cards.
 * @param {string[]} a
 * @param {string[]} b
 * @returns {string[]}
 */
export function minus(a, b) {
  const left = counts(b);
  /** @type {string[]} */
  const out = [];
  for (const card of a) {
    const spare = left.get(card) ?? 0;
    if (spare > 0) left.set(card, spare - 1);
    else out.push(card);
  }
  return out;
}

/**
 * @param {string[]} a
 * @param {string[]} b
 * @returns {boolean}
 */
export function sameSet(a, b) {
  return a.length === b.length && minus(a, b).length === 0;
}

/**
 * entry: {"type":"layout","melds":[[…],…]}; table: the view's melds [{id, owner, cards}].
 * → {added: cards from the hand, newMelds: [[cards]], layoffs: [{meld, cards}], rearranged: bool}
 * @param {{melds?: unknown} | null | undefined} entry
 * @param {unknown} table
 */
export function layoutDiff(entry, table) {
  const oldMelds = (Array.isArray(table) ? table : []).filter(isPlainObject)
    .map((m) => ({ meld: m.id, cards: (m.cards || []).map(plainCard), used: false }));
  const newMelds = (Array.isArray(entry?.melds) ? entry.melds : []).filter(Array.isArray).map((m) => m.map(plainCard));
  /** @type {{added: string[], newMelds: string[][], layoffs: {meld: number | string, cards: string[]}[], rearranged: boolean}} */
  const result = { added: [], newMelds: [], layoffs: [], rearranged: false };
  /** @type {string[][]} */
  const pending = [];
  for (const cards of newMelds) {
    const same = oldMelds.find((m) => !m.used && sameSet(m.cards, cards));
    if (same) same.used = true;
    else pending.push(cards);
  }
  for (const cards of pending) {
    const grown = oldMelds.find((m) => !m.used && minus(m.cards, cards).length === 0);
    if (grown) {
      grown.used = true;
      result.layoffs.push({ meld: grown.meld, cards: minus(cards, grown.cards) });
    } else {
      result.newMelds.push(cards);
    }
  }
  result.rearranged = oldMelds.some((m) => !m.used);
  result.added = minus(newMelds.flat(), oldMelds.flatMap((m) => m.cards));
  return result;
}
