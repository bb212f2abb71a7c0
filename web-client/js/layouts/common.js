// @ts-check
// Building blocks shared by every table layout, drawn from the common view
// schema (schema.js, docs/protocol.md "View schema"): seats around the table,
// the viewer's fanned hand, piles with counts, pools with chip stacks, the
// trick, melds grouped by owner, scores. Each block carries its `data-zone`
// (see README.md); a layout adds only its game family's specifics.

import { el, formatChips, humanise, isPlainObject, sameName } from '../dom.js';
import { cardElement, describeCard, isCard, isFace } from '../cards.js';
import { seatName } from '../render.js';
import { displayName } from '../names.js';
import { faceUpCards } from './schema.js';
import { t, tn, tWord } from '../i18n.js';

/**
 * The viewer's own arrangement of the hand, kept by the table page across pushes:
 * sorted by suit or rank, or dragged into an order, and the cards just drawn.
 * @typedef {object} Arrange
 * @property {'suit' | 'rank' | null} sort
 * @property {string[] | null} order
 * @property {() => void} [rerender]
 * @property {string[]} [lastHand]
 * @property {boolean} [fresh]
 * @property {string[]} [drawn]
 * @property {boolean} [moving] "Move cards" is on: a tap lifts a card, a second tap puts it in its new place
 * @property {string | null} [lifted] the card lifted to be moved
 */

/** @typedef {import('../../types/wire').State} State */
/** @typedef {import('../../types/wire').Player} Player */
/** @typedef {import('../../types/wire').Pile} Pile */
/** @typedef {import('../../types/wire').Meld} Meld */
/** @typedef {import('../../types/dom').Child} Child */
/** @typedef {import('../../types/dom').Attrs} Attrs */
/** @typedef {import('../render.js').RenderContext} RenderContext */
/** @typedef {import('./schema.js').Schema} Schema */
/** @typedef {import('../../types/wire').ViewSeat} ViewSeat */
/** @typedef {{card?: unknown, index?: unknown}} DraggedCard what a dragged hand card carries (it may come from anywhere) */

/**
 * What a layout says of one seat besides its name and chips (`seatZone`).
 * @typedef {object} SeatInfo
 * @property {number} [count] cards in hand
 * @property {boolean} [dealer]
 * @property {Child[]} [extras]
 * @property {string | null} [status]
 * @property {boolean} [out]
 * @property {boolean} [faceUp] the hand lies face up (no backs drawn)
 */

/**
 * `handZone`'s options.
 * @typedef {object} HandOptions
 * @property {ReadonlySet<unknown>} [playable]
 * @property {number[]} [selected]
 * @property {((card: string, index: number, event: MouseEvent) => void) | null} [onCard]
 * @property {boolean} [selectable]
 * @property {boolean} [draggable]
 * @property {boolean} [disableUnplayable]
 * @property {((card: string) => string | null) | null} [mutedReason] why a dimmed card cannot be played (its title and label)
 * @property {Arrange | null} [arrange]
 */

/**
 * `discardZone`'s (and `pileZone`'s) options.
 * @typedef {object} PileOptions
 * @property {string} [label]
 * @property {string} [zone]
 * @property {(() => void) | null} [onClick]
 * @property {string} [clickLabel]
 * @property {(card: string, depth: number) => ((() => void) | null | undefined)} [onSpreadCard]
 * @property {boolean} [arrive]
 * @property {boolean} [spread]
 * @property {Record<string, string | null>} [attrs]
 */

/**
 * `meldsZone`'s options.
 * @typedef {object} MeldsOptions
 * @property {boolean} [common] one group for every meld
 * @property {string} [commonLabel]
 * @property {string} [title]
 * @property {string} [empty]
 * @property {string} [targetLabel]
 * @property {(meld: Meld) => ((() => void) | null | undefined)} [onMeld]
 * @property {(meld: Meld) => (string | null | undefined)} [describe]
 * @property {(meld: Meld) => boolean} [isSelected]
 * @property {(meld: Meld, drag: DraggedCard) => void} [onDropMeld]
 */

/**
 * `tableFrame`'s parts.
 * @typedef {object} FrameParts
 * @property {(seat: number) => SeatInfo | null | undefined} [seatInfo]
 * @property {Child[]} [center]
 * @property {Child} [hand]
 * @property {Child} [below]
 */

/**
 * `schemaTable`'s parts: as `tableFrame`'s, the seat's facts given its schema entry and the schema's own.
 * @typedef {object} SchemaParts
 * @property {(seat: number, entry: ViewSeat | undefined, base: SeatInfo) => SeatInfo | null | undefined} [seatInfo]
 * @property {Child[]} [center]
 * @property {Child} [hand]
 * @property {Child} [below]
 */

/**
 * Seats in table order starting after the viewer (the viewer last), or from 0 for a spectator.
 * @param {RenderContext} rctx
 * @returns {number[]}
 */
