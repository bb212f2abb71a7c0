#!/usr/bin/env node
// Records the golden frame sequences of tests/protocol/golden-frames/ (README there):
// run by hand when the push encoder changes on purpose, and the result committed.
//
//   PARLOUR_NODE_MODULES=build/reference-client/node_modules \
//     node tests/protocol/record_golden.mjs --binary build/server/parlour [--only red_dog]
//
// (`ws` is the reference client's pinned package: tests/reference-client/run.sh, or
// `ctest -R test_reference_client`, installs it there.)
//
// For each sequence it starts a fresh server, and one player signs in on TWO
// connections: D asks for `"features":["deltas"]` (today's smaller pushes), W asks for
// nothing (PROTOCOL.md v1: every push whole). Both join the player's seat and see the
// same pushes. The script plays the table (random legal moves read from W's whole
// states; bots in the other seats), with a chat line, a reconnect of D (a fresh first
// push mid-table), a deal ending and, where the game takes players between deals, a
// second person taking a seat mid-table; then it ends the table. Whenever the table
// is quiet it pairs D's and W's frames of that stretch: the whole frame is what
// merging D's frames so far must give. A stretch whose frames do not pair one to
// one (a push one connection had and the other did not, e.g. D's reconnect) pairs
// only its last frames.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { framesAsSent, isDeepStrictEqual, normalizeForComparison, storeAgainst } from './golden_format.mjs';
import { completeState } from '../../web-client/js/state_merge.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = process.env.PARLOUR_NODE_MODULES || path.join(here, '../../build/reference-client/node_modules');
const WebSocket = createRequire(path.join(modules, 'noop.js'))('ws');
const OUT_DIR = path.join(here, 'golden-frames');
const QUIET_MS = 150;
const BOT_DELAY_MS = 20;

/**
 * The sequences. `lateSeat`: a second person joins after the first result and is
 * seated at the next deal (games that take players between deals). `steps`: how
 * many of our own moves before the table is ended (once a deal has ended, or after
 * three times as many): the deal in play is settled first, and a long deal is ended
 * at once after `hardStop` more. `openSeats`: seats left without a bot.
 */
const SEQUENCES = [
  { name: 'betting_red_dog', game: 'red_dog', seats: 4, openSeats: 1, options: {}, lateSeat: true, steps: 10, hardStop: 10 },
  { name: 'betting_ranter_go_round', game: 'ranter_go_round', seats: 3, options: {}, steps: 6, hardStop: 6 },
  { name: 'rummy_rummy', game: 'rummy', seats: 2, options: {}, steps: 6, hardStop: 8 },
  { name: 'tricks_rams', game: 'rams', seats: 3, options: {}, steps: 8, hardStop: 10 },
  { name: 'cassino_royal_cassino', game: 'royal_cassino', seats: 2, options: {}, steps: 6, hardStop: 8 },
  { name: 'building_russian_bank', game: 'russian_bank', seats: 2, options: {}, steps: 8, hardStop: 0 },
];

// -- plumbing -----------------------------------------------------------------------

let arrival = 0;

class Conn {
  constructor(url, label) {
    this.url = url;
    this.label = label;
    this.nextId = 1;
    this.pending = new Map();
    this.states = []; // every state push, as it came, with its arrival number
    this.lastFrameAt = Date.now();
    this.onAny = () => {};
  }

  open() {
    return new Promise((resolve, reject) => {
      this.socket = new WebSocket(this.url);
      this.socket.once('open', resolve);
      this.socket.once('error', reject);
      this.socket.on('message', (data) => {
        const frame = JSON.parse(data.toString('utf8'));
        this.lastFrameAt = Date.now();
        if (frame.type === 'state') this.states.push({ at: arrival++, frame });
        const request = this.pending.get(frame.re);
        if (request) {
          this.pending.delete(frame.re);
          request(frame);
        }
        this.onAny();
      });
    });
  }

  close() {
    return new Promise((resolve) => {
      this.socket.once('close', resolve);
      this.socket.close();
    });
  }

  request(type, fields = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.label}: no reply to ${type}`)), 15_000);
      this.pending.set(id, (frame) => { clearTimeout(timer); resolve(frame); });
      this.socket.send(JSON.stringify({ ...fields, type, id }));
    });
  }

  async must(type, fields, expected) {
    const reply = await this.request(type, fields);
    if (reply.type !== expected) throw new Error(`${this.label}: ${type} ${JSON.stringify(fields)} → ${JSON.stringify(reply)}`);
    return reply;
  }

  get latest() {
    return this.states.length ? this.states[this.states.length - 1].frame : null;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(binary, dir) {
  const port = await freePort();
  const log = fs.openSync(path.join(dir, 'server.log'), 'a');
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--db', path.join(dir, 'parlour.db'),
    '--web-root', path.join(here, '../../web-client'), '--log-level', 'warn',
    '--bot-delay-ms', String(BOT_DELAY_MS), '--deal-pause-ms', '400'], { stdio: ['ignore', log, log] });
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) return { child, url: `ws://127.0.0.1:${port}/ws` };
    } catch { /* not yet */ }
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error('the server did not come up');
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once no connection has had a frame for QUIET_MS. */
async function quiet(conns) {
  for (;;) {
    const last = Math.max(...conns.map((c) => c.lastFrameAt));
    const wait = last + QUIET_MS - Date.now();
    if (wait <= 0) return;
    await sleep(wait);
  }
}

