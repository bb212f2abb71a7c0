#!/usr/bin/env node
// Parlour's reference client: a third-party client written from the wire contract
// alone (../shared/PROTOCOL.md, version 1), the way an outsider would write one.
// It signs in WITHOUT asking for any feature, so every `state` push must be whole;
// creates a table of one game with short-game options, seats server bots in the
// other seats, starts it and plays random legal moves until the table is finished.
// It checks every push is whole in the v1 sense and that `seq` never goes back,
// and at the end that its chips agree with its ledger. Any violation, error or
// timeout: a clear message and a non-zero exit.
//
//   node client.mjs --url ws://127.0.0.1:PORT/ws --game GAME [--seed N]
//        [--game GAME2 …  |  --game all] [--parallel N] [--timeout-s S] [--bot-level L]
//
// `--game all` plays every game id of GAMES.md (and requires the server to offer
// each one; `--game all,all` twice); several games are played side by side on
// separate connections.
// The `ws` package comes from PARLOUR_NODE_MODULES (run.sh installs it into the
// build tree) or from an `npm ci` in this folder.

import { createRequire } from 'node:module';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(process.env.PARLOUR_NODE_MODULES || path.join(here, 'node_modules'), 'noop.js'));
const WebSocket = require('ws');

/** Every game id of GAMES.md (/work/shared/GAMES.md, "The games"), in its order. */
export const GAMES_MD_IDS = [
  'red_dog', 'red_and_black', 'ranter_go_round', 'rams', 'rounce', 'reversi', 'rummy',
  'michigan_rummy', 'five_hundred_rummy', 'persian_rummy', 'russian_bank', 'royal_cassino',
  'rabouge', 'straight_rummy', 'skip_rummy', 'round_the_corner_rummy', 'block_rummy',
  'queen_city_rummy', 'carousel', 'double_rummy', 'java_rummy', 'rummy_poker',
];

const STATUSES = new Set(['waiting', 'playing', 'finished']);
// Generous: random play of Round-the-Corner Rummy can build a hand of 30 and more
// cards, whose legal list (every way to go rummy) took the server 16–20 s to
// work out on this machine; that cost is a defect of its own (noted in issue 29's
// closing note), not what this client checks.
const REQUEST_TIMEOUT_MS = 60_000;

/** A violation of the contract (or of this client's expectations of it). */
export class Violation extends Error {}

/**
 * Every frame received is checked against the wire's JSON Schema
 * (protocol/schema/parlour.schema.json) with the checker the other suites use
 * (tests/schema/validator.mjs), when PARLOUR_SCHEMA_MODULES names the folder of
 * its npm packages (run.sh installs them); a frame that does not match is a
 * Violation naming the definition and the failing path.
 */
const schemaModules = process.env.PARLOUR_SCHEMA_MODULES;
const checker = schemaModules
  ? new (await import('../schema/validator.mjs')).WireChecker(schemaModules)
  : null;

export function validateFrame(frame) {
  if (!checker) return;
  try {
    checker.frame(frame);
  } catch (error) {
    throw new Violation(`a frame the schema refuses: ${error.message}`);
  }
}

// -- one connection -----------------------------------------------------------

/** One WebSocket: requests with ids, replies matched by `re`, state pushes to a listener. */
class Wire {
  constructor(url, label) {
    this.url = url;
    this.label = label;
    this.nextId = 1;
    this.pending = new Map();
    this.trace = [];
    this.onState = () => {};
    this.onFailure = () => {};
    this.failure = null;
  }