export function seatOrder(rctx) {
  const seats = rctx.players.map((p) => p.seat).filter(Number.isInteger).sort((a, b) => a - b);
  if (rctx.mySeat === null) return seats;
  const at = seats.indexOf(rctx.mySeat);
  return at < 0 ? seats : [...seats.slice(at + 1), ...seats.slice(0, at)];
}

/**
 * A small fan of card backs standing for a hidden hand, with its count.
 * @param {unknown} count
 * @param {number} [max]
 */
export function backsFan(count, max = 7) {
  if (!Number.isInteger(count) || count <= 0) return null;
  const shown = Math.min(count, max);
  return el('span', { class: 'mini-fan', 'aria-hidden': 'true' },
    Array.from({ length: shown }, () => el('span', { class: 'mini-back', 'data-card': 'back' })));
}

/**
 * One seat's area: name, badges, chips, card count, plus the layout's extras.
 * info: {count?, dealer?, extras?: Node[], status?: string}
 * @param {Player} player
 * @param {RenderContext} rctx
 * @param {{host?: string}} state
 * @param {SeatInfo} [info]
 */
export function seatZone(player, rctx, state, info = {}) {
  const seat = player.seat;
  const empty = player.player === null || player.player === undefined;
  const active = rctx.toAct.includes(seat);
  const isMe = seat === rctx.mySeat && rctx.mySeat !== null;
  const account = empty ? '' : String(player.player);
  const name = empty ? t('empty seat') : displayName(account, seat);
  const count = Number.isInteger(info.count) ? info.count : null;
  const classes = ['seat', active ? 'is-active' : '', isMe ? 'is-me' : '', empty ? 'is-empty' : '', info.out ? 'is-out' : ''];
  let label = name;
  if (isMe) label = t('{name} (you)', { name: label });
  if (active) label = t('{who} — to act', { who: label });
  if (count !== null) label = tn(count, '{who} — {n} card', '{who} — {n} cards', { who: label });
  return el('div', {
    class: classes.filter(Boolean).join(' '),
    'data-zone': 'seat', 'data-seat': String(seat), 'data-player': account, 'data-bot': player.bot ? 'true' : null, 'aria-label': label, role: 'group',
  },
  el('div', { class: 'seat-head' },
    empty ? null : el('span', { class: `dot ${player.connected ? 'dot-on' : 'dot-off'}`, title: player.connected ? t('connected') : t('disconnected'), role: 'img', 'aria-label': player.connected ? t('connected') : t('disconnected') }),
    el('span', { class: 'seat-name', text: name, title: name }),
    player.away === true ? el('span', { class: 'badge badge-away', title: t('away: a bot plays this seat until the player is back'), text: t('away') }) : null,
    typeof player.leaving === 'string' ? el('span', { class: 'badge badge-away', title: player.leaving === 'bot' ? t('a bot takes this seat at the next deal') : t('this seat is free for a new player from the next deal'), text: t('leaving') }) : null,
    info.dealer ? el('span', { class: 'badge badge-dealer', title: t('dealer'), text: t('D') }) : null,
    isMe ? el('span', { class: 'badge badge-you', text: t('you') }) : null,
    !empty && sameName(player.player, state.host) ? el('span', { class: 'badge badge-host', text: t('host') }) : null,
    active ? el('span', { class: 'badge badge-turn', text: t('to act') }) : null),
  el('div', { class: 'seat-body' },
    player.chips === undefined ? null : el('span', { class: 'seat-chips', title: t('chips') },
      el('span', { class: 'chip-icon', 'aria-hidden': 'true' }), el('span', { class: 'seat-chips-amount', text: formatChips(player.chips) }),
      el('span', { class: 'sr-only', text: tn(player.chips, ' chip', ' chips') })),
    count !== null ? el('span', { class: 'seat-count', 'data-count': String(count), title: tn(count, '{n} card in hand', '{n} cards in hand') },
      isMe || info.faceUp ? null : backsFan(count), el('span', { class: 'seat-count-text', text: tn(count, '{n} card', '{n} cards') })) : null,
    info.status ? el('span', { class: 'seat-status', text: info.status }) : null),
  info.extras?.length ? el('div', { class: 'seat-extras' }, info.extras) : null);
}

/**
 * The viewer's hand, fanned. options:
 *  playable: Set of cards that can be clicked (others are shown dimmed only if `dimOthers`)
 *  selected: array of indices selected
 *  onCard(card, index, event): click/Enter on a card (makes cards buttons)
 *  onDragCard: enables dragging (dataTransfer "text/card")
 * @param {string[]} cards
 * @param {HandOptions} [options]
 */