/** A random legal entry, sent back verbatim with a number in range where it gives bounds. */
function randomAction(legal, random) {
  const entry = legal[Math.floor(random() * legal.length)];
  const fill = (v) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && Number.isInteger(v.min) && Number.isInteger(v.max) && Object.keys(v).length === 2)
      return v.min + Math.floor(random() * (v.max - v.min + 1));
    if (Array.isArray(v)) return v.map(fill);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
    return v;
  };
  return fill(entry);
}

function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const myTurn = (state) => state && state.status === 'playing' && state.seat !== null && state.legal.length > 0 &&
  (state.to_act.includes(state.seat) || state.legal.some((a) => a.type === 'continue'));

// -- one sequence ---------------------------------------------------------------------

async function record(spec, url) {
  const random = seeded(crypto.createHash('sha256').update(spec.name).digest().readUInt32LE(0));
  const name = `gold-${crypto.randomBytes(4).toString('hex')}`;
  let delta = new Conn(url, 'D');
  const whole = new Conn(url, 'W');
  await delta.open();
  await whole.open();
  const welcome = await delta.must('hello', { name, features: ['deltas'] }, 'welcome');
  const wholeWelcome = await whole.must('hello', { name, token: welcome.token }, 'welcome');
  if (!(welcome.features || []).includes('deltas')) throw new Error(`the server did not grant "deltas": ${JSON.stringify(welcome)}`);
  if ((wholeWelcome.features || []).length !== 0) throw new Error(`a hello without features was granted some: ${JSON.stringify(wholeWelcome)}`);

  const { table } = await delta.must('create', { game: spec.game, options: spec.options, seats: spec.seats, seed: 20261127 }, 'created');
  await delta.must('join', { table, seat: 0 }, 'joined');
  await whole.must('join', { table }, 'joined');
  for (let seat = 1; seat < spec.seats - (spec.openSeats || 0); seat += 1) await delta.must('bot', { table, seat }, 'ok');
  await delta.must('start', { table }, 'ok');

  const steps = []; // {delta, whole?, reconnect?}
  const conns = () => [delta, whole, ...(late ? [late] : [])];
  let late = null;
  let dTaken = 0;
  let wTaken = 0;
  let reconnectNext = false;
  let moves = 0;
  let movesAfterEnd = 0;
  let ends = 0;
  let chatted = false;
  let reconnected = false;
  let sawResult = false;
  let stuck = 0;

  const takeStretch = () => {
    const d = delta.states.slice(dTaken);
    const w = whole.states.slice(wTaken);
    dTaken = delta.states.length;
    wTaken = whole.states.length;
    const start = steps.length;
    for (const { frame } of d) {
      steps.push(reconnectNext ? { reconnect: true, delta: frame } : { delta: frame });
      reconnectNext = false;
      if (frame.result) sawResult = true;
    }
    if (!d.length || !w.length) return;
    const onePerOne = d.length === w.length && d.every((x, i) => x.frame.seq === w[i].frame.seq);
    if (onePerOne) {
      w.forEach((x, i) => { steps[start + i].whole = x.frame; });
    } else if (d[d.length - 1].frame.seq === w[w.length - 1].frame.seq) {
      steps[steps.length - 1].whole = w[w.length - 1].frame;
    } else {
      console.warn(`${spec.name}: a stretch of ${d.length} delta and ${w.length} whole frames did not pair`);
    }
  };

  for (;;) {
    await quiet(conns());
    takeStretch();
    const state = whole.latest;
    if (state.status === 'finished') break;
    let did = false;

    // The events of the sequence, each once, in this order.
    if (!chatted && moves >= 2) {
      await delta.must('chat', { table, text: 'good luck, all' }, 'ok');
      chatted = did = true;
    } else if (!reconnected && moves >= 4) {
      // D goes away and comes back on a new connection: its next push is a first push.
      await quiet(conns());
      takeStretch();
      await delta.close();
      delta = new Conn(url, 'D2');
      dTaken = 0;
      await delta.open();
      await delta.must('hello', { name, token: welcome.token, features: ['deltas'] }, 'welcome');
      reconnectNext = true;
      await delta.must('join', { table }, 'joined');
      reconnected = did = true;
    } else if (spec.lateSeat && !late && sawResult) {
      late = new Conn(url, 'L');
      await late.open();
      await late.must('hello', { name: `${name}-late` }, 'welcome');
      await late.must('join', { table }, 'watching');
      did = true;
    }

    if (!did && moves >= spec.steps && (sawResult || moves >= 3 * spec.steps) && ends === 0) {
      await delta.must('end', { table }, 'ok');
      ends = 1;
      did = true;
    } else if (!did && ends === 1 && movesAfterEnd >= spec.hardStop) {
      await delta.must('end', { table }, 'ok'); // a second end ends the deal in play at once
      ends = 2;
      did = true;
    }

    if (!did && myTurn(state)) {
      const reply = await delta.request('act', { table, action: randomAction(state.legal, random) });
      if (reply.type !== 'ok') console.warn(`${spec.name}: act refused: ${JSON.stringify(reply)}`);
      moves += 1;
      if (ends) movesAfterEnd += 1;
      did = true;
    }
    if (late && myTurn(late.latest)) {
      await late.request('act', { table, action: randomAction(late.latest.legal, random) });
      did = true;
    }
    if (!did) {
      // Nothing for us to do: wait for the table (bots, the deal pause) to move.
      const before = arrival;
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 3_000);
        for (const c of conns()) c.onAny = () => { clearTimeout(timer); resolve(); };
      });
      for (const c of conns()) c.onAny = () => {};
      if (arrival === before && ++stuck > 5) throw new Error(`${spec.name}: the table stopped moving at seq ${state.seq}`);
    }
  }
  for (const c of conns()) await c.close();
  return { table, steps };
}

