// @ts-check
// Generic rendering of any game's `view` (and of a `result`'s leftovers).
//
// The server knows the games; the client does not. So values are drawn by
// shape alone: card strings become cards, objects become labelled boxes,
// arrays of objects with a "seat" become per-player boxes, anything else is text.
// Nothing here may throw on an unexpected shape — unknown data still renders.

import { el, humanise, isPlainObject } from './dom.js';
import { isCard, isCardList, cardElement, cardRow } from './cards.js';
import { displayName } from './names.js';
import { t, tWord } from './i18n.js';

/** @typedef {import('../types/wire').State} State */
/** @typedef {import('../types/wire').Player} Player */
/** @typedef {import('../types/wire').View} View */

const MAX_DEPTH = 16; // JSON can't be cyclic, but a runaway nesting shouldn't freeze the page

// Fields whose integer value names a seat; shown with the player's name.
export const SEAT_KEY = /(^|_)(seat|dealer|leader|winner|banker|declarer|breaker|knocker|caller|starter|general|mover)$/i;

/**
 * What the drawing functions know of the table: who sits where, whose turn, the view.
 * @typedef {object} RenderContext
 * @property {Player[]} players
 * @property {number | null} mySeat
 * @property {number[]} toAct
 * @property {View} view
 */

/**
 * ctx: {players: [{seat, player, bot}], mySeat: number|null, toAct: number[]}
 * Any field may be missing.
 * @param {Partial<State> | null | undefined} state
 * @returns {RenderContext}
 */
export function makeContext(state) {
  const players = Array.isArray(state?.players) ? state.players.filter(isPlainObject) : [];
  return {
    players,
    mySeat: Number.isInteger(state?.seat) ? state.seat : null,
    toAct: Array.isArray(state?.to_act) ? state.to_act : [],
    view: isPlainObject(state?.view) ? state.view : {},
  };
}

/**
 * @param {RenderContext} ctx
 * @param {unknown} seat
 * @returns {Player | null}
 */
export function playerAtSeat(ctx, seat) {
  return ctx.players.find((p) => p.seat === seat) || null;
}

/**
 * "alice" ("Ada (bot)" for a bot), or "Seat 3" when nobody sits there.
 * @param {RenderContext} ctx
 * @param {number} seat
 * @returns {string}
 */
export function seatName(ctx, seat) {
  const player = playerAtSeat(ctx, seat);
  return player && typeof player.player === 'string' && player.player ? displayName(player.player, seat) : t('Seat {seat}', { seat });
}

/**
 * @param {string} value
 * @param {string} [cls]
 */
function text(value, cls = 'value-text') {
  return el('span', { class: cls, text: value });
}

/**
 * @param {RenderContext} ctx
 * @param {number} value
 */
function seatReference(ctx, value) {
  const player = playerAtSeat(ctx, value);
  if (!player || !player.player) return text(String(value), 'value-number');
  return el('span', { class: 'value-seat', title: t('seat {seat}', { seat: value }) }, el('span', { text: displayName(player.player, value) }));
}

/**
 * Render any JSON value; returns null for null/undefined (which are omitted).
 * @param {unknown} value
 * @param {RenderContext} ctx
 * @param {string} [key]
 * @param {number} [depth]
 * @returns {HTMLElement | null}
 */
export function renderValue(value, ctx, key = '', depth = 0) {
  if (value === null || value === undefined) return null;
  if (depth > MAX_DEPTH) return text(JSON.stringify(value), 'value-raw');
  if (typeof value === 'string') {
    // A memo names seats as the log does ("{seat:0} played his last stock card"): by their players' names.
    if (isCard(value)) return cardElement(value);
    return text(String(value).replace(/\{seat:(\d+)\}/g, (/** @type {string} */ _, /** @type {string} */ seat) => seatName(ctx, Number(seat))));
  }
  if (typeof value === 'number') {
    return Number.isInteger(value) && SEAT_KEY.test(key) ? seatReference(ctx, value) : text(String(value), 'value-number');
  }
  if (typeof value === 'boolean') return text(value ? t('yes') : t('no'), `value-bool value-${value}`);
  if (Array.isArray(value)) return renderArray(value, ctx, key, depth);
  if (isPlainObject(value)) return renderBox(value, ctx, '', depth);
  return text(String(value));
}