export function handZone(cards, options = {}) {
  const arrange = options.arrange || null;
  // Moving cards by tapping (a touch screen has no drag): every card is a button, and a tap moves, not plays.
  const moving = arrange?.moving === true && cards.length > 1;
  if (arrange && (!moving || !cards.includes(String(arrange.lifted)))) arrange.lifted = null;
  const interactive = typeof options.onCard === 'function' || moving;
  const selected = new Set(moving ? [] : options.selected || []);
  const n = cards.length;
  const drawn = arrange ? noteDrawn(arrange, cards) : new Set();
  const dealt = arrange?.fresh === true;
  const shown = arrange ? displayOrder(cards, arrange) : cards.map((_, index) => index);
  // A big hand on a narrow screen is dealt in two rows, so each card shows more than its corner.
  const rows = n > 7 && typeof window !== 'undefined' && window.matchMedia?.('(max-width: 600px)').matches ? 2 : 1;
  const perRow = Math.ceil(n / rows);
  /** @param {number} position */
  const rowSize = (position) => (position < perRow ? perRow : n - perRow);
  const children = shown.map((index, position) => {
    const card = cards[index];
    const playable = moving || !options.playable || options.playable.has(card);
    const isSelected = moving ? arrange?.lifted === card : selected.has(index);
    const muted = interactive && !playable ? options.mutedReason?.(card) ?? null : null;
    const node = cardElement(card, {
      tag: interactive ? 'button' : 'span',
      className: ['hand-card', isSelected ? 'is-selected' : '', interactive && !playable ? 'is-muted' : '', drawn.has(index) ? 'is-drawn' : '', dealt ? 'card-dealt' : ''].filter(Boolean).join(' '),
      type: interactive ? 'button' : null,
      'data-drawn': drawn.has(index) ? 'true' : null,
      'aria-pressed': moving || (interactive && options.selectable) ? String(isSelected) : null,
      'aria-label': cardLabel(card, drawn.has(index), isSelected, muted),
      ...(muted ? { title: muted, 'data-muted-reason': muted } : {}),
      'data-index': String(index),
      draggable: arrange || (interactive && options.draggable) ? 'true' : null,
      disabled: interactive && !playable && options.disableUnplayable ? true : null,
      style: { '--i': String(position % perRow), '--n': String(rowSize(position)) },
    });
    if (moving) node.addEventListener('click', () => liftOrPlace(cards, /** @type {Arrange} */ (arrange), index));
    else if (interactive) node.addEventListener('click', (event) => options.onCard?.(card, index, event));
    if (arrange || options.draggable) {
      node.addEventListener('dragstart', (event) => {
        event.dataTransfer?.setData('text/plain', JSON.stringify({ card, index }));
        if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
      });
    }
    if (arrange) {
      // Drop a hand card on another: it moves to that place (the hand is yours to arrange).
      node.addEventListener('dragover', (event) => { event.preventDefault(); node.classList.add('drag-over'); });
      node.addEventListener('dragleave', () => node.classList.remove('drag-over'));
      node.addEventListener('drop', (event) => {
        event.preventDefault();
        event.stopPropagation();
        try {
          const drag = JSON.parse(event.dataTransfer?.getData('text/plain') ?? '');
          if (Number.isInteger(drag.index) && drag.index !== index && cards[drag.index] === drag.card) moveCard(cards, /** @type {Arrange} */ (arrange), drag.index, index);
        } catch {
          /* not one of our cards */
        }
      });
    }
    return node;
  });
  const laid = rows === 2 ? [el('div', { class: 'hand-row' }, children.slice(0, perRow)), el('div', { class: 'hand-row' }, children.slice(perRow))] : children;
  const hand = el('div', { class: `hand${interactive ? ' hand-interactive' : ''}${rows === 2 ? ' hand-rows' : ''}${moving ? ' is-moving' : ''}`, 'data-zone': 'hand', 'data-rows': String(rows), 'aria-label': tn(n, 'Your hand, {n} card', 'Your hand, {n} cards'), role: 'group' },
    n ? laid : el('span', { class: 'small', text: t('No cards in hand.') }));
  if (!arrange || n < 2) return hand;
  /** @type {(by: 'suit' | 'rank', text: string, hint: string) => HTMLButtonElement} */
  const sortButton = (by, text, hint) => el('button', {
    type: 'button', class: `btn btn-small btn-felt${arrange.sort === by ? ' is-on' : ''}`, 'data-testid': `sort-${by}`,
    'aria-pressed': String(arrange.sort === by), title: hint, 'data-hint': hint, text,
    onclick: () => { const kept = /** @type {Arrange} */ (arrange); kept.sort = by; kept.order = null; kept.rerender?.(); },
  });
  const kept = arrange;
  const move = el('button', {
    type: 'button', class: `btn btn-small btn-felt${moving ? ' is-on' : ''}`, 'data-testid': 'move-cards',
    'aria-pressed': String(moving), title: t('Put your cards in the order you like: tap a card, then the card whose place it takes'),
    text: moving ? t('Done moving') : t('Move cards'),
    onclick: () => { kept.moving = !moving; kept.lifted = null; kept.rerender?.(); },
  });
  return el('div', { class: 'hand-wrap' },
    el('div', { class: 'hand-sort', role: 'group', 'aria-label': t('Arrange your hand') },
      sortButton('suit', t('Sort by suit'), t('Group your cards by suit, low to high (key S)')),
      sortButton('rank', t('Sort by rank'), t('Order your cards by rank, aces first (key S again)')),
      move),
    moving ? el('p', { class: 'hand-moving-hint', 'data-testid': 'move-cards-hint', role: 'status',
      text: kept.lifted ? t('Now tap the card whose place it takes.') : t('Tap the card to move.') }) : null,
    hand);
}