// -- storing ---------------------------------------------------------------------------------

/**
 * The sequence as stored: each whole frame's `log` (50 lines, the bulk of the
 * corpus) as a reference into the sequence's `log_lines`, every line of the table's
 * log by number. Checks before storing that the stored frames merge as the whole
 * frames say (with the browser's decoder), so a recording that pairs wrongly is
 * not committed.
 */
function store(spec, { table, steps }) {
  const logLines = [];
  for (const step of steps) {
    if (!step.whole) continue;
    const { log_from: from, log } = step.whole;
    log.forEach((line, i) => {
      if (logLines[from + i] !== undefined && !isDeepStrictEqual(logLines[from + i], line))
        throw new Error(`${spec.name}: log line ${from + i} differs between whole frames`);
      logLines[from + i] = line;
    });
  }
  let previousDelta;
  let previousWhole;
  const stored = steps.map((step) => {
    const delta = storeAgainst(step.delta, previousDelta);
    previousDelta = step.delta;
    if (!step.whole) return { ...step, delta };
    const { log, ...rest } = step.whole;
    const whole = { ...rest, log: { $lines: rest.log_from, count: log.length } };
    const compact = storeAgainst(whole, previousWhole);
    previousWhole = whole;
    return { ...step, delta, whole: compact };
  });
  const sequence = {
    about: `Golden frames of one ${spec.game} table (layout ${spec.name.split('_')[0]}): delta frames as a connection ` +
      'that asked for "deltas" had them, each paired where possible with the v1 whole frame of the same moment. ' +
      'See README.md.',
    game: spec.game, table, seats: spec.seats, options: spec.options,
    log_lines: logLines,
    steps: stored,
  };
  // The decoder of today must agree, or the recording is not kept.
  let tables = new Map();
  const frames = framesAsSent(sequence);
  sequence.steps.forEach((step, i) => {
    if (!isDeepStrictEqual(frames[i].delta, steps[i].delta) || !isDeepStrictEqual(frames[i].whole, steps[i].whole ?? null))
      throw new Error(`${spec.name}: step ${i} is not stored faithfully`);
    if (step.reconnect) tables = new Map();
    const merged = completeState(tables, frames[i].delta);
    if (!step.whole) return;
    const expected = frames[i].whole;
    const a = normalizeForComparison(merged, expected);
    const b = normalizeForComparison(expected, expected);
    if (!isDeepStrictEqual(a, b)) {
      fs.writeFileSync(path.join(os.tmpdir(), `${spec.name}-mismatch.json`), JSON.stringify({ step: i, merged: a, whole: b }, null, 1));
      throw new Error(`${spec.name}: step ${i} (seq ${frames[i].delta.seq}) merges to something else than its whole frame; ` +
        `see ${path.join(os.tmpdir(), `${spec.name}-mismatch.json`)}`);
    }
  });
  const file = path.join(OUT_DIR, `${spec.name}.json`);
  fs.writeFileSync(file, JSON.stringify(sequence) + '\n');
  const pairs = steps.filter((s) => s.whole).length;
  console.log(`${spec.name}: ${steps.length} delta frames, ${pairs} paired with a whole frame, ${fs.statSync(file).size} bytes`);
}

async function main() {
  const args = process.argv.slice(2);
  const binary = args[args.indexOf('--binary') + 1];
  if (!args.includes('--binary') || !binary) throw new Error('usage: record_golden.mjs --binary PATH/TO/parlour [--only NAME]');
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : null;
  fs.mkdirSync(OUT_DIR, { recursive: true });
  for (const spec of SEQUENCES) {
    if (only && !spec.name.includes(only)) continue;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parlour-golden-'));
    const server = await startServer(binary, dir);
    try {
      store(spec, await record(spec, server.url));
    } finally {
      server.child.kill('SIGTERM');
    }
  }
}

main().then(() => process.exit(0), (error) => {
  console.error(`record_golden: ${error.stack || error}`);
  process.exit(1);
});
