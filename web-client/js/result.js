// @ts-check
// The `result` of a finished deal or game: a per-seat table of points and chips
// where the shape allows one, and everything else rendered generically.
//
// PROTOCOL.md only says the result "gives per seat the points and the chips won
// or lost, and the game's own summary", so several plausible shapes are read:
//   [{"seat":0,"points":3,"chips":-5}, …]   (an array of per-seat objects)
//   {"points":[3,-1], "chips":[…]}           (arrays indexed by seat)
//   {"chips":{"0":5,"1":-5}} or {"chips":{"alice":5}}  (maps by seat or name)

import { el, humanise, isPlainObject, sameName } from './dom.js';
import { t, tn, tParts, tWord } from './i18n.js';
import { renderBox, seatName } from './render.js';
import { cardElement, cardText, isCard, isCardList } from './cards.js';

/** @typedef {import('./render.js').RenderContext} RenderContext */
/** @typedef {Map<string, unknown>} ResultRow one seat's columns */

const PER_SEAT_KEY = /point|chip|score|won|lost|net|total|payout|delta|penalt|bonus|unpaid|owe|paid|melded|in_hand|counts|tricks|rabouges/i;
const SIGNED_KEY = /chip|won|lost|net|delta|payout|paid|owe|unpaid/i;
const PAYMENT_LISTS = new Set(['unpaid', 'movements', 'settlement']);

/**
 * Who an unpaid rest was owed to: `to` is {"seat": N} or {"pool": NAME}
 * (docs/protocol.md "Unpaid rests").
 * @param {unknown} to
 * @param {RenderContext} ctx
 * @returns {string}
 */
function creditorName(to, ctx) {
  if (isPlainObject(to) && Number.isInteger(to.seat)) return seatName(ctx, to.seat);
  if (isPlainObject(to) && typeof to.pool === 'string') return to.pool === 'pool' ? t('the pool') : t('the {pool}', { pool: tWord(to.pool) });
  return t('someone');
}

/**
 * @param {unknown} value
 * @returns {value is number | string | boolean}
 */
function isScalar(value) {
  return ['number', 'string', 'boolean'].includes(typeof value);
}

/**
 * Map a key of a per-seat object map ("0" or "alice") to a seat number, or null.
 * @param {string} key
 * @param {RenderContext} ctx
 * @returns {number | null}
 */
function seatOfKey(key, ctx) {
  if (/^\d+$/.test(key)) return Number(key);
  const player = ctx.players.find((p) => sameName(p.player, key));
  return player ? player.seat : null;
}

/**
 * @param {Record<string, unknown>} result
 * @param {RenderContext} ctx
 */
function collect(result, ctx) {
  /** @type {Map<number, ResultRow>} */
  const rows = new Map(); // seat → Map(column → value)
  /** @type {string[]} */
  const columns = [];
  /** @type {Record<string, unknown>} */
  const leftover = {};
  /** @type {(seat: number, column: string, value: unknown) => void} */
  const put = (seat, column, value) => {
    if (!columns.includes(column)) columns.push(column);
    let row = rows.get(seat);
    if (!row) rows.set(seat, row = new Map());
    row.set(column, value);
  };
  const seatCount = ctx.players.length;

  for (const [key, value] of Object.entries(result)) {
    // Lists of payments name seats too, but are not facts of a seat: they are
    // shown as sentences below (an unpaid rest names its debtor as `seat`).
    if (PAYMENT_LISTS.has(key)) {
      leftover[key] = value;
    } else if (Array.isArray(value) && value.length && value.every((v) => isPlainObject(v) && Number.isInteger(v.seat))) {
      const rest = [];
      for (const item of value) {
        // A seat out of play in that deal (empty, or its player gone) that moved no chips says nothing;
        // the seat may have a new player by now, who must not be named for it.
        if ((item.outcome === 'left' || item.status === 'left') && !item.chips) continue;
        /** @type {Record<string, unknown>} */
        const complex = { seat: item.seat };
        let hasComplex = false;
        for (const [field, fieldValue] of Object.entries(item)) {
          if (field === 'seat' || fieldValue === null || fieldValue === undefined) continue;
          if (isScalar(fieldValue) || isCardList(fieldValue) || (Array.isArray(fieldValue) && fieldValue.length === 0)) put(item.seat, field, fieldValue);
          else { complex[field] = fieldValue; hasComplex = true; }
        }
        if (hasComplex) rest.push(complex);
      }
      if (rest.length) leftover[key] = rest;
    } else if (Array.isArray(value) && seatCount && value.length === seatCount &&
               value.every((v) => typeof v === 'number') && PER_SEAT_KEY.test(key)) {
      value.forEach((v, index) => put(ctx.players[index]?.seat ?? index, key, v));
    } else if (isPlainObject(value) && Object.keys(value).length && PER_SEAT_KEY.test(key) &&
               Object.entries(value).every(([k, v]) => isScalar(v) && seatOfKey(k, ctx) !== null)) {
      // Every key named a seat (checked just above).
      for (const [k, v] of Object.entries(value)) put(/** @type {number} */ (seatOfKey(k, ctx)), key, v);
    } else {
      leftover[key] = value;
    }
  }
  return { rows, columns, leftover };
}

