// Checks frames and HTTP bodies against protocol/schema/parlour.schema.json with ajv
// (Ajv2020). Shared by the C++ suites' frame log check (validate_frames.mjs) and the
// browser tests (tests/browser/harness.mjs).
//
// A frame is checked against the definition its type names (x-server-types); a state
// push also against its game's view, legal_<game> and result_<game>. A delta push leaves
// the view's constants out (docs/protocol.md "State", view_constants): view_<game> has
// them optional, view_<game>_whole (a push that carries view_constants, a history step)
// requires them. A push that names its game (a whole one) is checked as state_whole too.
// The game of a delta push is the one its table's whole push named; a delta push of a
// table whose whole push was not seen is checked without its game's schemas (counted in
// `unknownGame`).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
export const SCHEMA_FILE = path.join(here, '..', '..', 'protocol', 'schema', 'parlour.schema.json');

function loadAjv(modulesDir) {
  const require = createRequire(path.join(modulesDir, 'noop.js'));
  return require('ajv/dist/2020').default;
}

const short = (value, limit = 1500) => {
  const text = String(JSON.stringify(value));
  return text.length > limit ? text.slice(0, limit) + '…' : text;
};

export class WireChecker {
  /** `modulesDir`: the node_modules holding ajv (tests/schema/package.json). */
  constructor(modulesDir, schemaFile = SCHEMA_FILE) {
    const Ajv2020 = loadAjv(modulesDir);
    this.schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8'));
    const ajv = new Ajv2020({ allErrors: false, strict: true, strictRequired: false, strictTypes: false, allowUnionTypes: true });
    ajv.addKeyword('x-server-types');
    ajv.addKeyword('x-client-types');
    ajv.addSchema(this.schema);
    this.ajv = ajv;
    this.validators = new Map();
    this.games = new Map();      // table → game id
    this.tableView = new Map();  // table → whether its view is the table's (no game view)
    this.counts = { frames: 0, http: 0, states: 0, views: 0, results: 0, legal: 0, unknownGame: 0 };
  }

  validator(name) {
    if (!this.validators.has(name)) {
      if (!this.schema.$defs[name]) throw new Error(`the schema has no definition ${name}`);
      this.validators.set(name, this.ajv.getSchema(`${this.schema.$id}#/$defs/${name}`));
    }
    return this.validators.get(name);
  }

  /** Throws an Error saying what failed, with the value and ajv's errors. */
  expect(name, value, what) {
    const validate = this.validator(name);
    if (validate(value)) return;
    const errors = validate.errors.slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message} ${e.params ? short(e.params, 200) : ''}`);
    throw new Error(`${what} does not match ${name}:\n  ${errors.join('\n  ')}\n  value: ${short(value)}`);
  }

  /** One received WebSocket frame (parsed). */
  frame(frame) {
    this.counts.frames++;
    const type = frame?.type;
    const name = this.schema['x-server-types'][type];
    if (!name) throw new Error(`a frame of unknown type ${short(type)}: ${short(frame)}`);
    this.expect(name, frame, `a ${type} frame`);
    if (type === 'state') this.state(frame);
    if (type === 'history') this.history(frame);
  }

  state(frame) {
    this.counts.states++;
    if (frame.game) {
      this.games.set(frame.table, frame.game);
      this.expect('state_whole', frame, 'a whole state push');
    }
    const game = this.games.get(frame.table);
    if (!game) {
      this.counts.unknownGame++;
      return;
    }
    // The table's view {seats, options} before play, after a fault, and at a table ended before play: a push
    // that carries the constants says which (a game's constants include layout); a delta push keeps the last.
    if (frame.view_constants) this.tableView.set(frame.table, !frame.view_constants.includes('layout'));
    const waiting = frame.status === 'waiting' || frame.failure !== undefined || (frame.status === 'finished' && this.tableView.get(frame.table));
    const view = (waiting ? 'view_waiting' : `view_${game}`) + (frame.view_constants ? '_whole' : '');
    this.expect(view, frame.view, `the view of a ${game} state push (table ${frame.table}, seq ${frame.seq})`);
    this.counts.views++;
    for (const entry of frame.legal) {
      this.expect(`legal_${game}`, entry, `a legal entry of ${game}`);
      this.counts.legal++;
    }
    if (frame.result !== undefined) {
      this.expect(`result_${game}`, frame.result, `the result of a ${game} state push (table ${frame.table}, seq ${frame.seq})`);
      this.counts.results++;
    }
  }

  // A hand history (WebSocket reply or HTTP body): every step's views, legal lists and result are its game's.
  history(doc) {
    const game = doc.game;
    for (const step of doc.steps) {
      const views = [...(step.view ? [step.view] : []), ...(step.views || []), ...(step.table_view ? [step.table_view] : [])];
      for (const view of views) this.expect(`view_${game}_whole`, view, `a ${game} history step's view (seq ${step.seq})`);
      const legals = [...(step.legal ? [step.legal] : []), ...(step.legals || [])];
      for (const list of legals) for (const entry of list) this.expect(`legal_${game}`, entry, `a ${game} history step's legal entry`);
      if (step.result !== undefined) this.expect(`result_${game}`, step.result, `a ${game} history step's result (seq ${step.seq})`);
    }
  }

  /** One HTTP answer of the API: its path (without the query), status and body (parsed JSON, or text). */
  http(pathname, status, body) {
    this.counts.http++;
    if (pathname === '/api/schema' || pathname === '/api/openapi.json') {
      if (status !== 200 || typeof body !== 'object') throw new Error(`${pathname} answered ${status}: ${short(body)}`);
      return;
    }
    if (!pathname.startsWith('/api/')) return;
    if (status !== 200) return this.expect('http_error', body, `the ${status} body of ${pathname}`);
    if (typeof body !== 'object') return;  // CSV
    if (pathname === '/api/settle') return this.expect('http_settle', body, `the body of ${pathname}`);
    if (/^\/api\/players\/[^/]+\/ledger$/.test(pathname)) return this.expect('http_ledger', body, `the body of ${pathname}`);
    if (/^\/api\/tables\/[^/]+\/history$/.test(pathname)) {
      this.expect('http_history', body, `the body of ${pathname}`);
      return this.history(body);
    }
    throw new Error(`an answer of ${pathname}, an API route the schema does not know: ${short(body)}`);
  }

  /** A line of a frame log: a frame, or {"http","status","body"}. */
  line(record) {
    if (record && typeof record === 'object' && 'http' in record && !('type' in record)) return this.http(record.http, record.status, record.body);
    return this.frame(record);
  }
}
