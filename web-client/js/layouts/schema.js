// @ts-check
// Reading the common view schema (docs/protocol.md "View schema"): every game's
// view has `layout`, `phase`, `deal`, `dealer`, `seats` and `turn`, and, where
// the game has them, `piles`, `melds`, `trick`, `pools` and `scores`, plus the
// game's own fields. Read defensively: a missing or malformed part reads as
// absent, so a layout never throws on an unexpected view.

import { isPlainObject } from '../dom.js';
import { isFace } from '../cards.js';

/** @typedef {import('../../types/wire').ViewSeat} ViewSeat */
/** @typedef {import('../../types/wire').Pile} Pile */
/** @typedef {import('../../types/wire').Meld} Meld */
/** @typedef {import('../../types/wire').TrickPlay} TrickPlay */
/** @typedef {import('../render.js').RenderContext} RenderContext */
/** @typedef {ReturnType<typeof readSchema>} Schema */

/** The parts of the schema every layout may use. */
export const SCHEMA_KEYS = ['layout', 'phase', 'deal', 'dealer', 'seats', 'piles', 'melds', 'trick', 'pools', 'scores', 'turn'];

/**
 * The objects of a list (anything else is left out), as the schema says they are:
 * each field is still checked where it is read.
 * @param {unknown} value
 * @returns {Record<string, any>[]}
 */
function list(value) {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

/**
 * → {view, layout, phase, deal, dealer, seats: Map seat → entry, piles: [pile],
 *    pile(id), melds: [meld], trick: {plays, trump}|null, pools: [{name, amount}],
 *    scores: number[]|null, turn: {seats, stage}}
 * @param {unknown} view
 */
export function readSchema(view) {
  const v = isPlainObject(view) ? view : {};
  /** @type {Map<number, ViewSeat>} */
  const seats = new Map();
  for (const entry of /** @type {ViewSeat[]} */ (list(v.seats))) if (Number.isInteger(entry.seat)) seats.set(entry.seat, entry);
  const piles = /** @type {Pile[]} */ (list(v.piles)).filter((p) => typeof p.id === 'string');
  const trick = isPlainObject(v.trick)
    ? { plays: /** @type {TrickPlay[]} */ (list(v.trick.plays)).filter((p) => isFace(p.card)), trump: typeof v.trick.trump === 'string' ? v.trick.trump : null }
    : null;
  const pools = isPlainObject(v.pools)
    ? Object.entries(v.pools).filter(([, amount]) => typeof amount === 'number').map(([name, amount]) => ({ name, amount }))
    : [];
  const turn = isPlainObject(v.turn) ? v.turn : {};
  return {
    view: v,
    layout: typeof v.layout === 'string' ? v.layout : null,
    phase: typeof v.phase === 'string' ? v.phase : null,
    deal: Number.isInteger(v.deal) ? v.deal : null,
    dealer: Number.isInteger(v.dealer) ? v.dealer : null,
    seats,
    piles,
    /** @param {string} id */
    pile: (id) => piles.find((p) => p.id === id) || null,
    melds: /** @type {Meld[]} */ (list(v.melds)).filter((m) => Array.isArray(m.cards)),
    trick,
    pools,
    scores: Array.isArray(v.scores) ? v.scores : null,
    turn: {
      seats: /** @type {number[]} */ (Array.isArray(turn.seats) ? turn.seats.filter(Number.isInteger) : []),
      stage: typeof turn.stage === 'string' ? turn.stage : null,
    },
  };
}

/**
 * A seat entry's cards as a list of strings ("??" for a hidden card).
 * @param {{cards?: unknown} | null | undefined} entry
 * @returns {string[]}
 */
export function seatCards(entry) {
  return Array.isArray(entry?.cards) ? entry.cards.filter(/** @returns {c is string} */ (c) => typeof c === 'string') : [];
}

/**
 * The viewer's own hand, when the view shows it face up (null otherwise).
 * @param {Schema} schema
 * @param {RenderContext} rctx
 * @returns {string[] | null}
 */
export function ownHand(schema, rctx) {
  if (rctx.mySeat === null) return null;
  const entry = schema.seats.get(rctx.mySeat);
  if (!entry) return null;
  const cards = seatCards(entry);
  return cards.every(isFace) ? cards : null;
}

/**
 * The face-up cards of another seat's hand (Red and Black, a turned-up king), or [].
 * @param {{cards?: unknown} | null | undefined} entry
 * @returns {string[]}
 */
export function faceUpCards(entry) {
  return seatCards(entry).filter(isFace);
}

/**
 * A pile's cards as the view shows them: all of them when spread, else the top alone.
 * @param {{cards?: unknown, top?: unknown} | null | undefined} pile
 * @returns {string[]}
 */
export function pileCards(pile) {
  if (Array.isArray(pile?.cards)) return pile.cards.filter(isFace);
  return isFace(pile?.top) ? [pile.top] : [];
}

/**
 * The view's own fields: everything but the schema's parts.
 * @param {unknown} view
 * @returns {Record<string, unknown>}
 */
export function ownFields(view) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, value] of Object.entries(isPlainObject(view) ? view : {})) if (!SCHEMA_KEYS.includes(key)) out[key] = value;
  return out;
}