/**
 * @param {string} column
 * @param {unknown} value
 */
function cell(column, value) {
  if (Array.isArray(value)) {
    return el('td', { class: 'result-cards' }, value.length ? value.map((card) => cardElement(card)) : el('span', { class: 'muted', text: '—' }));
  }
  if (isCard(value) && value !== '??') return el('td', {}, cardText(value));
  if (typeof value === 'string' && /^[a-z]+(_[a-z]+)*$/.test(value)) return el('td', { text: tWord(value.replace(/_/g, ' ')) });
  if (typeof value === 'number' && SIGNED_KEY.test(column)) {
    const cls = value > 0 ? 'amount-plus' : value < 0 ? 'amount-minus' : '';
    // The sign and the words say it, not only the colour.
    return el('td', { class: `num ${cls}`, text: value > 0 ? `+${value}` : value < 0 ? `−${-value}` : '0', 'aria-label': value > 0 ? t('won {n}', { n: value }) : value < 0 ? t('lost {n}', { n: -value }) : t('even') });
  }
  if (typeof value === 'boolean') return el('td', { text: value ? t('yes') : t('no') });
  return el('td', { class: typeof value === 'number' ? 'num' : '', text: value ?? '' });
}

// Chips first, then points and outcome, then the rest, cards last.
/** @param {string} column */
function rank(column) {
  const order = ['chips', 'points', 'outcome', 'bet'];
  const at = order.indexOf(column);
  if (at >= 0) return at;
  return /card|hand|shown|melds/.test(column) ? 99 : 10;
}

/**
 * The chips a seat won (+) or lost (−) in the deal: its `chips` field (antes included).
 * @param {ResultRow} row
 * @returns {number}
 */
function chipsDelta(row) {
  for (const key of ['chips', 'chips_delta', 'delta', 'net']) {
    const value = row.get(key);
    if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  }
  return 0;
}

/**
 * Columns that say nothing for this deal go: a number or a yes/no that is zero
 * or no for every seat (Five Hundred's points are in Melded and In hand). The
 * chips always stay, and an outcome never contradicts them (Red Dog's "won"
 * next to a lost ante reads "lost").
 * @param {Map<number, ResultRow>} rows
 * @param {string[]} columns
 * @returns {string[]}
 */
function meaningfulColumns(rows, columns) {
  /** @param {string} column */
  const values = (column) => [...rows.values()].map((row) => row.get(column)).filter((v) => v !== undefined);
  return columns.filter((column) => {
    if (column === 'chips') return true;
    const all = values(column);
    if (!all.length) return false;
    if (all.every((v) => v === 0 || v === false)) return false;
    return true;
  });
}

