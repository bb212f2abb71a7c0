// The closed-loop driver of the boardgame.io peer: starts server.mjs, seats
// TABLES x 4 players on Red Dog matches, each player one socket.io connection
// speaking boardgame.io's wire protocol (what its SocketIO client transport
// sends and receives), and makes each player bet as soon as a state says it is
// its turn. After a warm-up it counts, over the measured interval, the moves
// whose new state came back to their player and the time from the move to that
// state, and reads the server process's CPU time from /proc. It prints one JSON
// line and stops the server:
//
//   {"tables":N,"actions":..,"seconds":..,"p50_ms":..,"p99_ms":..,"p999_ms":..,
//    "server_cpu_us_per_action":..,"actions_per_second":..,"bytes_per_state":..,
//    "driver_cpu_percent":..,"server_rss_kib":..,"stalls":..}
//
//   PARLOUR_NODE_MODULES=DIR node driver.mjs [--tables N] [--seconds S]
//       [--warm-up S] [--warm-up-max S] [--seats N] [--no-pin] [--delta-state]
//
// The warm-up lasts until the server's CPU per move has settled (Node's JIT
// takes seconds, more at more tables): at least --warm-up (3) seconds, at most
// --warm-up-max (20); how long it took is "warm_up_seconds" in the JSON line.
//
// With two CPUs or more (and without --no-pin) the server runs on CPU 0 and the
// driver on CPU 1, as parlour_bench pins Parlour and its clients.
//
// Why the raw protocol and not boardgame.io's Client: the Client keeps a Redux
// store per player and replays every update through it; 400 of them on one
// core would make the driver, not the server, the bottleneck. A player here
// keeps only the last state it was sent (patched in place with --delta-state).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = process.env.PARLOUR_NODE_MODULES || path.join(here, 'node_modules');
const require = createRequire(path.join(modules, 'noop.js'));
const { io } = require('socket.io-client');
const { applyPatch } = require('rfc6902');

const GAME = 'red-dog';
const DRAIN_LIMIT_MS = 5000;
// A move with no new state by then was dropped by the server. Long: a move
// merely slow (seconds at 1,000 tables while the JIT warms up) and made again
// would be refused as a duplicate.
const STALL_MS = 30000;

function parseArgs(argv) {
  const options = { tables: 10, seconds: 10, warmUp: 3, warmUpMax: 20, seats: 4, pin: true, deltaState: false };
  const number = (flag, text, lo, hi) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < lo || value > hi)
      throw new Error(`driver.mjs: ${flag} expects a number from ${lo} to ${hi}, got '${text}'`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--tables') options.tables = Math.trunc(number(flag, argv[++i], 1, 100000));
    else if (flag === '--seconds') options.seconds = number(flag, argv[++i], 0.1, 3600);
    else if (flag === '--warm-up') options.warmUp = number(flag, argv[++i], 0, 600);
    else if (flag === '--warm-up-max') options.warmUpMax = number(flag, argv[++i], 0, 600);
    else if (flag === '--seats') options.seats = Math.trunc(number(flag, argv[++i], 2, 10));
    else if (flag === '--no-pin') options.pin = false;
    else if (flag === '--delta-state') options.deltaState = true;
    else throw new Error(`driver.mjs: unknown option ${flag}`);
  }
  return options;
}

// -- the server process ---------------------------------------------------------