  open() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url);
      this.socket = socket;
      socket.once('open', resolve);
      socket.once('error', (err) => reject(new Violation(`${this.label}: cannot connect to ${this.url}: ${err.message}`)));
      socket.on('message', (data, isBinary) => this.#frame(data, isBinary));
      socket.on('close', (code) => this.#fail(new Violation(`${this.label}: the server closed the connection (status ${code})`)));
    });
  }

  close() {
    this.closing = true;
    this.socket?.close();
  }

  // The last frames in and out, shortened, for the message of a request that got no reply.
  #note(line) {
    this.trace.push(line.slice(0, 300));
    if (this.trace.length > 25) this.trace.shift();
  }

  #fail(error) {
    if (this.closing) return;
    this.failure ??= error;
    this.onFailure(this.failure);
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    this.pending.clear();
  }

  #frame(data, isBinary) {
    try {
      if (isBinary) throw new Violation('the server sent a binary frame (PROTOCOL.md: text frames only)');
      let frame;
      try {
        frame = JSON.parse(data.toString('utf8'));
      } catch {
        throw new Violation(`a frame that is not JSON: ${String(data).slice(0, 200)}`);
      }
      if (frame === null || typeof frame !== 'object' || Array.isArray(frame) || typeof frame.type !== 'string')
        throw new Violation(`a frame that is not an object with a "type": ${String(data).slice(0, 200)}`);
      validateFrame(frame);
      this.#note(`in ${frame.type} re=${frame.re} seq=${frame.seq} code=${frame.code ?? ''} legal=${JSON.stringify(frame.legal ?? '')}`);
      if (frame.type === 'state') this.onState(frame);
      const request = Number.isInteger(frame.re) ? this.pending.get(frame.re) : undefined;
      if (request) {
        this.pending.delete(frame.re);
        clearTimeout(request.timer);
        request.resolve(frame);
      } else if (frame.type === 'error') {
        throw new Violation(`an error pushed without a request: ${JSON.stringify(frame)}`);
      }
    } catch (error) {
      this.#fail(error instanceof Violation ? new Violation(`${this.label}: ${error.message}`) : error);
      this.close();
    }
  }

  /** The direct reply (an `error` reply too: the caller decides). */
  send(type, fields = {}) {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Violation(`${this.label}: no reply to ${type} within ${REQUEST_TIMEOUT_MS / 1000} s; the last frames in and out:\n${this.trace.join('\n')}`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.#note(`out ${type} id=${id} ${JSON.stringify(fields)}`);
      this.socket.send(JSON.stringify({ ...fields, type, id }));
    });
  }

  /** The reply, which must be of `expected` type. */
  async request(type, fields, expected) {
    const reply = await sendPaced(this, type, fields);
    if (reply.type !== expected)
      throw new Violation(`${this.label}: ${type} ${JSON.stringify(fields)} was answered ${JSON.stringify(reply)}, expected "${expected}"`);
    return reply;
  }
}

// -- what a whole v1 state is ---------------------------------------------------

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Throws unless `state` is whole as PROTOCOL.md version 1 has it: `state
 * {table, game, seq, status, seat, host, players[{seat,player,chips,connected,bot}],
 * view, to_act, legal, log, result?}`. `sawResult`: a result came in an earlier
 * push (a deal has ended), so this one must carry one too.
 */
export function checkWholeState(state, { table, sawResult }) {
  const where = `state seq ${state.seq}`;
  const need = (ok, what) => {
    if (!ok) throw new Violation(`${where} is not a whole v1 state: ${what}; the push: ${JSON.stringify(state).slice(0, 600)}`);
  };
  need(state.table === table, `"table" is ${JSON.stringify(state.table)}, expected "${table}"`);
  need(typeof state.game === 'string' && state.game.length > 0, '"game" is missing');
  need(Number.isInteger(state.seq) && state.seq >= 0, '"seq" is not a non-negative integer');
  need(STATUSES.has(state.status), `"status" is ${JSON.stringify(state.status)}`);
  need(state.seat === null || Number.isInteger(state.seat), '"seat" is neither a seat number nor null');
  need(typeof state.host === 'string' && state.host.length > 0, '"host" is missing');
  need(Array.isArray(state.players), '"players" is missing');
  state.players.forEach((entry, i) => {
    need(isObject(entry), `players[${i}] is not an object`);
    need(Number.isInteger(entry.seat), `players[${i}].seat is missing`);
    need(entry.player === null || typeof entry.player === 'string', `players[${i}].player is missing`);
    need(Number.isInteger(entry.chips), `players[${i}].chips is missing`);
    need(typeof entry.connected === 'boolean', `players[${i}].connected is missing`);
    need(typeof entry.bot === 'boolean', `players[${i}].bot is missing`);
  });
  need(isObject(state.view), '"view" is not an object');
  need(Array.isArray(state.to_act) && state.to_act.every(Number.isInteger), '"to_act" is not a list of seats');
  need(Array.isArray(state.legal) && state.legal.every((a) => isObject(a) && typeof a.type === 'string'),
    '"legal" is not a list of actions with a "type"');
  need(Array.isArray(state.log), '"log" is not a list');
  if (sawResult || state.status === 'finished') need(isObject(state.result), '"result" is missing though a deal has ended');
  else need(state.result === undefined || isObject(state.result), '"result" is not an object');
}