/** @param {Map<number, ResultRow>} rows */
function fixOutcomes(rows) {
  for (const row of rows.values()) {
    const chips = chipsDelta(row);
    const counted = ['chips', 'chips_delta', 'delta', 'net'].some((key) => typeof row.get(key) === 'number');
    const outcome = row.get('outcome');
    if (outcome === 'won' && chips < 0) row.set('outcome', 'lost');
    else if (outcome === 'lost' && chips > 0) row.set('outcome', 'won');
    // Red Dog's bet won against an ante paid: "won" beside 0 chips reads as a mistake.
    else if ((outcome === 'won' || outcome === 'lost') && chips === 0 && counted) row.set('outcome', 'even');
  }
}

// How a deal or game ended (docs/protocol.md "Results, game by game"), in a player's words.
/** @type {Record<string, string>} */
const END_WORDS = {
  deal: t('the deal was played out'), game: t('the game is won'), deal_limit: t('the last deal was played'),
  abandoned: t('abandoned: a player left'), closed: t('the table closed before the end'),
  went_out: t('a player went out'), knock: t('a player knocked'), showdown: t('hands shown down'),
  stock_exhausted: t('the stock ran out'), stock_ran_down: t('the stock ran down'), break: t('the break ran out'),
  no_winner: t('no winner'), won: t('won'), draw: t('a draw'), impasse: t('an impasse: nobody could play'),
};

// Column names in a player's words.
/** @type {Record<string, string>} */
const COLUMN_WORDS = {
  in_hand: t('In hand'), counts: t('Count in hand'), took_widow: t('Took the widow'), target: t('Turned against'), deals_won: t('Deals won'),
};

/**
 * One line for the felt at a deal's end: who won chips and who paid them, read
 * from the same rows as the result table ("Deal 3: alice won 4 chips; bob paid
 * 2, carol paid 2."). Null for no result.
 * @param {unknown} result
 * @param {RenderContext} ctx
 * @returns {string | null}
 */
export function resultHeadline(result, ctx) {
  if (!isPlainObject(result)) return null;
  const { rows } = collect(result, ctx);
  fixOutcomes(rows);
  const deal = Number.isInteger(result.deal) ? t('Deal {n}', { n: result.deal }) : t('The deal');
  const moved = [...rows.entries()].map(([seat, row]) => ({ seat, delta: chipsDelta(row) })).sort((a, b) => a.seat - b.seat);
  const mine = (/** @type {number} */ seat) => seat === ctx.mySeat;
  const won = moved.filter((m) => m.delta > 0).map((m) => (mine(m.seat)
    ? tn(m.delta, 'you won {n} chip', 'you won {n} chips')
    : tn(m.delta, '{who} won {n} chip', '{who} won {n} chips', { who: seatName(ctx, m.seat) })));
  const paid = moved.filter((m) => m.delta < 0).map((m) => (mine(m.seat)
    ? tn(-m.delta, 'you paid {n} chip', 'you paid {n} chips')
    : tn(-m.delta, '{who} paid {n} chip', '{who} paid {n} chips', { who: seatName(ctx, m.seat) })));
  const pot = typeof result.pot === 'number' ? ` ${tn(result.pot, 'The pot now holds {n} chip.', 'The pot now holds {n} chips.')}` : '';
  if (!won.length && !paid.length) return t('{deal} is over: no chips changed hands.', { deal }) + pot;
  const capital = (/** @type {string} */ text) => text.charAt(0).toUpperCase() + text.slice(1);
  const moves = [won.join(t(', ')), paid.join(t(', '))].filter(Boolean).join(t('; '));
  return t('{deal}: {moves}.', { deal, moves: capital(moves) }) + pot;
}

// Royal Cassino's scoring items, in words (docs/protocol.md, "Royal Cassino").
/** @type {Record<string, string>} */
const ITEM_WORDS = {
  cards: t('most cards'), spades: t('most spades'), big_cassino: t('big cassino'), little_cassino: t('little cassino'),
  ace: t('an ace'), spade: t('a spade'), sweep: t('a sweep'),
};

/**
 * Royal Cassino's count-out (its result's `sides`, `items`, `counted` and `residue`) as a table of the sides and
 * sentences, taken out of `leftover`; nothing when the result has none of them.
 * @param {Record<string, unknown>} leftover
 * @param {RenderContext} ctx
 * @returns {HTMLElement[]}
 */