function hasTaskset() {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// Starts server.mjs (on CPU 0 when pinning) and resolves once it prints its port.
function startServer(options, pinned) {
  // PARLOUR_BGIO_NODE_ARGS: node flags for the server only (e.g. --cpu-prof to profile it).
  const nodeArgs = (process.env.PARLOUR_BGIO_NODE_ARGS || '').split(' ').filter(Boolean);
  const script = [...nodeArgs, path.join(here, 'server.mjs'), ...(options.deltaState ? ['--delta-state'] : [])];
  const [command, args] = pinned ? ['taskset', ['-c', '0', process.execPath, ...script]] : [process.execPath, script];
  const child = spawn(command, args, {
    env: { ...process.env, NODE_ENV: 'production', PARLOUR_NODE_MODULES: modules },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = { child, errors: 0, firstError: '' };
  // boardgame.io logs a refused move on stderr ("ERROR: ..."): count them.
  createInterface({ input: child.stderr }).on('line', (line) => {
    if (line.startsWith('ERROR:')) {
      server.errors += 1;
      server.firstError ||= line.slice(0, 300);
    } else process.stderr.write(`bgio server: ${line}\n`);
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the boardgame.io server exited (${code}) before it listened`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      server.port = JSON.parse(line).port;
      resolve(server);
    });
  });
}

// utime + stime of a process, in seconds (/proc/PID/stat fields 14 and 15).
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();
function processCpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');  // fields from the 3rd on
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}
function processRssKib(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : 0;
}

// -- matches, through boardgame.io's lobby API ----------------------------------

async function postJson(url, body) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

async function createMatch(base, seats, table) {
  const { matchID } = await postJson(`${base}/games/${GAME}/create`, { numPlayers: seats });
  const credentials = [];
  for (let seat = 0; seat < seats; seat++) {
    const joined = await postJson(`${base}/games/${GAME}/${matchID}/join`, { playerID: String(seat), playerName: `p${table}_${seat}` });
    credentials.push(joined.playerCredentials);
  }
  return { matchID, credentials };
}

// -- a player -------------------------------------------------------------------

class Player {
  constructor(port, matchID, seat, credentials, window, stats) {
    this.matchID = matchID;
    this.playerID = String(seat);
    this.seat = seat;
    this.credentials = credentials;
    this.window = window;
    this.stats = stats;
    this.state = null;
    this.pendingSince = 0;  // performance.now() of the move in flight, 0 when none
    this.movedAtStateID = -1;
    this.stopped = false;
    // forceNew: a connection of its own, as every Parlour bench player has (socket.io
    // would otherwise multiplex every player of the process over one WebSocket).
    this.socket = io(`http://127.0.0.1:${port}/${GAME}`, { transports: ['websocket'], forceNew: true, reconnection: false });
    this.socket.io.on('open', () => {
      this.socket.io.engine.on('data', (data) => {
        if (this.window.open(performance.now())) this.stats.bytes += typeof data === 'string' ? data.length : data.byteLength;
      });
    });
    this.synced = new Promise((resolve, reject) => {
      this.socket.on('connect_error', reject);
      this.socket.on('sync', (matchID, syncInfo) => {
        this.state = syncInfo.state;
        resolve();
        this.onState();
      });
    });
    this.socket.on('connect', () => this.socket.emit('sync', matchID, this.playerID, credentials, 4));
    this.socket.on('update', (matchID, state) => {
      this.state = state;
      this.countState();
      this.onState();
    });
    this.socket.on('patch', (matchID, prevStateID, stateID, patch) => {
      if (!this.state || this.state._stateID !== prevStateID) {
        this.stats.resyncs += 1;  // a patch on a state this player does not have
        this.socket.emit('sync', matchID, this.playerID, credentials, 4);
        return;
      }
      applyPatch(this.state, patch);
      this.countState();
      this.onState();
    });
  }

  countState() {
    if (this.window.open(performance.now())) this.stats.states += 1;
  }

  onState() {
    const now = performance.now();
    if (this.pendingSince && this.state._stateID > this.movedAtStateID) {
      if (this.window.open(now)) {
        this.stats.actions += 1;
        this.stats.latencies.push(now - this.pendingSince);
      }
      this.pendingSince = 0;
      this.window.inFlight -= 1;
      this.stats.moves += 1;  // in the window or not: the warm-up watches them
    }
    this.maybeMove(now);
  }

  maybeMove(now) {
    if (!this.window.begun || this.pendingSince || this.stopped || now >= this.window.end) return;
    const { G, ctx } = this.state;
    if (ctx.currentPlayer !== this.playerID || ctx.gameover !== undefined) return;
    const most = Math.min(G.pot, G.chips[this.seat]);
    if (most < 1) return;
    const amount = 1 + Math.floor(Math.random() * most);  // uniform over the legal bets, as parlour_bench picks
    this.movedAtStateID = this.state._stateID;
    this.pendingSince = now;
    this.window.inFlight += 1;
    const action = { type: 'MAKE_MOVE', payload: { type: 'bet', args: [amount], playerID: this.playerID, credentials: this.credentials } };
    this.socket.emit('update', action, this.state._stateID, this.matchID, this.playerID);
  }

  // A move the server dropped (boardgame.io answers a refused move with nothing)
  // would stop the table: count it and ask for the state again.
  checkStall(now) {
    if (!this.pendingSince || now - this.pendingSince < STALL_MS) return;
    this.stats.stalls += 1;
    this.pendingSince = 0;
    this.window.inFlight -= 1;
    this.socket.emit('sync', this.matchID, this.playerID, this.credentials, 4);
  }

  stop() {
    this.stopped = true;
    this.socket.close();
  }
}

// Nearest-rank percentile, as bench/report.h computes it.
function percentile(sorted, fraction) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.round(fraction * (sorted.length - 1)))];
}

// Plays until the server's CPU per move has settled (the JIT makes it fall for
// seconds: at 100 tables on a loaded machine 3,120 us in the first second, 1,560
// in the fourth, 610-640 from the ninth on), at least options.warmUp seconds and at most
// options.warmUpMax. Returns the seconds it took.
async function warmUp(options, pid, stats) {
  const began = performance.now();
  const perMove = [];
  let last = { moves: stats.moves, cpu: processCpuSeconds(pid) };
  // Three slices within 15 % of one another: the JIT's fall is steeper than that
  // (1,560 -> 1,260 -> 1,100 us) until it is nearly done; on a busy machine a
  // settled server's slices still wander by 10-20 %, GC pauses included.
  const settled = () => {
    const last = perMove.slice(-3);
    return last.length === 3 && Math.max(...last) <= 1.15 * Math.min(...last);
  };
  for (;;) {
    const elapsed = (performance.now() - began) / 1000;
    if (elapsed >= options.warmUpMax || (elapsed >= options.warmUp && settled())) return elapsed;
    await sleep(Math.min(1000, Math.max(10, (options.warmUpMax - elapsed) * 1000)));
    const now = { moves: stats.moves, cpu: processCpuSeconds(pid) };
    if (now.moves > last.moves) perMove.push((now.cpu - last.cpu) / (now.moves - last.moves));
    last = now;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value, digits) => Number(value.toFixed(digits));

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const pinned = options.pin && os.cpus().length >= 2 && hasTaskset();
  if (pinned) execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  const server = await startServer(options, pinned);
  const pid = server.child.pid;  // taskset execs node: the same process
  try {
    const base = `http://127.0.0.1:${server.port}`;
    // Nobody moves before every table is seated (`begun`), as parlour_bench's
    // players start together: tables playing early would slow the setup of the rest.
    const window = { begun: false, start: Infinity, end: Infinity, inFlight: 0, open(now) { return now >= this.start && now < this.end; } };
    const stats = { moves: 0, actions: 0, states: 0, bytes: 0, latencies: [], stalls: 0, resyncs: 0 };
    const players = [];
    // A few matches set up at a time: one at a time takes long at 1,000 tables.
    let nextTable = 0;
    const setUpMatches = async () => {
      for (let table = nextTable++; table < options.tables; table = nextTable++) {
        const { matchID, credentials } = await createMatch(base, options.seats, table);
        const seated = [];
        for (let seat = 0; seat < options.seats; seat++)
          seated.push(new Player(server.port, matchID, seat, credentials[seat], window, stats));
        players.push(...seated);
        await Promise.all(seated.map((player) => player.synced));
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, options.tables) }, setUpMatches));

    // Play begins now for every table; the window opens after the warm-up.
    window.begun = true;
    for (const player of players) player.maybeMove(performance.now());
    const warmUpSeconds = await warmUp(options, pid, stats);
    window.start = performance.now();
    window.end = window.start + options.seconds * 1000;
    const stallTimer = setInterval(() => {
      const now = performance.now();
      for (const player of players) player.checkStall(now);
    }, 250);
    const cpuAtStart = processCpuSeconds(pid);
    const driverCpuAtStart = process.cpuUsage();
    await sleep(window.end - performance.now());
    const serverCpu = processCpuSeconds(pid) - cpuAtStart;
    const driverCpu = process.cpuUsage(driverCpuAtStart);
    const rssKib = processRssKib(pid);
    const drainedBy = performance.now() + DRAIN_LIMIT_MS;
    while (window.inFlight > 0 && performance.now() < drainedBy) await sleep(10);
    clearInterval(stallTimer);
    for (const player of players) player.stop();

    const latencies = stats.latencies.sort((a, b) => a - b);
    const result = {
      tables: options.tables,
      actions: stats.actions,
      seconds: options.seconds,
      warm_up_seconds: round(warmUpSeconds, 1),
      p50_ms: round(percentile(latencies, 0.5), 3),
      p99_ms: round(percentile(latencies, 0.99), 3),
      p999_ms: round(percentile(latencies, 0.999), 3),
      server_cpu_us_per_action: stats.actions ? round((1e6 * serverCpu) / stats.actions, 1) : 0,
      actions_per_second: round(stats.actions / options.seconds, 1),
      bytes_per_state: stats.states ? Math.round(stats.bytes / stats.states) : 0,
      driver_cpu_percent: round((100 * (driverCpu.user + driverCpu.system)) / 1e6 / options.seconds, 1),
      server_rss_kib: rssKib,
      stalls: stats.stalls,
      server_errors: server.errors,
      delta_state: options.deltaState,
      pinned,
    };
    if (server.firstError) result.first_server_error = server.firstError;
    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    server.child.removeAllListeners('exit');
    server.child.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`driver.mjs: ${error.stack || error}\n`);
    process.exit(1);
  },
);
