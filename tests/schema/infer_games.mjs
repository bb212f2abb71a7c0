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

function inferObject(values, key) {
  if (MAPS.has(key)) return { type: 'object', additionalProperties: infer(values.flatMap(Object.values), undefined) };
  const keys = new Map();
  for (const value of values) for (const [k, v] of Object.entries(value)) {
    if (!keys.has(k)) keys.set(k, []);
    keys.get(k).push(v);
  }
  const required = [...keys].filter(([, vs]) => vs.length === values.length).map(([k]) => k).sort();
  const properties = {};
  for (const k of [...keys.keys()].sort()) properties[k] = infer(keys.get(k), k);
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
    const frame = JSON.parse(line);
    if (frame.type !== 'state') continue;
    if (frame.game) games.set(frame.table, frame.game);
    if (frame.view_constants) constants.set(frame.table, Object.fromEntries(frame.view_constants.map((k) => [k, frame.view[k]])));
    const game = games.get(frame.table);
    if (!game) continue;
    if (frame.view_constants && frame.status !== 'waiting' && frame.failure === undefined) constantNames.set(game, frame.view_constants);
    if (frame.status !== 'waiting' && frame.failure === undefined) push(views, game, frame.view);
    for (const entry of frame.legal) push(legals, game, entry);
    if (frame.result) push(results, game, frame.result);
  }
}

const $defs = {};
for (const game of [...new Set(games.values())].sort()) {
  $defs[`view_${game}`] = infer(views.get(game) || [], 'view');
  const byType = new Map();
  for (const entry of legals.get(game) || []) push(byType, entry.type, entry);
  $defs[`legal_${game}`] = { anyOf: [...byType].sort().map(([type, entries]) => {
    const schema = inferObject(entries, 'legal');
    schema.properties.type = { const: type };
    return schema;
  }) };
  $defs[`result_${game}`] = infer(results.get(game) || [], 'result');
  console.error(`${game}: ${(views.get(game) || []).length} views, ${(legals.get(game) || []).length} legal entries, ${(results.get(game) || []).length} results`);
}
const ids = [...new Set(games.values())].sort();
console.log(JSON.stringify({ games: ids, view_constants: Object.fromEntries(ids.map((id) => [id, constantNames.get(id) || []])), $defs }, null, 1));