// -- random legal moves -------------------------------------------------------------

function randomInt(random, min, max) {
  return min + Math.floor(random() * (max - min + 1));
}

/** A bounds object of a legal entry: `{"min":1,"max":40}`. */
function isBounds(value) {
  return isObject(value) && Number.isInteger(value.min) && Number.isInteger(value.max) && Object.keys(value).length === 2;
}

/** An entry of `legal` as it is sent back: verbatim, with a number in range wherever it gives bounds. */
export function chooseAction(legal, random) {
  const entry = legal[Math.floor(random() * legal.length)];
  const fill = (value) => {
    if (isBounds(value)) return randomInt(random, value.min, value.max);
    if (Array.isArray(value)) return value.map(fill);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return fill(entry);
}

/** A small seeded generator (mulberry32), so that --seed repeats the client's choices too. */
function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// -- a short game -------------------------------------------------------------------

// Integer options that set how long a game runs (the `games` catalogue's
// descriptions say so): set to the shortest value in range, but `deals` (0 means
// no limit) to three, so that deals follow a settled one (a `result` that must stay
// in every push, `continue` between deals).
const LENGTH_OPTIONS = new Set(['deals', 'target', 'game_to', 'points', 'max_turns']);
const DEALS = 3;

/** The table options for a short game: every option at its default but those above. */
export function shortGameOptions(catalogueEntry) {
  const options = {};
  for (const option of catalogueEntry.options || []) {
    if (option.type !== 'int' || !LENGTH_OPTIONS.has(option.name)) continue;
    const lowest = Math.max(Number.isInteger(option.min) ? option.min : 1, 1);
    let shortest = option.name === 'deals' ? Math.max(lowest, DEALS) : lowest;
    // Where the option lists its choices, the nearest allowed one.
    if (Array.isArray(option.choices) && option.choices.length > 0) {
      const allowed = option.choices.filter(Number.isInteger).sort((a, b) => a - b);
      shortest = allowed.find((c) => c >= shortest) ?? allowed[allowed.length - 1];
    }
    options[option.name] = shortest;
  }
  return options;
}

// -- one game, start to end ---------------------------------------------------------

/**
 * Plays one table of `game` to the end; resolves with a summary, rejects with a
 * Violation. `catalogue`: the `games` reply's entries (fetched if not given).
 */
export async function playGame({ url, game, seed, timeoutMs = 120_000, botLevel = null, catalogue = null, log = () => {} }) {
  const random = seededRandom(seed ?? crypto.randomInt(2 ** 31));
  const name = `ref-${crypto.randomBytes(8).toString('hex')}`;
  const wire = new Wire(url, `${game} (${name})`);
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Violation(`${game}: the table did not finish within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([timeout, play()]);
  } finally {
    clearTimeout(timer);
    wire.close();
  }

  async function play() {
    await wire.open();
    // v1: hello with no `features`, so every push must be whole.
    const welcome = await wire.request('hello', { name }, 'welcome');
    if (welcome.player !== name || typeof welcome.token !== 'string' || !Number.isInteger(welcome.chips))
      throw new Violation(`${game}: a welcome without player, token or chips: ${JSON.stringify(welcome)}`);
    if (welcome.protocol !== 1) throw new Violation(`${game}: welcome says protocol ${welcome.protocol}, expected 1`);

    const games = catalogue ?? (await wire.request('games', {}, 'games')).games;
    const entry = games.find((g) => g.id === game);
    if (!entry) throw new Violation(`the server's games list has no "${game}"`);
    const seats = Math.max(2, entry.min_players);
    const options = shortGameOptions(entry);
    const create = { game, options, seats };
    if (seed !== undefined) create.seed = seed;
    const { table } = await wire.request('create', create, 'created');
    log(`${game}: table ${table}, options ${JSON.stringify(options)}, ${seats} seats`);

    // Every push is checked as it comes; the play loop reads the latest.
    let latest = null;
    let sawResult = false;
    let pushes = 0;
    let wake = () => {};
    let pushError = null;
    wire.onState = (state) => {
      try {
        if (state.table !== table) throw new Violation(`a push of another table: ${state.table}`);
        checkWholeState(state, { table, sawResult });
        if (latest && state.seq < latest.seq)
          throw new Violation(`seq went back from ${latest.seq} to ${state.seq}`);
        if (state.result !== undefined) sawResult = true;
        latest = state;
        pushes += 1;
      } catch (error) {
        pushError ??= new Violation(`${game} table ${table}: ${error.message}`);
      }
      wake();
    };
    wire.onFailure = () => wake(); // a closed connection ends the wait for a push at once
    const nextPush = () => new Promise((resolve) => { wake = resolve; });

    const joined = await wire.request('join', { table, seat: 0 }, 'joined');
    for (let seat = 0; seat < seats; seat += 1) {
      if (seat === joined.seat) continue;
      const fields = { table, seat };
      if (botLevel !== null) fields.level = botLevel;
      await wire.request('bot', fields, 'ok');
    }
    await wire.request('start', { table }, 'ok');

    let moves = 0;
    let lastActed = -1;
    let lastActedPushes = -1;
    for (;;) {
      if (wire.failure) throw wire.failure;
      if (pushError) throw pushError;
      const state = latest;
      if (state && state.status === 'finished') break;
      const mine = state && state.seat !== null && state.legal.length > 0 &&
        (state.to_act.includes(state.seat) || state.legal.some((a) => a.type === 'continue'));
      // Act once per push: a push that already had its act waits for the next.
      if (!mine || (lastActed === state.seq && lastActedPushes === pushes)) {
        const waiting = nextPush();
        if (latest === state && !pushError && !wire.failure) await waiting;
        continue;
      }
      lastActed = state.seq;
      lastActedPushes = pushes;
      const action = chooseAction(state.legal, random);
      const reply = await sendAct(wire, { table, action });
      moves += 1;
      if (reply.type === 'error') {
        // A push after the one acted on may have moved the turn on (a clock, a
        // between-deals continue): only an error on the latest state is a violation.
        if (latest === state && latest.seq === state.seq && !['not_your_turn', 'conflict'].includes(reply.code))
          throw new Violation(`${game} table ${table}: the legal entry ${JSON.stringify(action)} (sent as it was listed) ` +
            `was refused at seq ${state.seq}: ${JSON.stringify(reply)}`);
      } else if (reply.type !== 'ok') {
        throw new Violation(`${game}: act was answered ${JSON.stringify(reply)}`);
      }
    }
    const final = latest;
    await checkChips({ wire, game, table, name, welcome, final });
    return { game, table, seq: final.seq, pushes, moves };
  }
}

/**
 * `act`, sent again after a pause while the server answers `rate_limited` (a
 * refused request changes nothing, PROTOCOL.md "Errors"): bots answer at once, so
 * this client may outrun a connection's message budget.
 */
async function sendAct(wire, fields) {
  return sendPaced(wire, 'act', fields);
}

/** Any request, sent again after a pause while the server answers `rate_limited`. */
async function sendPaced(wire, type, fields) {
  for (let attempt = 0; ; attempt += 1) {
    const reply = await wire.send(type, fields);
    if (reply.type !== 'error' || reply.code !== 'rate_limited' || attempt >= 50) return reply;
    await new Promise((resolve) => setTimeout(resolve, Number.isInteger(reply.retry_after_ms) ? reply.retry_after_ms : 200));
  }
}

/**
 * The chips in the final state equal the ledger's balance, and the chips the welcome
 * reported plus every ledger entry of this table. The ledger is written a moment
 * after a table's last step, so this asks again for up to five seconds.
 */
async function checkChips({ wire, game, table, name, welcome, final }) {
  const me = final.players.find((p) => p.player === name);
  if (!me) throw new Violation(`${game} table ${table}: the final state has no players entry for ${name}`);
  let last = '';
  for (const deadline = Date.now() + 5_000; ;) {
    const { balance, entries } = await readLedger(wire, name);
    const ofTable = entries.filter((e) => e.table === table).reduce((sum, e) => sum + e.amount, 0);
    if (me.chips === balance && welcome.chips + ofTable === balance) return;
    last = `the final state's chips ${me.chips}, the ledger's balance ${balance}, welcome chips ${welcome.chips} + ` +
      `the table's ${entries.filter((e) => e.table === table).length} entries ${ofTable} = ${welcome.chips + ofTable}`;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Violation(`${game} table ${table}: chips and ledger disagree: ${last}`);
}

/** The whole ledger of `player`, every page (newest first, `before` pages back). */
async function readLedger(wire, player) {
  const entries = [];
  let before;
  let balance;
  for (;;) {
    const fields = { player, limit: 100 };
    if (before !== undefined) fields.before = before;
    const page = await wire.request('ledger', fields, 'ledger');
    balance ??= page.balance;
    entries.push(...page.entries);
    if (page.entries.length < 100) return { balance, entries };
    before = page.entries[page.entries.length - 1].entry;
  }
}

// -- command line -------------------------------------------------------------------

function parseArgs(argv) {
  const args = { games: [], parallel: 4, timeoutS: 120, botLevel: null };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`);
      return argv[++i];
    };
    const integer = () => {
      const text = value();
      if (!/^-?\d+$/.test(text)) throw new Error(`${flag} takes an integer, got "${text}"`);
      return Number(text);
    };
    if (flag === '--url') args.url = value();
    else if (flag === '--game') args.games.push(...value().split(','));
    else if (flag === '--seed') args.seed = integer();
    else if (flag === '--parallel') args.parallel = integer();
    else if (flag === '--timeout-s') args.timeoutS = integer();
    else if (flag === '--bot-level') args.botLevel = integer();
    else throw new Error(`unknown argument "${flag}"`);
  }
  if (!args.url || args.games.length === 0) throw new Error('--url and --game are required');
  return args;
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`reference client: ${error.message}\nusage: node client.mjs --url ws://HOST:PORT/ws --game GAME|all [--seed N] [--parallel N] [--timeout-s S] [--bot-level L]`);
    process.exit(2);
  }
  const games = args.games.flatMap((game) => (game === 'all' ? GAMES_MD_IDS : [game]));
  const started = Date.now();
  const failures = [];
  let next = 0;
  const worker = async () => {
    while (next < games.length) {
      const index = next++;
      const game = games[index];
      // With --seed, the n-th table plays seed + n: a repeated game is another deal, and a run repeats.
      const seed = args.seed === undefined ? undefined : args.seed + index;
      const t0 = Date.now();
      try {
        const done = await playGame({ url: args.url, game, seed, timeoutMs: args.timeoutS * 1000, botLevel: args.botLevel });
        console.log(`ok   ${game}: table ${done.table} finished at seq ${done.seq}, ${done.pushes} whole pushes, ${done.moves} moves, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      } catch (error) {
        failures.push(game);
        console.error(`FAIL ${game}${seed === undefined ? '' : ` (seed ${seed})`}: ${error instanceof Violation ? error.message : error.stack}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, args.parallel) }, worker));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (failures.length) {
    console.error(`reference client: ${failures.length} of ${games.length} games failed (${failures.join(', ')}) in ${seconds} s`);
    process.exit(1);
  }
  console.log(`reference client: ${games.length} games played to the end in ${seconds} s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