/**
 * A hand card's label: its name, then whether it was just drawn, is selected, or cannot be played and why.
 * @param {string} card
 * @param {boolean} drawn
 * @param {boolean} selected
 * @param {string | null} muted
 * @returns {string}
 */
function cardLabel(card, drawn, selected, muted) {
  let label = describeCard(card);
  if (drawn) label = t('{card}, just drawn', { card: label });
  if (selected) label = t('{card}, selected', { card: label });
  if (muted) label = t('{card}, cannot be played: {reason}', { card: label, reason: muted });
  return label;
}

/**
 * "Move cards": the first tap lifts a card, a tap on another puts it in that
 * card's place, a tap on the lifted card puts it down where it was.
 * @param {string[]} cards
 * @param {Arrange} arrange
 * @param {number} index
 */
function liftOrPlace(cards, arrange, index) {
  const lifted = arrange.lifted ? cards.indexOf(arrange.lifted) : -1;
  if (lifted < 0) {
    arrange.lifted = cards[index];
    arrange.rerender?.();
    return;
  }
  arrange.lifted = null;
  if (lifted === index) arrange.rerender?.();
  else moveCard(cards, arrange, lifted, index);
}

// -- arranging the hand (sort, drag) and the card just drawn --------------------

const RANK_ORDER = 'A23456789TEWJQK';
const SUIT_ORDER = 'SHCD';

/** @param {string} card */
function rankIndex(card) {
  return card === 'JK' ? 99 : RANK_ORDER.indexOf(card[0]);
}

/** @param {string} card */
function suitIndex(card) {
  return card === 'JK' ? 9 : SUIT_ORDER.indexOf(card[1]);
}

/**
 * The order the hand is shown in, as indices into `cards`: sorted, arranged by hand, or as dealt.
 * @param {string[]} cards
 * @param {Arrange} arrange
 * @returns {number[]}
 */
function displayOrder(cards, arrange) {
  const indices = cards.map((_, index) => index);
  if (arrange.sort === 'suit') return indices.sort((a, b) => suitIndex(cards[a]) - suitIndex(cards[b]) || rankIndex(cards[a]) - rankIndex(cards[b]) || a - b);
  if (arrange.sort === 'rank') return indices.sort((a, b) => rankIndex(cards[a]) - rankIndex(cards[b]) || suitIndex(cards[a]) - suitIndex(cards[b]) || a - b);
  if (!Array.isArray(arrange.order)) return indices;
  // The arranged order by card code; cards new since then come last, in the server's order.
  const left = [...indices];
  /** @type {number[]} */
  const out = [];
  for (const code of arrange.order) {
    const at = left.findIndex((i) => cards[i] === code);
    if (at >= 0) out.push(...left.splice(at, 1));
  }
  return [...out, ...left];
}

/**
 * @param {string[]} cards
 * @param {Arrange} arrange
 * @param {number} from
 * @param {number} to
 */
function moveCard(cards, arrange, from, to) {
  const order = displayOrder(cards, arrange).filter((i) => i !== from);
  const at = order.indexOf(to);
  const fromPosition = displayOrder(cards, arrange).indexOf(from);
  const toPosition = displayOrder(cards, arrange).indexOf(to);
  order.splice(fromPosition < toPosition ? at + 1 : at, 0, from);
  arrange.order = order.map((i) => cards[i]);
  arrange.sort = null;
  arrange.rerender?.();
}

/**
 * The indices of the cards that came into the hand since the last drawing (a draw), kept until they leave it.
 * @param {Arrange} arrange
 * @param {string[]} cards
 * @returns {Set<number>}
 */
function noteDrawn(arrange, cards) {
  const before = arrange.lastHand;
  arrange.lastHand = [...cards];
  arrange.fresh = (!Array.isArray(before) || !before.length) && cards.length > 0;
  if (!Array.isArray(before) || !before.length) {
    arrange.drawn = [];
  } else {
    const left = [...before];
    /** @type {string[]} */
    const added = [];
    for (const card of cards) {
      const at = left.indexOf(card);
      if (at >= 0) left.splice(at, 1);
      else added.push(card);
    }
    // A draw brings one to three cards; a new deal (a whole new hand) is not a draw.
    if (added.length >= 1 && added.length <= 3 && left.length <= 1) arrange.drawn = added;
    else if (added.length > 3) arrange.drawn = [];
  }
  const wanted = [...(arrange.drawn || [])];
  /** @type {Set<number>} */
  const marked = new Set();
  cards.forEach((card, index) => {
    const at = wanted.indexOf(card);
    if (at >= 0) { wanted.splice(at, 1); marked.add(index); }
  });
  return marked;
}

/**
 * Make a zone accept a hand card dropped on it.
 * @template {HTMLElement} N
 * @param {N} node
 * @param {(drag: DraggedCard) => void} onDrop
 * @returns {N}
 */