/**
 * @param {unknown[]} items
 * @param {RenderContext} ctx
 * @param {string} key
 * @param {number} depth
 * @returns {HTMLElement}
 */
function renderArray(items, ctx, key, depth) {
  if (items.length === 0) return text(t('none'), 'value-empty');
  if (isCardList(items)) return cardRow(items);
  const present = items.filter((item) => item !== null && item !== undefined);
  if (present.length > 0 && present.every(isPlainObject)) return renderBoxList(present, ctx, depth);
  // Mixed or nested arrays (e.g. melds: [["7H","8H","9H"], …]): one item after another.
  const nested = present.some((item) => typeof item === 'object');
  return el('span', { class: nested ? 'value-list value-list-nested' : 'value-list' },
    present.map((item) => renderValue(item, ctx, key, depth + 1)));
}

/**
 * A list of boxes; objects with a "seat" get that seat's player as their title.
 * @param {Record<string, unknown>[]} objects
 * @param {RenderContext} ctx
 * @param {number} [depth]
 * @returns {HTMLElement}
 */
export function renderBoxList(objects, ctx, depth = 0) {
  return el('div', { class: 'box-list' }, objects.map((object) => {
    if (!Number.isInteger(object.seat)) return renderBox(object, ctx, '', depth + 1);
    const classes = [];
    if (object.seat === ctx.mySeat) classes.push('box-mine');
    if (ctx.toAct.includes(object.seat)) classes.push('box-active');
    const title = object.seat === ctx.mySeat ? t('{name} (you)', { name: seatName(ctx, object.seat) }) : seatName(ctx, object.seat);
    const { seat, ...rest } = object;
    return renderBox(rest, ctx, title, depth + 1, classes.join(' '));
  }));
}

/**
 * An object as a labelled box of key → value rows; null fields are left out.
 * @param {Record<string, unknown>} object
 * @param {RenderContext} ctx
 * @param {string} [title]
 * @param {number} [depth]
 * @param {string} [extraClass]
 * @returns {HTMLElement}
 */
export function renderBox(object, ctx, title = '', depth = 0, extraClass = '') {
  const rows = [];
  for (const [key, value] of Object.entries(object)) {
    const rendered = renderValue(value, ctx, key, depth + 1);
    if (!rendered) continue;
    const wide = Array.isArray(value) || isPlainObject(value);
    rows.push(el('div', { class: wide ? 'field field-wide' : 'field' },
      el('span', { class: 'field-key', text: tWord(humanise(key)) }),
      el('span', { class: 'field-value' }, rendered)));
  }
  return el('div', { class: `box ${extraClass}`.trim() },
    title ? el('div', { class: 'box-title', text: title }) : null,
    rows.length ? el('div', { class: 'box-fields' }, rows) : text('—', 'value-empty'));
}

/**
 * The top level of a `view`: simple values become a strip of stats
 * (pot, deal, phase…), everything else a titled section.
 * @param {unknown} view
 * @param {RenderContext} ctx
 * @returns {HTMLElement}
 */
export function renderView(view, ctx) {
  if (!isPlainObject(view)) {
    return el('div', { class: 'view' }, renderValue(view, ctx) || text(t('Nothing to show yet.'), 'value-empty'));
  }
  const stats = [];
  const sections = [];
  for (const [key, value] of Object.entries(view)) {
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object') {
      stats.push(el('div', { class: 'stat' },
        el('span', { class: 'stat-key', text: tWord(humanise(key)) }),
        el('span', { class: 'stat-value' }, renderValue(value, ctx, key))));
    } else {
      sections.push(el('section', { class: 'view-section' },
        el('h3', { class: 'view-section-title', text: tWord(humanise(key)) }),
        renderValue(value, ctx, key, 1)));
    }
  }
  if (!stats.length && !sections.length) {
    return el('div', { class: 'view' }, text(t('Nothing to show yet.'), 'value-empty'));
  }
  return el('div', { class: 'view' },
    stats.length ? el('div', { class: 'stats' }, stats) : null,
    sections);
}