function cassinoScoring(leftover, ctx) {
  const sides = Array.isArray(leftover.sides) && leftover.sides.every((side) => isPlainObject(side) && Number.isInteger(side.side) && Array.isArray(side.seats))
    ? /** @type {{side: number, seats: number[], cards?: number, spades?: number, sweeps?: number, points?: number, score?: number}[]} */ (leftover.sides)
    : null;
  const items = Array.isArray(leftover.items) && leftover.items.every((item) => isPlainObject(item) && typeof item.item === 'string' && Number.isInteger(item.side))
    ? /** @type {{item: string, side: number, points?: number, card?: string}[]} */ (leftover.items)
    : null;
  if (!sides || !items) return [];
  /** @param {number} side */
  const sideName = (side) => {
    const found = sides.find((s) => s.side === side);
    return found ? found.seats.map((seat) => seatName(ctx, seat)).join(' & ') : t('side {n}', { n: side + 1 });
  };
  /** @type {HTMLElement[]} */
  const out = [el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': t('Count-out by side') },
    el('table', { class: 'data-table result-sides', 'data-zone': 'result-sides' },
      el('thead', {}, el('tr', {}, [t('Side'), t('Cards'), t('Spades'), t('Sweeps'), t('Points'), t('Score')].map((h, i) => el('th', { class: i ? 'num' : null, text: h })))),
      el('tbody', {}, sides.map((side) => el('tr', {},
        el('td', { text: sideName(side.side) }),
        [side.cards, side.spades, side.sweeps, side.points, side.score].map((n) => el('td', { class: 'num', text: Number.isInteger(n) ? String(n) : '—' }))))))),
  ];
  const counted = Number.isInteger(leftover.counted) ? /** @type {number} */ (leftover.counted) : items.length;
  out.push(el('ol', { class: 'result-items', 'data-zone': 'result-items', 'aria-label': t('Points in count-out order') },
    items.map((item, index) => {
      const points = Number.isInteger(item.points) ? item.points : 0;
      return el('li', { class: index < counted ? null : 'muted' },
        t('{side}: {item}', { side: sideName(item.side), item: ITEM_WORDS[item.item] ?? tWord(item.item.replace(/_/g, ' ')) }),
        isCard(item.card) ? [' (', cardText(/** @type {string} */ (item.card)), ')'] : '',
        tn(points, ', {n} point', ', {n} points'),
        index < counted ? '' : t(' (not counted: the game was already won)'));
    })));
  const residue = isPlainObject(leftover.residue) ? /** @type {{seat?: unknown, cards?: unknown}} */ (leftover.residue) : null;
  if (residue && Number.isInteger(residue.seat) && isCardList(residue.cards)) {
    out.push(el('p', { class: 'result-residue' }, ...tParts('{who} took the cards left on the table: {cards}', {
      who: seatName(ctx, /** @type {number} */ (residue.seat)),
      cards: el('span', { class: 'card-text-list' }, /** @type {string[]} */ (residue.cards).map(cardText)),
    })));
  }
  for (const key of ['sides', 'items', 'counted', 'residue']) delete leftover[key];
  return out;
}

/**
 * @param {unknown} result a `result` (docs/protocol.md "Results, game by game"); any shape is drawn
 * @param {RenderContext} ctx
 * @returns {HTMLElement | null}
 */