export function dropTarget(node, onDrop) {
  node.classList.add('drop-target');
  node.addEventListener('dragover', (event) => { event.preventDefault(); node.classList.add('drag-over'); });
  node.addEventListener('dragleave', () => node.classList.remove('drag-over'));
  node.addEventListener('drop', (event) => {
    event.preventDefault();
    node.classList.remove('drag-over');
    try {
      onDrop(JSON.parse(event.dataTransfer?.getData('text/plain') ?? ''));
    } catch {
      /* not one of our cards */
    }
  });
  return node;
}

/**
 * The stock (or any face-down pile): a back with its count, optionally clickable (draw).
 * @param {unknown} count
 * @param {(() => void) | null} [onClick]
 * @param {string} [label]
 * @param {Attrs} [attrs]
 */
export function stockZone(count, onClick, label = t('Stock'), attrs = {}) {
  const body = Number.isInteger(count) && count > 0 ? cardElement('??') : el('span', { class: 'card card-empty', text: t('empty') });
  const wrap = onClick
    ? el('button', { type: 'button', class: 'pile-button', onclick: onClick, 'aria-label': tn(/** @type {number} */ (count), 'Draw from the {pile} ({n} card)', 'Draw from the {pile} ({n} cards)', { pile: label.toLowerCase() }) }, body)
    : body;
  return el('div', { class: `pile-zone${onClick ? ' is-clickable' : ''}`, 'data-zone': 'stock', 'data-count': String(count ?? 0), ...attrs },
    wrap,
    el('span', { class: 'pile-label' }, `${label} `, el('strong', { text: String(count ?? 0) })));
}

/**
 * A face-up pile: its top card (or a spread of every card) and its size.
 * @param {unknown} cards
 * @param {unknown} size
 * @param {PileOptions} [options]
 */
export function discardZone(cards, size, options = {}) {
  const list = Array.isArray(cards) ? cards.filter(isCard) : [];
  const count = Number.isInteger(size) ? size : list.length;
  /** @type {HTMLElement} */
  let body;
  if (options.spread && list.length) {
    body = el('div', { class: 'spread' }, list.map((card, index) => {
      const depth = list.length - 1 - index;
      const handler = options.onSpreadCard?.(card, depth);
      const node = cardElement(card, {
        tag: handler ? 'button' : 'span', type: handler ? 'button' : null,
        className: `spread-card${handler ? ' is-playable' : ''}${index === list.length - 1 && options.arrive ? ' card-arrive' : ''}`,
        'aria-label': depth ? tn(depth, '{card}, {n} below the top', '{card}, {n} below the top', { card: describeCard(card) }) : t('{card}, top of the pile', { card: describeCard(card) }),
      });
      if (handler) node.addEventListener('click', handler);
      return node;
    }));
  } else if (list.length) {
    const top = list[list.length - 1];
    const node = cardElement(top, { className: options.arrive ? 'card-arrive' : '' });
    body = options.onClick
      ? el('button', { type: 'button', class: 'pile-button', onclick: options.onClick, 'aria-label': options.clickLabel || t('Take {card} from the discard pile', { card: describeCard(top) }) }, node)
      : node;
  } else {
    body = el('span', { class: 'card card-empty', text: t('empty') });
  }
  return el('div', { class: `pile-zone${options.spread ? ' pile-spread' : ''}${options.onClick ? ' is-clickable' : ''}`, 'data-zone': 'discard', 'data-count': String(count), ...(options.attrs || {}) },
    body,
    el('span', { class: 'pile-label' }, `${options.label || t('Discard')} `, el('strong', { text: String(count) })));
}

/**
 * A stack of chips drawn with CSS; the height grows slowly with the amount.
 * @param {unknown} amount
 */
export function chipStack(amount) {
  const n = Math.max(0, Math.min(8, Math.ceil(Math.log2(Math.max(1, Number(amount) || 0) + 1))));
  return el('span', { class: 'chip-stack', 'aria-hidden': 'true' },
    Array.from({ length: n }, (_, i) => el('span', { class: `chip chip-${i % 3}` })));
}

/**
 * Pools and pots: [{label, amount}] → one [data-zone="pool"] with a stack per entry.
 * @param {({label: string, amount: number | null | undefined} | null | undefined)[]} entries
 */
export function poolZone(entries) {
  const list = /** @type {{label: string, amount: number}[]} */ (entries.filter((e) => e && e.amount !== null && e.amount !== undefined));
  if (!list.length) return null;
  return el('div', { class: 'pool-zone', 'data-zone': 'pool', 'data-amount': String(list[0].amount) },
    list.map((e) => el('div', { class: 'pool', 'data-amount': String(e.amount) },
      chipStack(e.amount),
      el('span', { class: 'pool-label', text: e.label }),
      el('strong', { class: 'pool-amount', text: `${formatChips(e.amount)}` }),
      el('span', { class: 'sr-only', text: tn(e.amount, ' chip', ' chips') }))));
}

