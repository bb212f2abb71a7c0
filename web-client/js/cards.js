// @ts-check
// Playing cards: recognising the two-character card strings of PROTOCOL.md
// ("TH", "JK", "??") and drawing them as inline SVG (no image downloads).
//
// Every card drawn carries data-card="<code>" ("back" for a face-down card)
// and a text alternative ("queen of hearts", "joker", "face-down card").

import { el } from './dom.js';
import { t, tn } from './i18n.js';

/**
 * `cardElement`'s options: the element's tag and size, an extra class, and any other
 * attributes (as `el` takes them).
 * @typedef {{tag?: 'span' | 'button', size?: 'sm' | 'md' | 'lg', className?: string} & import('../types/dom').Attrs} CardOptions
 */

// E and W are the eleven- and twelve-spot cards of Royal Cassino's special pack.
const CARD_PATTERN = /^([A2-9TJQKEW][SHDC]|JK|\?\?)$/;
const SVG_NS = 'http://www.w3.org/2000/svg';

/** @type {Record<string, {symbol: string, name: string, red: boolean}>} */
export const SUITS = {
  S: { symbol: '♠', name: t('spades'), red: false },
  H: { symbol: '♥', name: t('hearts'), red: true },
  D: { symbol: '♦', name: t('diamonds'), red: true },
  C: { symbol: '♣', name: t('clubs'), red: false },
};

/** @type {Record<string, string>} */
const RANK_NAMES = {
  A: t('ace'), 2: t('two'), 3: t('three'), 4: t('four'), 5: t('five'), 6: t('six'), 7: t('seven'),
  8: t('eight'), 9: t('nine'), T: t('ten'), J: t('jack'), Q: t('queen'), K: t('king'), E: t('eleven'), W: t('twelve'),
};

// Pip positions on a 60×84 face (x, y, upside-down?) for the number cards.
/** @type {Record<string, [number, number, number][]>} */
const PIPS = {
  A: [[30, 42, 0]],
  2: [[30, 18, 0], [30, 66, 1]],
  3: [[30, 18, 0], [30, 42, 0], [30, 66, 1]],
  4: [[20, 18, 0], [40, 18, 0], [20, 66, 1], [40, 66, 1]],
  5: [[20, 18, 0], [40, 18, 0], [30, 42, 0], [20, 66, 1], [40, 66, 1]],
  6: [[20, 18, 0], [40, 18, 0], [20, 42, 0], [40, 42, 0], [20, 66, 1], [40, 66, 1]],
  7: [[20, 18, 0], [40, 18, 0], [30, 30, 0], [20, 42, 0], [40, 42, 0], [20, 66, 1], [40, 66, 1]],
  8: [[20, 18, 0], [40, 18, 0], [30, 30, 0], [20, 42, 0], [40, 42, 0], [30, 54, 1], [20, 66, 1], [40, 66, 1]],
  9: [[20, 17, 0], [40, 17, 0], [20, 33, 0], [40, 33, 0], [30, 42, 0], [20, 51, 1], [40, 51, 1], [20, 67, 1], [40, 67, 1]],
  T: [[20, 17, 0], [40, 17, 0], [30, 25, 0], [20, 33, 0], [40, 33, 0], [20, 51, 1], [40, 51, 1], [30, 59, 1], [20, 67, 1], [40, 67, 1]],
};

/**
 * A card string of PROTOCOL.md ("TH", "JK", "??"; E and W ranks too).
 * @param {unknown} value
 * @returns {value is string}
 */
export function isCard(value) {
  return typeof value === 'string' && CARD_PATTERN.test(value);
}

/**
 * A non-empty array whose every element is a card string.
 * @param {unknown} value
 * @returns {value is string[]}
 */
export function isCardList(value) {
  return Array.isArray(value) && value.length > 0 && value.every(isCard);
}

/**
 * "T" is shown as "10": that is how the rank is printed on real cards.
 * @param {string} rank
 * @returns {string}
 */
export function rankLabel(rank) {
  return /** @type {Record<string, string>} */ ({ T: '10', E: '11', W: '12' })[rank] ?? rank;
}

/**
 * A face-up card (not "??").
 * @param {unknown} value
 * @returns {value is string}
 */
export function isFace(value) {
  return isCard(value) && value !== '??';
}

/**
 * "queen of hearts", "joker", "face-down card".
 * @param {unknown} card
 * @returns {string}
 */
export function describeCard(card) {
  if (card === '??') return t('face-down card');
  if (card === 'JK') return t('joker');
  if (!isCard(card)) return String(card);
  return t('{rank} of {suit}', { rank: RANK_NAMES[card[0]], suit: SUITS[card[1]].name });
}

/**
 * "Q♥", "10♠", "Joker": the short symbol form used in log lines and labels.
 * @param {string} card
 * @returns {string}
 */
export function cardSymbol(card) {
  if (card === '??') return t('a hidden card');
  if (card === 'JK') return t('Joker');
  return rankLabel(card[0]) + SUITS[card[1]].symbol;
}

