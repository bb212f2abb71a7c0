// Drafts protocol/schema/games.json (each game's view_<game>, legal_<game>, result_<game>)
// from a recorded corpus (record_corpus.mjs): a tool for writing the schemas, not a test.
// The draft is strict by construction (every key seen in every sample is required, no
// other key is allowed); it was then read against rules/ and docs/protocol.md, and the
// committed games.json is the reviewed result.
//
//   node tests/schema/infer_games.mjs CORPUS… > protocol/schema/games.json
import fs from 'node:fs';

const CARD = /^([A2-9TJQK][SHDC]|JK|\?\?)$/;
// Objects keyed by names the game or the table chooses (not fixed fields).
const MAPS = new Set(['pools', 'options', 'rules', 'by_pool', 'pool_shares']);

function infer(samples, key) {
  const kinds = new Map();
  for (const sample of samples) {
    const kind = sample === null ? 'null' : Array.isArray(sample) ? 'array' : typeof sample;
    if (!kinds.has(kind)) kinds.set(kind, []);
    kinds.get(kind).push(sample);
  }
  const branches = [];
  for (const [kind, values] of kinds) {
    if (kind === 'null') branches.push({ type: 'null' });
    else if (kind === 'boolean') branches.push({ type: 'boolean' });
    else if (kind === 'number') branches.push({ type: values.every(Number.isInteger) ? 'integer' : 'number' });
    else if (kind === 'string') branches.push(values.every((v) => CARD.test(v)) ? { $ref: '#/$defs/card' } : { type: 'string' });
    else if (kind === 'array') branches.push({ type: 'array', items: values.flat().length ? infer(values.flat(), key) : {} });
    else if (kind === 'object') branches.push(inferObject(values, key));
  }
  if (branches.length === 1) return branches[0];
  if (branches.every((b) => b.type && Object.keys(b).length === 1)) return { type: branches.map((b) => b.type) };
  return { anyOf: branches };
}

// Keys required wherever an object of that place is seen: the ones documented as always
// there (docs/protocol.md "View schema", "State", "Results, game by game") that every sample
// had; any other key is allowed but optional (a game's own fields are "present once they
// have a value", a result's per-ending fields vary).
const ALWAYS = {
  view: ['layout', 'phase', 'deal', 'dealer', 'seats', 'piles', 'melds', 'trick', 'pools', 'scores', 'turn', 'rules', 'viewer'],
  view_seat: ['seat', 'count', 'cards', 'status', 'left'],
  result: ['deal', 'dealer', 'end', 'seats'],
  result_seat: ['seat', 'chips'],
};
let place = null;  // set while inferring a view's or a result's top level and its seats

function inferObject(values, key) {
  if (MAPS.has(key)) return { type: 'object', additionalProperties: infer(values.flatMap(Object.values), undefined) };
  const keys = new Map();
  for (const value of values) for (const [k, v] of Object.entries(value)) {
    if (!keys.has(k)) keys.set(k, []);
    keys.get(k).push(v);
  }
  let required = [...keys].filter(([, vs]) => vs.length === values.length).map(([k]) => k).sort();
  const here = place;
  if (here && ALWAYS[here]) required = required.filter((k) => ALWAYS[here].includes(k));
  const properties = {};
  for (const k of [...keys.keys()].sort()) {
    place = here && k === 'seats' && (here === 'view' || here === 'result') ? `${here}_seat` : null;
    properties[k] = infer(keys.get(k), k);
  }
  place = here;
  return { type: 'object', ...(required.length ? { required } : {}), properties, additionalProperties: false };
}

const views = new Map();
const legals = new Map();
const results = new Map();
const games = new Map();
const constants = new Map();
const constantNames = new Map();  // game → the view's constant keys
const push = (map, game, value) => { if (!map.has(game)) map.set(game, []); map.get(game).push(value); };

for (const file of process.argv.slice(2)) {
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const record = JSON.parse(line);
    const doc = record.type === 'history' ? record : record.http && record.status === 200 && record.body?.steps ? record.body : null;
    if (doc) {
      for (const step of doc.steps) {
        for (const view of [step.view, ...(step.views || []), step.table_view]) if (view) push(views, doc.game, view);
        for (const list of [step.legal, ...(step.legals || [])]) for (const entry of list || []) push(legals, doc.game, entry);
        if (step.result) push(results, doc.game, step.result);
      }
      continue;
    }
    const frame = record;
    if (frame.type !== 'state') continue;
    if (frame.game) games.set(frame.table, frame.game);
    if (frame.view_constants) constants.set(frame.table, Object.fromEntries(frame.view_constants.map((k) => [k, frame.view[k]])));
    const game = games.get(frame.table);
    if (!game) continue;
    // The keys every table of the game keeps constant (options may add others: Persian's target or deals_to_play).
    if (frame.view_constants && frame.status !== 'waiting' && frame.failure === undefined) {
      const known = constantNames.get(game);
      constantNames.set(game, known ? known.filter((key) => frame.view_constants.includes(key)) : frame.view_constants);
    }
    if (frame.status !== 'waiting' && frame.failure === undefined) push(views, game, frame.view);
    for (const entry of frame.legal) push(legals, game, entry);
    if (frame.result) push(results, game, frame.result);
  }
}

// The Rummy family shares its view, action and result code (rules/rummy/): its fields are the
// family's, each game having those that apply; so its views, legal entries and results are drafted
// from the whole family's samples, to be strict about keys without guessing which of
// the family's optional fields one game's corpus happened to show.
const layouts = new Map();
for (const [game, list] of views) if (list.length) layouts.set(game, list.find((v) => v.layout)?.layout);
const family = (game) => (layouts.get(game) === 'rummy' ? [...layouts].filter(([, l]) => l === 'rummy').map(([g]) => g) : [game]);
const samples = (map, game) => family(game).flatMap((g) => map.get(g) || []);
const withPlace = (name, fn) => { place = name; try { return fn(); } finally { place = null; } };

const $defs = {};
for (const game of [...new Set(games.values())].sort()) {
  $defs[`view_${game}`] = withPlace('view', () => infer(samples(views, game), 'view'));
  const byType = new Map();
  for (const entry of samples(legals, game)) push(byType, entry.type, entry);
  $defs[`legal_${game}`] = { anyOf: [...byType].sort().map(([type, entries]) => {
    const schema = inferObject(entries, 'legal');
    schema.properties.type = { const: type };
    return schema;
  }) };
  $defs[`result_${game}`] = withPlace('result', () => infer(samples(results, game), 'result'));
  console.error(`${game}: ${(views.get(game) || []).length} views, ${(legals.get(game) || []).length} legal entries, ${(results.get(game) || []).length} results`);
}
const ids = [...new Set(games.values())].sort();
console.log(JSON.stringify({ games: ids, layouts: Object.fromEntries(ids.map((id) => [id, layouts.get(id)])), view_constants: Object.fromEntries(ids.map((id) => [id, constantNames.get(id) || []])), $defs }, null, 1));
