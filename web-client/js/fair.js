// @ts-check
// Provably fair deals, checked in the browser (docs/playing.md "Provably fair deals").
// When a table has ended its state reveals the seed; this file recomputes each
// deal's commitment (SHA-256 of "parlour-fair-1|TABLE|DEAL|SEED|SALT") and,
// for games dealt from a shuffled pack, re-shuffles each deal exactly as the
// server's rules/rng.cpp and rules/shoe.cpp do, then checks that the cards out
// of the stock at the deal's start are the top of that deck. Everything is
// computed here, from the revealed seed: nothing the server says is trusted but
// the history it is checked against. `parlour verify` does the same and more
// (it replays every step).

import { isPlainObject } from './dom.js';
import { t } from './i18n.js';

/** @typedef {import('../types/wire').History} History */
/** @typedef {import('../types/wire').HistoryFair} HistoryFair */
/** @typedef {import('../types/wire').GameView} GameView */
/** @typedef {import('../types/wire').State} State */
/** @typedef {import('./connection.js').Connection} Connection */
/** @typedef {{short_pack?: boolean, jokers?: number, decks?: number, eleven_twelve_spots?: boolean}} PackSpec */
/** @typedef {{ok: boolean, lines: string[]}} Verdict */

const SCHEME = 'parlour-fair-1';

// -- SHA-256 (FIPS 180-4) ----------------------------------------------------
// Written out rather than crypto.subtle, which browsers offer only on https or
// localhost, and a table of friends is often plain http on a LAN.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * SHA-256 of a string's UTF-8 bytes, as 64 lower-case hex digits.
 * @param {unknown} text
 * @returns {string}
 */