export function renderResult(result, ctx) {
  if (!isPlainObject(result)) return null;
  const collected = collect(result, ctx);
  const { rows, leftover } = collected;
  fixOutcomes(rows);
  const columns = meaningfulColumns(rows, collected.columns);
  /** @type {HTMLElement[]} */
  const parts = [el('h3', { class: 'panel-title', text: t('Last deal') })];
  if (rows.size) {
    const seats = [...rows.keys()].sort((a, b) => a - b);
    /** @param {number} seat one of the rows' seats */
    const rowOf = (seat) => /** @type {ResultRow} */ (rows.get(seat));
    columns.sort((a, b) => rank(a) - rank(b));
    parts.push(el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': t('Result of the last deal') }, el('table', { class: 'data-table result-table' },
      el('thead', {}, el('tr', {}, el('th', { text: t('Player') }), columns.map((c) => el('th', {
        class: seats.every((seat) => typeof rowOf(seat).get(c) !== 'string') ? 'num' : null,
        text: COLUMN_WORDS[c] ?? tWord(humanise(c)),
      })))),
      el('tbody', {}, seats.map((seat) => el('tr', {
        class: seat === ctx.mySeat ? 'row-mine' : '',
        'data-seat': String(seat),
        'data-chips-delta': String(chipsDelta(rowOf(seat))),
      },
        el('td', { text: seat === ctx.mySeat ? t('{name} (you)', { name: seatName(ctx, seat) }) : seatName(ctx, seat) }),
        columns.map((c) => cell(c, rowOf(seat).get(c)))))))));
  }
  const summary = [];
  if (Number.isInteger(leftover.deal)) summary.push(t('Deal {n}', { n: leftover.deal }));
  if (typeof leftover.end === 'string') summary.push(END_WORDS[leftover.end] ?? t('ended: {how}', { how: tWord(leftover.end.replace(/_/g, ' ')) }));
  if (Number.isInteger(leftover.winner)) summary.push(t('winner {who}', { who: seatName(ctx, leftover.winner) }));
  if (Array.isArray(leftover.winners) && leftover.winners.length && leftover.winners.every(Number.isInteger)) {
    const who = leftover.winners.map((s) => seatName(ctx, s)).join(t(', '));
    summary.push(leftover.winners.length > 1 ? t('winners {who}', { who }) : t('winner {who}', { who }));
    delete leftover.winners;
  }
  if (typeof leftover.pot === 'number') summary.push(t('pot now {n}', { n: leftover.pot }));
  if (typeof leftover.pool === 'number') summary.push(t('pool now {n}', { n: leftover.pool }));
  if (summary.length) parts.splice(1, 0, el('p', { class: 'result-summary', text: summary.join(' · ') }));
  for (const key of ['deal', 'end', 'winner', 'pot', 'pool', 'dealer']) if (typeof leftover[key] !== 'object') delete leftover[key];
  // The melds on the table when the deal ended (a winning rummy included), each with its owner
  // (none where they belong to the table: Carousel's, with the `table_melds` feature).
  if (Array.isArray(leftover.melds) && leftover.melds.every((m) => isPlainObject(m) && Array.isArray(m.cards) && m.cards.every((c) => typeof c === 'string'))) {
    if (leftover.melds.length) {
      parts.push(el('div', { class: 'result-melds', 'data-zone': 'result-melds' },
        el('h4', { text: leftover.melds.every((m) => m.owner === null) ? t('Melds on the table') : t('Melds') }),
        leftover.melds.map((m) => el('div', { class: 'result-meld', 'data-owner': String(m.owner ?? '') },
          el('span', { class: 'muted', text: Number.isInteger(m.owner) ? t('{who}: ', { who: seatName(ctx, m.owner) }) : '' }),
          m.cards.map((/** @type {unknown} */ card) => cardElement(card))))));
    }
    delete leftover.melds;
  }
  parts.push(...cassinoScoring(leftover, ctx));
  if (Array.isArray(leftover.unpaid)) {
    const unpaid = leftover.unpaid.filter(isPlainObject);
    if (unpaid.length) {
      parts.push(el('ul', { class: 'unpaid', 'data-zone': 'result-unpaid' }, unpaid.map((u) => el('li', {
        text: tn(typeof u.amount === 'number' ? u.amount : 0, '{who} could not pay {n} chip owed to {creditor}.', '{who} could not pay {n} chips owed to {creditor}.', {
          who: Number.isInteger(u.seat) ? seatName(ctx, u.seat) : t('A player'), n: u.amount ?? '?', creditor: creditorName(u.to, ctx),
        }),
      }))));
    }
    delete leftover.unpaid;
  }
  if (Object.keys(leftover).length) {
    parts.push(el('details', { class: 'result-more' }, el('summary', { text: t('More about this deal') }), renderBox(leftover, ctx)));
  }
  return el('div', { class: 'result', 'data-zone': 'result' }, parts);
}
