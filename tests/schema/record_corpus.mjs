// Records a corpus of real frames and HTTP bodies from a running server, for writing
// and checking protocol/schema/parlour.schema.json (not a CI test: a tool).
//
//   node tests/schema/record_corpus.mjs PORT OUT_FILE [GAME…]
//
// For every game (or those named): two tables with a player and bots, each watched by a
// spectator, one of the two asking for deltas and the other not (whole pushes); the
// player plays random legal moves for a few deals, then the host ends the table; around it the lobby, ledger, history, settle-up, devices and chat requests, some
// refused on purpose (errors). Each line of OUT_FILE is a frame as received, or
// {"http": PATH, "status": N, "body": JSON} for an HTTP body: the format of the suites'
// frame log (tests/schema/validate_frames.mjs reads it).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const modules = process.env.PARLOUR_SCHEMA_MODULES || path.join(path.dirname(new URL(import.meta.url).pathname), 'node_modules');
const require = createRequire(path.join(modules, 'noop.js'));
const WebSocket = require('ws');

const [port, outFile, ...onlyGames] = process.argv.slice(2);
if (!port || !outFile) {
  console.error('usage: record_corpus.mjs PORT OUT_FILE [GAME…]');
  process.exit(2);
}
const out = fs.openSync(outFile, 'a');
const record = (value) => fs.writeSync(out, JSON.stringify(value) + '\n');
const base = `http://127.0.0.1:${port}`;
const run = Math.random().toString(36).slice(2, 7);

class Client {
  constructor(label, features) {
    this.label = label;
    this.features = features;
    this.nextId = 1;
    this.waiting = new Map();
    this.states = new Map();  // table → last state frame
    this.listeners = [];
  }
  open() {
    this.ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    this.ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      record(frame);
      if (frame.type === 'state') this.keep(frame);
      if (frame.re !== undefined && this.waiting.has(frame.re)) {
        this.waiting.get(frame.re)(frame);
        this.waiting.delete(frame.re);
      }
      for (const listener of this.listeners) listener(frame);
    });
    return new Promise((resolve, reject) => { this.ws.on('open', resolve); this.ws.on('error', reject); });
  }
  keep(frame) {
    const last = this.states.get(frame.table) || {};
    this.states.set(frame.table, { ...last, ...frame });
  }
  send(message) {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...message, id }));
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.waiting.delete(id); resolve({ type: 'timeout' }); }, 10_000);
      this.waiting.set(id, (frame) => { clearTimeout(timer); resolve(frame); });
    });
  }
  async hello(name) {
    const hello = { type: 'hello', name };
    // A client without features gets PROTOCOL.md v1 whole pushes (docs/protocol.md "Features").
    if (this.features) hello.features = this.features;
    const welcome = await this.send(hello);
    this.token = welcome.token;
    this.name = name;
    return welcome;
  }
  close() { this.ws.close(); }
}