/**
 * The cards of a trick, each under its player's name.
 * @param {unknown} plays
 * @param {RenderContext} rctx
 * @param {{label?: string, arrive?: boolean, winner?: unknown, empty?: string}} [options]
 */
export function trickZone(plays, rctx, options = {}) {
  /** @type {{seat: number, card: string}[]} */
  const list = Array.isArray(plays) ? plays.filter((p) => isPlainObject(p) && isCard(p.card)) : [];
  return el('div', { class: 'trick-zone', 'data-zone': 'trick', 'data-count': String(list.length), 'aria-label': options.label || t('Current trick') },
    el('span', { class: 'zone-title', text: options.label || t('Trick') }),
    el('div', { class: 'trick-cards' },
      list.length ? list.map((p, index) => el('figure', { class: 'trick-play', 'data-seat': String(p.seat) },
        cardElement(p.card, {
          className: index === list.length - 1 && options.arrive ? 'card-arrive' : '',
          // The card comes from its player's side: the viewer's from below, the others' from above.
          style: { '--from-y': p.seat === rctx.mySeat ? '90px' : '-90px' },
        }),
        el('figcaption', { text: seatName(rctx, p.seat) + (options.winner === p.seat ? ' ✓' : '') })))
        : el('span', { class: 'muted small', text: options.empty || t('No cards played yet.') })));
}

/**
 * Melds on the table grouped by owner (or one common group).
 * melds: the schema's [{id, owner, cards}]; options.onMeld(meld) makes a meld a button,
 * options.describe(meld) adds words after its cards (a build's value).
 * @param {unknown} melds
 * @param {RenderContext} rctx
 * @param {MeldsOptions} [options]
 */
export function meldsZone(melds, rctx, options = {}) {
  /** @type {Meld[]} */
  const list = Array.isArray(melds) ? melds.filter((m) => isPlainObject(m) && Array.isArray(m.cards)) : [];
  /** @type {Map<number | 'common', Meld[]>} */
  const groups = new Map();
  for (const meld of list) {
    const key = options.common || !Number.isInteger(meld.owner) ? 'common' : meld.owner;
    let group = groups.get(key);
    if (!group) groups.set(key, group = []);
    group.push(meld);
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => (a === 'common' ? -1 : b === 'common' ? 1 : /** @type {number} */ (a) - /** @type {number} */ (b)));
  return el('div', { class: 'melds-zone', 'data-zone': 'melds', 'data-count': String(list.length) },
    el('span', { class: 'zone-title', text: options.title || t('Melds on the table') }),
    list.length ? ordered.map(([owner, group]) => el('div', { class: 'meld-group', 'data-owner': String(owner) },
      el('span', { class: 'meld-owner', text: owner === 'common' ? (options.commonLabel || t('Common')) : owner === rctx.mySeat ? t('{name} (you)', { name: seatName(rctx, owner) }) : seatName(rctx, owner) }),
      el('div', { class: 'meld-list' }, group.map((meld) => {
        const handler = options.onMeld?.(meld);
        const cards = meld.cards.map((card) => cardElement(card, { size: 'sm' }));
        const words = options.describe?.(meld) || null;
        const attrs = {
          class: `meld${handler ? ' is-target' : ''}${options.isSelected?.(meld) ? ' is-selected' : ''}`, 'data-meld': String(meld.id ?? ''),
          'aria-label': meldLabel(meld, words, handler ? options.targetLabel || t('lay off the selected cards here') : null),
          'aria-pressed': options.isSelected ? String(Boolean(options.isSelected(meld))) : null,
        };
        const body = [cards, words ? el('span', { class: 'meld-words', text: words }) : null];
        if (!handler) return el('div', attrs, body);
        const node = el('button', { ...attrs, type: 'button', onclick: handler }, body);
        const onDropMeld = options.onDropMeld;
        if (onDropMeld) dropTarget(node, (drag) => onDropMeld(meld, drag));
        return node;
      })))) : el('span', { class: 'muted small', text: options.empty || t('No melds yet.') }));
}

/**
 * A meld's label: its words (a build's value), its cards, and what clicking it does.
 * @param {Meld} meld
 * @param {string | null} words
 * @param {string | null} target
 * @returns {string}
 */
function meldLabel(meld, words, target) {
  let label = meld.cards.map(describeCard).join(', ');
  if (words) label = t('{words}: {cards}', { words, cards: label });
  if (target) label = t('{meld} — {target}', { meld: label, target });
  return label;
}

/**
 * "A and B and C": the items joined with "and" ("" for none).
 * @param {string[]} items
 * @returns {string}
 */
export function andList(items) {
  return items.length ? items.reduce((a, b) => t('{a} and {b}', { a, b })) : '';
}

/**
 * A little labelled fact ("Trump ♦", "Deal 3").
 * @param {string} label
 * @param {Child} value
 * @param {Attrs} [attrs]
 */
export function fact(label, value, attrs = {}) {
  if (value === null || value === undefined || value === '') return null;
  return el('span', { class: 'fact', ...attrs }, el('span', { class: 'fact-key', text: label }), ' ', el('strong', {}, value));
}