export function sha256Hex(text) {
  const data = new TextEncoder().encode(String(text));
  const length = Math.ceil((data.length + 9) / 64) * 64;
  const padded = new Uint8Array(length);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = data.length * 8;
  view.setUint32(length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(length - 4, bits >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  /** @type {(x: number, n: number) => number} */
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  return Array.from(h, (word) => word.toString(16).padStart(8, '0')).join('');
}

/**
 * The seed material of a deal (rules/fair.h) and its commitment.
 * @param {string} table
 * @param {number} deal
 * @param {string} seed
 * @param {string | undefined} salt
 */
export function seedMaterial(table, deal, seed, salt) {
  return `${SCHEME}|${table}|${deal}|${seed}|${salt ?? ''}`;
}

/**
 * @param {string} table
 * @param {number} deal
 * @param {string} seed
 * @param {string | undefined} salt
 * @returns {string}
 */
export function commitment(table, deal, seed, salt) {
  return sha256Hex(seedMaterial(table, deal, seed, salt));
}

// -- the server's shuffle: xoshiro256** seeded by splitmix64 (rules/rng.cpp) --

const MASK = (1n << 64n) - 1n;
/** @type {(x: bigint, k: bigint) => bigint} */
const rotl = (x, k) => ((x << k) | (x >> (64n - k))) & MASK;

export class Rng {
  /** @param {string | number | bigint} seed the table's seed (a decimal string on the wire) */
  constructor(seed) {
    let x = BigInt.asUintN(64, BigInt(seed));
    const splitmix = () => {
      x = (x + 0x9e3779b97f4a7c15n) & MASK;
      let z = x;
      z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
      z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
      return z ^ (z >> 31n);
    };
    this.s = [splitmix(), splitmix(), splitmix(), splitmix()];
  }

  next() {
    const s = this.s;
    const result = (rotl((s[1] * 5n) & MASK, 7n) * 9n) & MASK;
    const t = (s[1] << 17n) & MASK;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45n);
    return result;
  }

  /**
   * Uniform in [0, bound), unbiased by rejection as the server does it.
   * @param {number} bound
   * @returns {number}
   */
  below(bound) {
    const b = BigInt(bound);
    const threshold = ((1n << 64n) - b) % b;
    for (;;) {
      const r = this.next();
      if (r >= threshold) return Number(r % b);
    }
  }

  /** @param {unknown[]} items */
  shuffle(items) {
    for (let i = items.length; i > 1; --i) {
      const j = this.below(i);
      [items[i - 1], items[j]] = [items[j], items[i - 1]];
    }
  }
}

/**
 * A new pack in the server's fixed order (rules/cards.h make_pack).
 * @param {PackSpec} spec
 * @returns {string[]}
 */
export function makePack(spec) {
  const ranks = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
  /** @type {string[]} */
  const pack = [];
  for (let deck = 0; deck < (spec.decks ?? 1); deck++) {
    for (const suit of ['S', 'H', 'D', 'C']) {
      ranks.forEach((rank, index) => {
        const value = index + 1;
        if (spec.short_pack && value !== 1 && value < 7) return;
        pack.push(rank + suit);
      });
      if (spec.eleven_twelve_spots) pack.push(`E${suit}`, `W${suit}`);
    }
  }
  for (let j = 0; j < (spec.jokers ?? 0); j++) pack.push('JK');
  return pack;
}

/**
 * The stock of the shoe's `shuffle`-th deal, top first (rules/shoe.cpp).
 * @param {PackSpec} spec
 * @param {string} seed
 * @param {number} shuffle
 * @param {string[] | null | undefined} stacked
 * @returns {string[]}
 */
export function shoeDeck(spec, seed, shuffle, stacked) {
  const rng = new Rng(seed);
  /** @type {string[]} */
  let deck = [];
  for (let deal = 1; deal <= shuffle; deal++) {
    const pack = makePack(spec);
    if (deal === 1 && Array.isArray(stacked)) {
      const rest = pack.slice();
      for (const card of stacked) rest.splice(rest.indexOf(card), 1);
      rng.shuffle(rest);
      deck = stacked.concat(rest);
    } else {
      rng.shuffle(pack);
      deck = pack;
    }
  }
  return deck;
}

/**
 * What does not match, or null: the cards out of the stock must be its deck's top (rules/fair.cpp check_dealt).
 * @param {string[]} deck
 * @param {(GameView | null | undefined)[]} seatViews
 * @param {GameView | null | undefined} tableView
 * @returns {string | null}
 */
export function checkDealt(deck, seatViews, tableView) {
  let dealt = deck.length;
  for (const pile of tableView?.piles ?? []) {
    if (pile?.id === 'stock') {
      if (pile.count > deck.length) return t('the stock holds {count} cards; the deck has only {size}', { count: pile.count, size: deck.length });
      dealt = deck.length - pile.count;
    }
  }
  /** @type {Map<string, number>} */
  const available = new Map();
  for (const card of deck.slice(0, dealt)) available.set(card, (available.get(card) ?? 0) + 1);
  /** @type {[string, string][]} */
  const shown = [];
  /** @type {(cards: unknown, where: string) => void} */
  const collect = (cards, where) => {
    for (const card of Array.isArray(cards) ? cards : []) {
      if (typeof card === 'string' && card !== '??') shown.push([card.split('=')[0], where]);
    }
  };
  seatViews.forEach((view, seat) => {
    for (const entry of view?.seats ?? []) if (entry?.seat === seat) collect(entry.cards, t('seat {seat}\'s hand', { seat }));
  });
  for (const pile of tableView?.piles ?? []) {
    if (!pile || pile.id === 'stock') continue;
    if (Array.isArray(pile.cards)) collect(pile.cards, t('pile {pile}', { pile: pile.id }));
    else if (typeof pile.top === 'string') collect([pile.top], t('pile {pile}', { pile: pile.id }));
  }
  for (const meld of tableView?.melds ?? []) collect(meld?.cards, t('a meld'));
  for (const play of tableView?.trick?.plays ?? []) collect([play?.card], t('the trick'));
  for (const [card, where] of shown) {
    const left = available.get(card) ?? 0;
    if (left === 0) return t('{card} ({where}) is not among the top {dealt} cards of the deck', { card, where, dealt });
    available.set(card, left - 1);
  }
  return null;
}

/**
 * Checks a finished table's history (every deal's first step at least) against
 * its revealed seed, and the commitments this browser received during play.
 * received: {deal: commitment}. Returns {ok, lines}.
 * @param {History} history
 * @param {Record<string, string>} [received]
 * @returns {Verdict}
 */
export function verifyHistory(history, received = {}) {
  /** @type {string[]} */
  const lines = [];
  let ok = true;
  const fair = history?.fair;
  if (!isPlainObject(fair) || typeof fair.seed !== 'string') {
    return { ok: false, lines: [t('The seed is not revealed yet: deals can be verified once the table has ended.')] };
  }
  if (fair.scheme !== SCHEME) return { ok: false, lines: [t('Unknown fairness scheme {scheme}.', { scheme: fair.scheme })] };
  const steps = new Map((history.steps ?? []).map((step) => [step.seq, step]));
  for (const deal of history.deals ?? []) {
    const expected = commitment(history.table, deal.deal, fair.seed, fair.salt);
    const sent = deal.commitment === expected;
    const mine = received[deal.deal];
    const seen = mine === undefined || mine === expected;
    ok = ok && sent && seen;
    // The sentence grows clause by clause; each clause's message holds the sentence so far, {line}.
    let line = sent ? t('Deal {deal}: commitment matches the revealed seed', { deal: deal.deal })
      : t('Deal {deal}: commitment DOES NOT match the revealed seed', { deal: deal.deal });
    if (mine !== undefined) {
      line = seen ? t('{line} (the one this browser received)', { line })
        : t('{line} — the one this browser received DOES NOT match', { line });
    }
    const first = steps.get(deal.from_seq);
    if (isPlainObject(fair.pack) && Number.isInteger(deal.shuffle) && first && Array.isArray(first.views) && first.phase === 'playing') {
      const deck = shoeDeck(fair.pack, fair.seed, deal.shuffle, deal.shuffle === 1 ? fair.stacked_deck : null);
      const problem = checkDealt(deck, /** @type {GameView[]} */ (first.views), /** @type {GameView} */ (first.views[0]));
      ok = ok && !problem;
      line = problem ? t('{line}; the cards dealt DO NOT come from the shuffled deck: {problem}', { line, problem })
        : t('{line}; the cards dealt are the top of the re-shuffled deck', { line });
    } else if (!isPlainObject(fair.pack)) {
      line = t('{line}; this game lays out its own packs: use `parlour verify` to replay it', { line });
    }
    lines.push(t('{line}.', { line }));
  }
  if (!(history.deals ?? []).length) lines.push(t('No deal was dealt at this table.'));
  return { ok, lines };
}

// -- commitments received during play ---------------------------------------

const RECEIVED_KEY = 'parlour.commitments';
const MAX_TABLES = 50;

/** @returns {Record<string, Record<string, string>>} */
function readReceived() {
  try {
    const all = JSON.parse(localStorage.getItem(RECEIVED_KEY) || '{}');
    return isPlainObject(all) ? all : {};
  } catch {
    return {};
  }
}

/**
 * Remember a state's commitment (state.fair), so the reveal can be checked against what was sent.
 * @param {Partial<State> | null | undefined} state
 */
export function rememberCommitment(state) {
  const fair = state?.fair;
  if (!isPlainObject(fair) || !Number.isInteger(fair.deal) || typeof fair.commitment !== 'string') return;
  const all = readReceived();
  const table = String(state?.table);
  const mine = isPlainObject(all[table]) ? all[table] : {};
  if (mine[fair.deal] === fair.commitment) return;
  mine[fair.deal] = fair.commitment;
  delete all[table];
  all[table] = mine;
  const tables = Object.keys(all);
  for (const old of tables.slice(0, Math.max(0, tables.length - MAX_TABLES))) delete all[old];
  try {
    localStorage.setItem(RECEIVED_KEY, JSON.stringify(all));
  } catch {
    /* storage full or disabled: verification still checks the server's own record */
  }
}

/**
 * {deal: commitment} this browser received at a table.
 * @param {string} table
 * @returns {Record<string, string>}
 */
export function receivedCommitments(table) {
  const mine = readReceived()[String(table)];
  return isPlainObject(mine) ? mine : {};
}

// -- fetching a whole history ------------------------------------------------

const MAX_PAGES = 400;

/**
 * Every page of one deal's history, merged: the first reply with all the steps.
 * @param {Connection} conn
 * @param {string} table
 * @param {number | undefined} deal undefined: the server's default (the first)
 * @returns {Promise<History>}
 */
export async function fetchDeal(conn, table, deal) {
  let reply = await conn.request('history', { table, deal });
  const merged = { ...reply, steps: [...(reply.steps ?? [])] };
  for (let pages = 1; reply.next_from && pages < MAX_PAGES; pages++) {
    reply = await conn.request('history', { table, deal, from: reply.next_from });
    merged.steps.push(...(reply.steps ?? []));
  }
  merged.next_from = null;
  return merged;
}

/**
 * The whole history the viewer may read (every finished deal), as one document.
 * @param {Connection} conn
 * @param {string} table
 * @returns {Promise<History & {received_commitments?: {deal: number, commitment: string}[]}>}
 */
export async function fetchWholeHistory(conn, table) {
  const first = await conn.request('history', { table });
  /** @type {History & {received_commitments?: {deal: number, commitment: string}[]}} */
  const whole = { ...first, deal: null, steps: [], next_from: null };
  for (const deal of first.deals ?? []) {
    if (!deal.finished) continue;
    const merged = await fetchDeal(conn, table, deal.deal);
    whole.steps.push(...merged.steps);
  }
  const received = receivedCommitments(table);
  whole.received_commitments = Object.entries(received).map(([deal, hash]) => ({ deal: Number(deal), commitment: hash }));
  return whole;
}

/**
 * Fetches what the check needs (each deal's first page) and verifies it.
 * @param {Connection} conn
 * @param {string} table
 * @returns {Promise<Verdict>}
 */
export async function verifyTable(conn, table) {
  const first = await conn.request('history', { table });
  /** @type {History} */
  const history = { ...first, steps: [] };
  for (const deal of first.deals ?? []) {
    const page = deal.deal === first.deal ? first : await conn.request('history', { table, deal: deal.deal });
    history.steps.push(...(page.steps ?? []).slice(0, 1));
  }
  return verifyHistory(history, receivedCommitments(table));
}