/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {...(Node | string | null | undefined)} children
 */
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** @param {string} card a card string ("??" for a back) */
function face(card) {
  const root = svg('svg', { viewBox: '0 0 60 84', class: 'card-svg', 'aria-hidden': 'true', focusable: 'false' });
  if (card === '??') {
    root.append(
      svg('rect', { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, class: 'card-back-edge' }),
      svg('rect', { x: 4, y: 4, width: 52, height: 76, rx: 3, class: 'card-back-fill' }),
      svg('path', { d: 'M30 22 L44 42 L30 62 L16 42 Z', class: 'card-back-mark' }),
      svg('circle', { cx: 30, cy: 42, r: 5, class: 'card-back-dot' }));
    return root;
  }
  root.append(svg('rect', { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, class: 'card-face' }));
  if (card === 'JK') {
    root.append(
      svg('text', { x: 5, y: 14, class: 'card-index card-index-joker' }, 'JOKER'),
      svg('text', { x: 30, y: 52, class: 'card-star', 'text-anchor': 'middle' }, '★'),
      svg('text', { x: 55, y: 78, class: 'card-index card-index-joker', 'text-anchor': 'end' }, 'JOKER'));
    return root;
  }
  const rank = card[0];
  const suit = SUITS[card[1]];
  root.append(
    svg('text', { x: 4.5, y: 15, class: 'card-index' }, rankLabel(rank)),
    svg('text', { x: 5, y: 26, class: 'card-index-suit' }, suit.symbol),
    svg('g', { transform: 'rotate(180 30 42)' },
      svg('text', { x: 4.5, y: 15, class: 'card-index' }, rankLabel(rank)),
      svg('text', { x: 5, y: 26, class: 'card-index-suit' }, suit.symbol)));
  if (PIPS[rank]) {
    const big = rank === 'A';
    for (const [x, y, flip] of PIPS[rank]) {
      const pip = svg('text', {
        x, y: y + (big ? 9 : 4), class: big ? 'card-pip card-pip-ace' : 'card-pip', 'text-anchor': 'middle',
      }, suit.symbol);
      if (flip) pip.setAttribute('transform', `rotate(180 ${x} ${y})`);
      root.append(pip);
    }
  } else {
    // Court cards: a framed panel with the letter and the suit.
    root.append(
      svg('rect', { x: 13, y: 13, width: 34, height: 58, rx: 2, class: 'card-court-frame' }),
      svg('text', { x: 30, y: 42, class: 'card-court', 'text-anchor': 'middle' }, rankLabel(rank)),
      svg('text', { x: 30, y: 62, class: 'card-court-suit', 'text-anchor': 'middle' }, suit.symbol));
  }
  return root;
}

/**
 * A card element. options: {tag:'span'|'button', size:'sm'|'md'|'lg', ...attrs}.
 * A face-down card is data-card="back".
 * @param {unknown} card
 * @param {CardOptions} [options]
 * @returns {HTMLElement}
 */
export function cardElement(card, options = {}) {
  const wild = typeof card === 'string' ? /^(JK|[A2-9TJQK][SHDC])=([A2-9TJQK][SHDC])$/.exec(card) : null;
  if (wild) {
    // A wild card and what it stands for ("JK=TH"): the wild card, labelled.
    const label = t('{card} as {as}', { card: describeCard(wild[1]), as: describeCard(wild[2]) });
    const node = cardElement(wild[1], { ...options, 'aria-label': label, title: label });
    node.append(el('span', { class: 'card-as', 'aria-hidden': 'true', text: cardSymbol(wild[2]) }));
    return node;
  }
  if (!isCard(card)) card = '??';
  const { tag = 'span', size, className = '', ...attrs } = options;
  const code = card === '??' ? 'back' : card;
  const suit = isCard(card) && card.length === 2 && SUITS[card[1]] ? SUITS[card[1]] : null;
  const classes = ['card'];
  if (card === '??') classes.push('card-back');
  else if (card === 'JK') classes.push('card-joker');
  else if (suit?.red) classes.push('card-red');
  if (size) classes.push(`card-${size}`);
  if (className) classes.push(className);
  const label = describeCard(card);
  const node = el(tag, {
    class: classes.join(' '),
    'data-card': code,
    'aria-label': label,
    title: label,
    role: tag === 'span' ? 'img' : null,
    ...attrs,
  });
  node.append(face(/** @type {string} */ (card))); // a card string by now ('??' if it was none)
  return node;
}

/**
 * A row of cards.
 * @param {unknown[]} cards
 * @param {CardOptions} [options]
 */
export function cardRow(cards, options = {}) {
  return el('span', { class: 'card-row' }, cards.map((card) => cardElement(card, options)));
}

/**
 * A pile: the top card (or a back) with a count badge.
 * @param {string | null | undefined} top
 * @param {unknown} count
 * @param {string} label
 */
export function pileElement(top, count, label) {
  const badge = Number.isInteger(count) ? el('span', { class: 'pile-count', text: String(count), title: tn(Number(count), '{n} card', '{n} cards') }) : null;
  return el('span', { class: 'pile', title: label },
    top ? cardElement(top) : el('span', { class: 'card card-empty', 'aria-label': t('empty'), text: '' }),
    badge);
}

/**
 * Inline text form for labels: "7♥" with the suit coloured, "Joker", "hidden".
 * @param {string} card
 */
export function cardText(card) {
  if (card === '??') return el('span', { class: 'card-text', text: t('hidden'), title: describeCard(card) });
  if (card === 'JK') return el('span', { class: 'card-text', text: t('Joker'), title: describeCard(card) });
  const suit = SUITS[card[1]];
  return el('span', { class: `card-text${suit.red ? ' card-text-red' : ''}`, title: describeCard(card), role: 'img', 'aria-label': describeCard(card) },
    rankLabel(card[0]) + suit.symbol);
}