async function http(pathAndQuery, token) {
  const response = await fetch(base + pathAndQuery, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  let body = text;
  if ((response.headers.get('content-type') || '').includes('json')) body = JSON.parse(text);
  record({ http: pathAndQuery.split('?')[0], status: response.status, body });
  return body;
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function pick(list) { return list[Math.floor(Math.random() * list.length)]; }

// A legal entry made concrete: every {min,max} becomes a number in range.
function concrete(entry) {
  if (Array.isArray(entry)) return entry.map(concrete);
  if (entry && typeof entry === 'object') {
    if (typeof entry.min === 'number' && typeof entry.max === 'number' && Object.keys(entry).length <= 3)
      return entry.min + Math.floor(Math.random() * (entry.max - entry.min + 1));
    const copy = {};
    for (const [key, value] of Object.entries(entry)) copy[key] = concrete(value);
    return copy;
  }
  return entry;
}

async function playGame(game, index, features) {
  const tag = `${run}${index}${features ? 'd' : 'w'}`;
  const host = new Client('host', features);
  const watcher = new Client('watcher', features ? undefined : ['deltas']);
  await host.open();
  await watcher.open();
  await host.hello(`h${tag}`);
  await watcher.hello(`w${tag}`);
  // Between the game's least and four players, at random; a random seed: every run deals anew.
  const seats = Math.min(game.max_players, game.min_players + Math.floor(Math.random() * (5 - game.min_players)));
  const created = await host.send({ type: 'create', game: game.id, seats, seed: Math.floor(Math.random() * 1e9), clock: { seconds: 0 } });
  const table = created.table;
  await host.send({ type: 'join', table });
  await watcher.send({ type: 'watch', table });
  for (let i = 1; i < seats; i++) await host.send({ type: 'bot', table, level: i === 1 ? 0 : 1 });
  await host.send({ type: 'chat', table, text: 'good luck' });
  await watcher.send({ type: 'chat', table, reaction: 'gg' });
  await host.send({ type: 'mute', table, player: watcher.name, muted: true });
  await host.send({ type: 'mute', table, player: watcher.name, muted: false });
  await host.send({ type: 'start', table });
  let acts = 0;
  let deals = 0;
  let actedAt = -1;  // the seq of the state last acted on: wait for the next push
  const started = Date.now();
  let ended = false;
  while (Date.now() - started < 15_000) {
    const state = host.states.get(table);
    if (state?.status === 'finished') break;
    if (state?.result) deals = Math.max(deals, state.result.deal || 0);
    if (!ended && (deals >= 3 || acts > 120)) {
      await host.send({ type: 'end', table });
      ended = true;
    }
    const legal = state?.legal || [];
    if (legal.length > 0 && state.to_act?.includes(state.seat) && state.seq !== actedAt) {
      actedAt = state.seq;
      const listed = pick(legal);
      const reply = await host.send({ type: 'act', table, action: concrete(listed), action_id: `a${acts}` });
      acts++;
      // A number picked in range that the game's finer rules refuse: the entry's own bounds are not numbers.
      if (reply.type === 'error' && reply.code === 'illegal_action' && JSON.stringify(listed).includes('"min"')) actedAt = -1;
    }
    await delay(25);
  }
  if (!ended) await host.send({ type: 'end', table });
  await host.send({ type: 'end', table });
  await delay(300);
  await host.send({ type: 'act', table, action: { type: 'nonsense' } });
  await host.send({ type: 'history', table });
  await host.send({ type: 'history', table, deal: 2 });
  await watcher.send({ type: 'history', table });
  await http(`/api/tables/${table}/history`, host.token);
  await http(`/api/tables/${table}/history?deal=1&from=3`, watcher.token);
  await host.send({ type: 'settle', tables: [table] });
  await http(`/api/settle?tables=${table}`, host.token);
  await host.send({ type: 'rematch', table });
  await host.send({ type: 'tables' });
  await host.send({ type: 'ledger' });
  await host.send({ type: 'leave', table });
  host.close();
  watcher.close();
  console.log(`${game.id}${features ? ' (deltas)' : ''}: ${acts} acts, finished=${host.states.get(table)?.status}`);
}

async function lobbyAndAccounts() {
  const alice = new Client('alice', ['deltas']);
  await alice.open();
  await alice.send({ type: 'ping' });
  await alice.send({ type: 'games' });            // unauthorized
  await alice.send({ type: 'nonsense' });         // bad_request
  await alice.hello(`a${run}`);
  await alice.hello(`a${run}`);
  await alice.send({ type: 'games' });
  await alice.send({ type: 'tables' });
  await alice.send({ type: 'ledger' });
  await alice.send({ type: 'ledger', player: 'nobody-here' });
  await alice.send({ type: 'devices' });
  const link = await alice.send({ type: 'device_link' });
  await alice.send({ type: 'signup_link' });      // conflict in open mode
  await alice.send({ type: 'set_passphrase', passphrase: 'correct horse battery' });
  await alice.send({ type: 'settle' });
  await alice.send({ type: 'join', table: 'nope' });
  await alice.send({ type: 'create', game: 'red_dog', private: true });
  await alice.send({ type: 'create', game: 'no_such_game' });
  const phone = new Client('phone');
  await phone.open();
  const welcome = await phone.send({ type: 'device_sign_in', code: link.code, label: 'phone' });
  await phone.send({ type: 'revoke_device', device: 'nope' });
  const laptop = new Client('laptop');
  await laptop.open();
  await laptop.send({ type: 'passphrase_sign_in', name: `a${run}`, passphrase: 'correct horse battery' });
  await laptop.send({ type: 'recover', name: `a${run}`, code: 'XXXX-XXXX' });
  await alice.send({ type: 'devices' });
  await http(`/api/players/a${run}/ledger`, alice.token);
  await http(`/api/players/a${run}/ledger?limit=1000`, alice.token);
  await http(`/api/players/a${run}/ledger`, 'wrong');
  await http('/api/settle', alice.token);
  await http('/api/nothing', alice.token);
  void welcome;
  alice.close(); phone.close(); laptop.close();
}

const catalogueClient = new Client('catalogue');
await catalogueClient.open();
await catalogueClient.hello(`c${run}`);
const { games } = await catalogueClient.send({ type: 'games' });
catalogueClient.close();
await lobbyAndAccounts();
// Four tables at a time: each client stays well under the server's 50 messages a second.
const wanted = games.filter((game) => !onlyGames.length || onlyGames.includes(game.id));
for (let at = 0; at < wanted.length; at += 2) {
  await Promise.all(wanted.slice(at, at + 2).flatMap((game, i) =>
    [playGame(game, 2 * (at + i), ['deltas']), playGame(game, 2 * (at + i) + 1, undefined)]));
}
fs.closeSync(out);
process.exit(0);