/**
 * The felt: opponents across the top, the centre (piles, melds, trick, pool),
 * the viewer's seat and hand at the bottom. A spectator sees every seat on top.
 * parts: {seatInfo(seat) → info for seatZone, center: Node[], hand: Node|null, below: Node[]}
 * @param {{host?: string}} state
 * @param {RenderContext} rctx
 * @param {FrameParts} parts
 */
export function tableFrame(state, rctx, parts) {
  const order = seatOrder(rctx);
  /** @param {number} seat */
  const info = (seat) => parts.seatInfo?.(seat) || {};
  // Every seat of seatOrder is a listed player's.
  /** @param {number} seat */
  const player = (seat) => /** @type {Player} */ (rctx.players.find((p) => p.seat === seat));
  const me = rctx.mySeat !== null ? player(rctx.mySeat) : null;
  // Opponents sit around the table: with four or more (and the viewer seated),
  // the one on the viewer's left sits at the left, the one on the right at the right.
  const zones = order.map((seat) => seatZone(player(seat), rctx, state, info(seat)));
  const around = me && zones.length >= 4;
  const left = around ? zones.shift() : null;
  const right = around ? zones.pop() : null;
  return el('div', { class: `felt-table${around ? ' felt-around' : ''}` },
    left ? el('div', { class: 'felt-left' }, left) : null,
    el('div', { class: 'felt-opponents', 'data-count': String(zones.length) }, zones),
    right ? el('div', { class: 'felt-right' }, right) : null,
    el('div', { class: 'felt-center' }, parts.center || []),
    me ? el('div', { class: 'felt-me' }, seatZone(me, rctx, state, info(me.seat)), parts.hand || null) : null,
    parts.below || null);
}

/**
 * A waiting table's seats taken (by a player or a bot, as the server counts
 * them for Start) and its seats in all: the felt and the Start button say the same.
 * @param {Partial<State>} state
 * @param {RenderContext} rctx
 * @returns {{taken: number, seats: number}}
 */
export function seatCount(state, rctx) {
  const view = isPlainObject(state.view) ? state.view : {};
  return { taken: takenSeats(rctx.players), seats: Number.isInteger(view.seats) ? view.seats : rctx.players.length };
}

/**
 * How many of these seats someone holds, a player or a bot (a state's `players`
 * or a lobby line's `seats`).
 * @param {{player?: unknown}[]} seats
 * @returns {number}
 */
export function takenSeats(seats) {
  return seats.filter((s) => s.player !== null && s.player !== undefined).length;
}

/**
 * Before play starts: the seats, who is still missing, and the table's options.
 * @param {State} state
 * @param {RenderContext & {me?: string}} rctx
 * @param {string} gameName
 */
export function waitingTable(state, rctx, gameName) {
  const view = isPlainObject(state.view) ? state.view : {};
  const { taken, seats } = seatCount(state, rctx);
  const options = isPlainObject(view.options) ? Object.entries(view.options) : [];
  return tableFrame(state, rctx, {
    center: [el('div', { class: 'waiting-note' },
      el('p', { class: 'waiting-title', text: tn(taken, '{game} — {n} of {seats} seats taken', '{game} — {n} of {seats} seats taken', { game: gameName, seats }) }),
      el('p', { class: 'muted-on-felt', text: sameName(state.host, rctx.me) ? t('Seat bots or share the invite link, then press Start.') : t('Waiting for the host to start the game.') }),
      seats > taken ? el('div', { class: 'open-seats', 'aria-hidden': 'true' },
        Array.from({ length: Math.min(seats - taken, 12) }, () => el('span', { class: 'open-seat', text: t('open seat') }))) : null,
      options.length ? el('p', { class: 'waiting-options', text: options.map(([k, v]) => t('{option}: {value}', { option: tWord(k.replace(/_/g, ' ')), value: optionValue(v) })).join(' · ') }) : null)],
  });
}

/**
 * A table option's value in words: yes or no, a list or object as JSON, a word of the server's.
 * @param {unknown} value
 * @returns {string}
 */
function optionValue(value) {
  if (typeof value === 'boolean') return value ? t('yes') : t('no');
  if (typeof value === 'object') return JSON.stringify(value);
  return typeof value === 'string' ? tWord(value) : String(value);
}

// -- the common schema's blocks ------------------------------------------------

// Seat statuses in a player's words; any other status is shown with its
// underscores as spaces. An empty string means "nothing worth saying".
/** @type {Record<string, string>} */
const STATUS_WORDS = {
  waiting: '', to_play: '', moving: '', watching: '', playing: '',
  won: t('won'), lost: t('lost'), skipped: t('skipped'), sitting_out: t('sitting out'), left: t('left'),
  dealer: t('bank'), bet: t('has bet'), won_double: t('won double'), lost_double: t('lost double'),
  in: t('in'), out: t('out'), undeclared: t('to declare'), passed: t('passed'), active: t('playing'),
};

/**
 * @param {unknown} status
 * @returns {string | null}
 */
export function statusWords(status) {
  if (typeof status !== 'string') return null;
  const words = STATUS_WORDS[status] ?? tWord(status.replace(/_/g, ' '));
  return words || null;
}

/**
 * A short row of small face-up cards.
 * @param {unknown[]} cards
 */
export function smallCards(cards) {
  return el('span', { class: 'card-row card-row-tight' }, cards.filter(isCard).map((c) => cardElement(c, { size: 'sm' })));
}

/**
 * A seat's facts read from the schema: card count, dealer, status, score and any face-up hand cards.
 * @param {Schema} schema
 * @param {number} seat
 * @param {RenderContext} rctx
 * @returns {SeatInfo}
 */
export function schemaSeatInfo(schema, seat, rctx) {
  const entry = schema.seats.get(seat);
  if (!entry) return { dealer: schema.dealer === seat, extras: [] };
  /** @type {Child[]} */
  const extras = [];
  const score = schema.scores ? schema.scores[seat] : undefined;
  if (typeof score === 'number') extras.push(fact(t('Score'), String(score), { 'data-score': String(score) }));
  const faces = seat === rctx.mySeat ? [] : faceUpCards(entry);
  if (faces.length) extras.push(smallCards(faces));
  return {
    count: Number.isInteger(entry.count) ? entry.count : undefined,
    faceUp: faces.length > 0 && faces.length === entry.count,
    dealer: schema.dealer === seat,
    out: entry.left === true,
    status: entry.left ? t('left') : statusWords(entry.status),
    extras,
  };
}

/**
 * "Deal 3 · Dealer bob": the facts every dealt game has.
 * @param {Schema} schema
 * @param {RenderContext} rctx
 */
export function dealFacts(schema, rctx) {
  return [fact(t('Deal'), schema.deal), schema.dealer !== null ? fact(t('Dealer'), seatName(rctx, schema.dealer)) : null];
}

/**
 * The zone name a pile is drawn in: the stock and the discard pile keep their contract names.
 * @param {Pile} pile
 */
function pileZoneName(pile) {
  if (pile.id === 'stock' || pile.id === 'discard') return pile.id;
  return 'pile';
}

/**
 * One pile of the schema: a face-down pile as a back with its count, a squared
 * pile as its top card, a spread pile as every card. options: {label, zone
 * (data-zone), onClick (the whole pile), onSpreadCard(card, depth), arrive,
 * spread: false to square a spread pile}.
 * @param {Pile} pile
 * @param {PileOptions} [options]
 */
export function pileZone(pile, options = {}) {
  const label = options.label || tWord(humanise(pile.id));
  const attrs = { 'data-pile': pile.id, 'data-zone': options.zone || pileZoneName(pile) };
  const count = Number.isInteger(pile.count) ? pile.count : 0;
  const faceDown = !Array.isArray(pile.cards) && !isFace(pile.top);
  if (faceDown) return stockZone(count, options.onClick || null, label, attrs);
  const spread = Array.isArray(pile.cards) && options.spread !== false;
  const cards = spread ? (pile.cards ?? []).filter(isFace) : isFace(pile.top) ? [pile.top] : [];
  return discardZone(cards, count, { ...options, spread, label, attrs });
}

/**
 * The pools of the schema (pot, pool, …) with their chip stacks.
 * @param {Schema} schema
 */
export function poolsZone(schema) {
  return poolZone(schema.pools.map((p) => ({ label: tWord(humanise(p.name)), amount: p.amount })));
}

/**
 * The trick being played (or, when given, the last one), from the schema.
 * @param {Schema} schema
 * @param {RenderContext} rctx
 * @param {{last?: unknown, arrive?: boolean, collected?: boolean, empty?: string, winner?: unknown}} [options]
 */
export function trickBlock(schema, rctx, options = {}) {
  const plays = schema.trick ? schema.trick.plays : [];
  const last = Array.isArray(options.last) ? options.last.filter((p) => isPlainObject(p) && isFace(p.card)) : [];
  const showing = plays.length ? plays : last;
  const zone = trickZone(showing, rctx, { ...options, label: plays.length ? t('Trick') : last.length ? t('Last trick') : t('Trick') });
  if (!plays.length && last.length && options.collected) zone.classList.add('is-collected');
  return zone;
}

/**
 * The felt drawn from the schema: every seat's facts come from `seats` (and
 * `scores`); parts.seatInfo(seat, entry, base) adds the layout's own (its
 * `extras` are appended). parts: {seatInfo?, center, hand, below}.
 * @param {{host?: string}} state
 * @param {RenderContext} rctx
 * @param {Schema} schema
 * @param {SchemaParts} parts
 */
export function schemaTable(state, rctx, schema, parts) {
  return tableFrame(state, rctx, {
    ...parts,
    seatInfo: (seat) => {
      const base = schemaSeatInfo(schema, seat, rctx);
      const more = parts.seatInfo?.(seat, schema.seats.get(seat), base) || {};
      return { ...base, ...more, extras: [...(base.extras || []), ...(more.extras || [])] };
    },
  });
}
