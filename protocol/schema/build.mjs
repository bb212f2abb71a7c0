// Writes protocol/schema/parlour.schema.json (JSON Schema 2020-12 for the whole wire)
// and protocol/schema/openapi.json (OpenAPI 3.1 for the HTTP API, whose bodies $ref the
// first document's $defs) from the definitions below and games.json (each game's view,
// legal entries and result).
//
//   node protocol/schema/build.mjs           writes both files
//   node protocol/schema/build.mjs --check   exits 1 when a committed file is not what it writes
//
// Plain Node, no packages: CI runs --check (tests/schema/validate_frames.mjs --check-built).
// The truth is the server: protocol/messages.cpp for what clients send, server/ and
// rules/ for what they receive; docs/protocol.md and PROTOCOL.md say it in words.
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
export const SCHEMA_ID = 'https://parlour.invalid/schema/parlour.schema.json';

// ----- Building blocks

const ref = (name) => ({ $ref: `#/$defs/${name}` });
const int = (minimum, maximum) => ({ type: 'integer', ...(minimum !== undefined ? { minimum } : {}), ...(maximum !== undefined ? { maximum } : {}) });
const str = (extra = {}) => ({ type: 'string', ...extra });
const bool = { type: 'boolean' };
const nullable = (schema) => ({ anyOf: [schema, { type: 'null' }] });
const array = (items, extra = {}) => ({ type: 'array', items, ...extra });
const constant = (value) => ({ const: value });
const anything = {};

// A closed object: `required` keys must be there, `optional` ones may.
function object(required, optional = {}, extra = {}) {
  return {
    type: 'object',
    ...(Object.keys(required).length ? { required: Object.keys(required) } : {}),
    properties: { ...required, ...optional },
    additionalProperties: false,
    ...extra,
  };
}

// A client request: `type`, the optional `id`, and its fields (messages.cpp message_specs()).
// The parser takes null as "not given" for every optional field, so null is allowed there.
function request(type, required, optional = {}, extra = {}) {
  const optionalOrNull = Object.fromEntries(Object.entries(optional).map(([key, schema]) => [key, nullable(schema)]));
  return object({ type: constant(type), ...required }, { id: nullable(int(0)), ...optionalOrNull }, extra);
}

// A server reply or push: `type`, `re` when it answers a request with an id.
function reply(type, required, optional = {}, extra = {}) {
  return object({ type: constant(type), ...required }, { re: int(0), ...optional }, extra);
}

// ----- Shared values

const common = {
  card: { description: 'Rank then suit (PROTOCOL.md "Cards"); "JK" a joker, "??" a card the viewer may not see',
    type: 'string', pattern: '^([A2-9TJQK][SHDC]|JK|\\?\\?)$' },
  card_special_pack: { description: 'A card of Royal Cassino\'s packs: the 60-card special pack adds E (eleven) and W (twelve)',
    type: 'string', pattern: '^([A2-9TJQKEW][SHDC]|JK|\\?\\?)$' },
  seat: { description: 'A seat index (a table has at most 64 seats)', type: 'integer', minimum: 0, maximum: 63 },
  player_name: { description: 'A player: 1–24 of A–Z a–z 0–9 _ -; bots are bot-…', type: 'string', pattern: '^[A-Za-z0-9_-]{1,24}$' },
  table_id: { type: 'string', minLength: 1, maxLength: 64 },
  invite: { type: 'string', minLength: 1, maxLength: 64 },
  chips: { description: 'A chip balance or amount', type: 'integer' },
  unix_ms: { type: 'integer', minimum: 0 },
  iso_time: { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z$' },
  game_id: { description: 'GAMES.md', enum: [] },  // filled from games.json
  status: { enum: ['waiting', 'playing', 'finished'] },
  clock: object({ seconds: int(0, 3600), bank: int(0, 36000), away_after: int(1, 20) }),
  clock_request: object({}, { seconds: nullable(int(0, 3600)), bank: nullable(int(0, 36000)), away_after: nullable(int(1, 20)) }),
  action: { description: 'An action: an object with a string type; its fields are the game\'s (legal_<game>)',
    type: 'object', required: ['type'], properties: { type: str() } },
  error_code: { enum: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'name_taken', 'table_full', 'not_your_turn',
    'illegal_action', 'insufficient_chips', 'rate_limited', 'conflict', 'internal', 'invite_required', 'registration_closed'] },
  feature: { description: 'A protocol feature (docs/protocol.md "Features"): asked for at sign-in, unknown ones ignored; welcome lists those granted',
    type: 'string', minLength: 1, maxLength: 32 },
};

// ----- Client → server (protocol/messages.cpp message_specs(); unknown fields are refused)

const features = { features: array(ref('feature'), { maxItems: 16 }) };
const clientMessages = {
  c_hello: request('hello', { name: ref('player_name') }, { token: str({ maxLength: 256 }), invite: ref('invite'), signup: ref('invite'), ...features }),
  c_games: request('games', {}),
  c_tables: request('tables', {}, { mine: bool }),
  c_create: request('create', { game: str() }, {
    options: { type: 'object' }, seats: int(1, 64), seed: int(0, 18446744073709551615), deck: array(ref('card'), { maxItems: 416 }),
    private: bool, clock: ref('clock_request') }),
  c_join: request('join', {}, { table: ref('table_id'), invite: ref('invite'), seat: ref('seat') },
    { description: 'Exactly one of table or invite' }),
  c_watch: request('watch', {}, { table: ref('table_id'), invite: ref('invite') }, { description: 'Exactly one of table or invite' }),
  c_leave: request('leave', { table: ref('table_id') }),
  c_bot: request('bot', { table: ref('table_id') }, { seat: ref('seat'), level: int(0, 10) }),
  c_start: request('start', { table: ref('table_id') }),
  c_end: request('end', { table: ref('table_id') }),
  c_act: request('act', { table: ref('table_id'), action: ref('action') }, { action_id: str({ minLength: 1, maxLength: 64, pattern: '^[ -~]+$' }) }),
  c_ledger: request('ledger', {}, { player: ref('player_name'), limit: int(1, 500), before: int(1) }),
  c_ping: request('ping', {}),
  c_back: request('back', { table: ref('table_id') }),
  c_unseat: request('unseat', { table: ref('table_id'), seat: ref('seat') }, { replace: { enum: ['open', 'bot'] } }),
  c_chat: request('chat', { table: ref('table_id') }, {
    text: str({ description: '1–200 characters once trimmed, no control characters' }),
    reaction: { enum: ['gg', 'nice', 'oops', 'thanks', 'hurry', 'wow', 'sorry', 'thumbs_up'] } },
  { description: 'Exactly one of text or reaction' }),
  c_mute: request('mute', { table: ref('table_id'), player: ref('player_name'), muted: bool }),
  c_rematch: request('rematch', { table: ref('table_id') }, { same_seed: bool }),
  c_history: request('history', { table: ref('table_id') }, { deal: int(1, 1000000), from: int(1) }),
  c_settle: request('settle', {}, { tables: array(ref('table_id'), { minItems: 1, maxItems: 50 }) }),
  c_signup_link: request('signup_link', {}, { uses: int(1, 20), hours: int(1, 168) }),
  c_recover: request('recover', { name: ref('player_name'), code: str({ minLength: 1, maxLength: 64 }) }, { ...features }),
  c_device_link: request('device_link', {}),
  c_device_sign_in: request('device_sign_in', { code: str({ minLength: 1, maxLength: 64 }) }, { label: str({ minLength: 1, maxLength: 40 }), ...features }),
  c_devices: request('devices', {}),
  c_revoke_device: request('revoke_device', { device: str({ minLength: 1, maxLength: 64 }) }),
  c_set_passphrase: request('set_passphrase', { passphrase: str({ minLength: 8, maxLength: 128 }) }),
  c_passphrase_sign_in: request('passphrase_sign_in', { name: ref('player_name'), passphrase: str({ minLength: 8, maxLength: 128 }) },
    { label: str({ minLength: 1, maxLength: 40 }), ...features }),
};

// ----- Server → client

const gameOption = object({
  name: str(), type: { enum: ['int', 'bool', 'enum'] }, default: anything, description: str() },
{ choices: array(anything), min: int(), max: int() });

const gameEntry = object({
  id: ref('game_id'), name: str(), aliases: array(str()), min_players: int(1), max_players: int(1), summary: str(),
  source: str(), options: array(gameOption), layout: { enum: ['betting', 'tricks', 'rummy', 'building', 'cassino'] },
  seats_change_between_deals: bool,
});

const tableLine = object({
  table: ref('table_id'), game: ref('game_id'), options: { type: 'object' }, clock: ref('clock'), host: ref('player_name'),
  status: ref('status'),
  seats: array(object({ seat: ref('seat'), player: nullable(ref('player_name')), bot: bool, connected: bool, away: bool })),
  spectators: int(0), late_join: bool, waiting: int(0),
}, { private: bool });  // `private` in a `tables {"mine":true}` reply only

const ledgerEntry = object({
  entry: int(1), time: ref('iso_time'), amount: ref('chips'), balance: ref('chips'), table: nullable(ref('table_id')),
  game: nullable(str()), memo: str(), seq: nullable(int(0)), deal: nullable(int(0)),
});
const ledgerBody = object({ player: ref('player_name'), balance: ref('chips'), entries: array(ref('ledger_entry')) });

const settleBody = object({
  tables: array(object({
    table: ref('table_id'), game: ref('game_id'), host: ref('player_name'), status: ref('status'), created_at: ref('iso_time'),
    nets: array(object({ player: ref('player_name'), net: ref('chips'), bot: bool })),
    pools: array(object({ pool: str(), left: ref('chips') })),
  })),
  nets: array(object({ player: ref('player_name'), net: ref('chips') })),
  payments: array(object({ from: ref('player_name'), to: ref('player_name'), amount: int(1) })),
  from_bots_and_pools: array(object({ player: ref('player_name'), amount: ref('chips') })),
  to_bots_and_pools: array(object({ player: ref('player_name'), amount: ref('chips') })),
  bots: array(object({ player: ref('player_name'), net: ref('chips') })),
  bots_net: ref('chips'),
  pools: array(object({ table: ref('table_id'), pool: str(), left: ref('chips') })),
  pools_left: ref('chips'),
  method: { enum: ['exact', 'greedy'] },
}, { since: ref('iso_time') });

const fair = object({ deal: int(1), commitment: str({ pattern: '^[0-9a-f]{64}$' }) },
  { scheme: constant('parlour-fair-1'), seed: str({ pattern: '^[0-9]+$' }), salt: str({ pattern: '^([0-9a-f]{32})?$' }) });

const timer = object({ seat: ref('seat'), seconds: int(0), ends_at: ref('unix_ms') }, { bank: int(0) });

const player = object({ seat: ref('seat'), player: ref('player_name'), chips: ref('chips'), connected: bool, away: bool, bot: bool },
  { leaving: { enum: ['open', 'bot'] } });

const chatLine = object({ player: ref('player_name'), time: ref('unix_ms'), log_at: int(0) },
  { text: str(), reaction: str() }, { oneOf: [{ required: ['text'] }, { required: ['reaction'] }] });

const standingsPlayer = object({ seat: ref('seat'), player: ref('player_name'), bot: bool, chips: ref('chips'), deals_won: int(0) },
  { score: { type: 'number' } });
const standings = object({ deals: int(0), players: array(standingsPlayer) }, {
  rematch_of: ref('table_id'),
  compare: object({ table: ref('table_id'), deals: int(0), players: array(standingsPlayer) }),
});

// Every part a state push may carry (docs/protocol.md "State"). The delta push requires
// what is always present; state_whole (PROTOCOL.md v1, and every connection's first push)
// requires the rest too.
const stateParts = {
  type: constant('state'), table: ref('table_id'), seq: int(0), status: ref('status'), seat: nullable(ref('seat')),
  to_act: array(ref('seat')), view: { type: 'object' }, legal: array(ref('action')), log_from: int(0), log: array(str()),
};
const stateOptional = {
  re: int(0),
  game: ref('game_id'), host: ref('player_name'), clock: ref('clock'),
  players: array(ref('player')),
  chips: array(ref('chips'), { description: 'Only chips changed: one balance per entry of the last players list, in its order' }),
  invite: ref('invite'), waiting: int(1),
  fair: ref('fair'),
  result: { type: 'object', description: 'The last settled deal\'s: result_<game> of the table\'s game (state_whole applies it)' },
  view_constants: array(str()),
  timer: ref('timer'), timers: array(ref('timer')), failure: str(),
  chat_from: int(0), chat: array(ref('chat_line')), muted: array(ref('player_name')),
  rematch: object({ table: ref('table_id'), same_seed: bool }),
  rematch_of: object({ table: ref('table_id'), same_seed: bool }),
  standings: ref('standings'),
};
const stateDelta = object(stateParts, stateOptional, {
  description: 'A state push to a connection that asked for "deltas": parts that did not change since its last push are left out ' +
    '(docs/protocol.md "State"). view and legal are checked per game by view_<game> and legal_<game>.',
});
// chips (the short form) never comes in a whole push.
const { chips: _shortChips, ...wholeOptional } = stateOptional;
const stateWhole = object({ ...stateParts, game: ref('game_id'), host: ref('player_name'), clock: ref('clock'),
  players: array(ref('player')), view_constants: array(str()), chat_from: int(0), chat: array(ref('chat_line')) }, wholeOptional, {
  description: 'A whole state push: every push to a connection that did not ask for "deltas" (PROTOCOL.md version 1), and the first ' +
    'push of a table to any connection. view carries its constants; the game\'s view, legal and result schemas apply (allOf).',
});

const historyStep = object({
  seq: int(0), deal: int(0), event: object({ kind: str() }, {}, { additionalProperties: true }), log: array(str()), phase: str(),
  to_act: array(ref('seat')), chips: array(ref('chips')) }, {
  view: { type: 'object' }, views: array({ type: 'object' }), legal: array(ref('action')), legals: array(array(ref('action'))),
  table_view: { type: 'object' }, result: ref('result'),
});
const historyBody = object({
  table: ref('table_id'), game: ref('game_id'), options: { type: 'object' }, status: ref('status'), host: ref('player_name'),
  seats: array(object({ seat: ref('seat'), player: nullable(ref('player_name')), bot: bool })),
  viewer: object({ player: ref('player_name'), seat: nullable(ref('seat')), full: bool }),
  deals: array(object({ deal: int(1), from_seq: int(0), to_seq: nullable(int(0)), finished: bool, commitment: str() }, { shuffle: int(0) })),
  deal: nullable(int(1)), steps: array(ref('history_step')), next_from: nullable(int(1)),
}, { fair: object({}, {}, { additionalProperties: true, properties: { deal: int(0), commitment: str() } }), failure: str() });

const errorBody = object({ type: constant('error'), code: ref('error_code'), message: str() }, { re: int(0), retry_after_ms: int(0) });

const serverMessages = {
  s_welcome: reply('welcome', { player: ref('player_name'), token: str(), protocol: constant(1), chips: ref('chips'),
    features: array(ref('feature')) }, { recovery_code: str(), node: str() }),
  s_ok: reply('ok', {}, {
    seq: int(0), table: ref('table_id'), seat: ref('seat'), player: ref('player_name'), muted: bool, action_id: str(),
    duplicate: bool, continued: bool,
  }, { description: 'The answer of start, end, act, bot, unseat, chat, mute, revoke_device, set_passphrase, continue' }),
  s_pong: reply('pong', {}),
  s_games: reply('games', { games: array(ref('game_entry')) }),
  s_tables: reply('tables', { tables: array(ref('table_line')) }),
  s_created: reply('created', { table: ref('table_id'), invite: ref('invite') }, { rematch_of: ref('table_id'), same_seed: bool, duplicate: bool }),
  s_joined: reply('joined', { table: ref('table_id'), seat: ref('seat') }),
  s_watching: reply('watching', { table: ref('table_id') }, { message: str(), waiting: int(1) }),
  s_left: reply('left', { table: ref('table_id') }),
  s_back: reply('back', { table: ref('table_id') }),
  s_ledger: { ...reply('ledger', { player: ref('player_name'), balance: ref('chips'), entries: array(ref('ledger_entry')) }) },
  s_history: reply('history', historyBody.properties, {}, { required: ['type', ...historyBody.required] }),
  s_settled: reply('settled', settleBody.properties, {}, { required: ['type', ...settleBody.required] }),
  s_signup_link: reply('signup_link', { code: str(), uses: int(1), expires_at: ref('iso_time') }),
  s_device_link: reply('device_link', { code: str(), expires_at: ref('iso_time') }),
  s_devices: reply('devices', { devices: array(object({ id: str(), label: str(), created_at: nullable(ref('iso_time')), last_seen: nullable(ref('iso_time')) })) }),
  s_error: errorBody,
  state: stateDelta,
  state_whole: stateWhole,
};

const serverTypes = {
  welcome: 's_welcome', ok: 's_ok', pong: 's_pong', games: 's_games', tables: 's_tables', created: 's_created', joined: 's_joined',
  watching: 's_watching', left: 's_left', back: 's_back', ledger: 's_ledger', history: 's_history', settled: 's_settled',
  signup_link: 's_signup_link', device_link: 's_device_link', devices: 's_devices', error: 's_error', state: 'state',
};

// ----- Games (games.json: view_<game>, legal_<game>, result_<game>)

// Chip movements and shortfalls, as the games on a chip book write them (rules/chip_book.cpp).
const chipDefs = {
  account: { description: 'A seat or a pool of the table', oneOf: [object({ seat: ref('seat') }), object({ pool: str() })] },
  movement: object({ from: ref('account'), to: ref('account'), amount: int(0), memo: str() }),
  unpaid_entry: object({ seat: ref('seat'), to: ref('account'), amount: int(1), memo: str() }, {}, {
    description: 'What a seat owed and could not pay (GAMES.md "Chips policy"): the debtor seat, its creditor (a seat or a pool), ' +
      'the amount left unpaid and what it was for',
  }),
};

// What the corpus cannot show, written from rules/ and docs/protocol.md: lists that were
// empty in every sample, the chip book's shapes, and cards of the special pack.
function reviewGames(defs, ids, games_layouts) {
  const seats = array(ref('seat'));
  const unpaid = array(ref('unpaid_entry'));
  const simple = (type) => object({ type: constant(type) });
  for (const id of ids) {
    // Listed by the table, not the game: continue after a deal (docs/protocol.md "Acting"); skip in the two
    // betting games when the seat's chips cannot cover a bet (rules/action.h).
    const legal = defs[`legal_${id}`].anyOf;
    const listed = (type) => legal.some((entry) => entry.properties.type.const === type);
    if (!listed('continue')) legal.push(simple('continue'));
    if ((id === 'red_dog' || id === 'red_and_black') && !listed('skip')) legal.push(simple('skip'));
    const view = defs[`view_${id}`].properties;
    // The layout is the game's (its games entry's layout).
    const layouts = JSON.stringify(defs[`view_${id}`]).match(/"layout"/) ? games_layouts[id] : undefined;
    if (layouts) view.layout = constant(layouts);
    if (view.withdrawn) view.withdrawn = seats;          // Carousel's withdrawn seats
    if (view.could_not_deal) view.could_not_deal = seats;  // Rams, Rounce
    const result = defs[`result_${id}`].properties;
    result.unpaid = unpaid;  // every game may name a shortfall
    if (result.movements) result.movements = array(ref('movement'));
    if (result.settlement && id === 'royal_cassino') result.settlement = array(ref('movement'));
    if (result.lurched) result.lurched = array(int(0), { description: 'The sides lurched (below the lurch line when the game ended)' });
  }
  // Values the corpus only ever saw null (nobody won, nobody took every trick, no infraction).
  const nullableSeat = nullable(ref('seat'));
  const set = (name, key, schema) => { if (defs[name]?.properties?.[key]) defs[name].properties[key] = schema; };
  for (const name of ['result_ranter_go_round', 'view_ranter_go_round', 'result_russian_bank']) set(name, 'winner', nullableSeat);
  set('result_reversi', 'reversis', nullableSeat);
  for (const name of ['result_rounce', 'view_rounce', 'result_rams', 'view_rams']) set(name, 'general', nullableSeat);
  set('result_russian_bank', 'draw_reason', nullable(str()));
  set('view_russian_bank', 'infraction', nullable(str()));
  // Rabouge names no starter rank before one is turned (a table ended first): the browser suite met it.
  for (const name of ['result_rabouge', 'view_rabouge']) set(name, 'starter_rank', nullable(str()));
  // A pile's owner is a seat or null (docs/protocol.md "View schema"), whatever piles a corpus showed.
  for (const id of ids) {
    const pile = defs[`view_${id}`].properties.piles?.items?.properties;
    if (pile?.owner) pile.owner = nullableSeat;
  }
  // Carousel's melds belong to the table: a connection that asked for `table_melds` reads no owner (null)
  // in its results (docs/protocol.md "Features"); every other connection reads the seat version 1 has.
  const carouselMeld = defs.result_carousel?.properties?.melds?.items?.properties;
  if (carouselMeld?.owner) carouselMeld.owner = { ...nullable(carouselMeld.owner), description: 'null for a connection that asked for the table_melds feature' };
  // Russian Bank's result of a deal won has no dealer (docs/protocol.md says every result has one: reported, not changed).
  const bank = defs.result_russian_bank;
  bank.required = bank.required.filter((key) => key !== 'dealer');
  // Royal Cassino's special pack adds the eleven- and twelve-spots, E and W.
  const special = JSON.stringify(defs.view_royal_cassino).includes('"#/$defs/card"');
  for (const name of ['view_royal_cassino', 'legal_royal_cassino', 'result_royal_cassino']) {
    if (special) defs[name] = JSON.parse(JSON.stringify(defs[name]).replaceAll('"#/$defs/card"', '"#/$defs/card_special_pack"'));
  }
}

function gameDefs() {
  const games = JSON.parse(fs.readFileSync(path.join(here, 'games.json'), 'utf8'));
  const defs = { ...games.$defs, ...chipDefs };
  const ids = games.games;
  reviewGames(defs, ids, games.layouts);
  // The view's constants (docs/protocol.md "State", view_constants) are left out of a
  // delta push's view: view_<game> has them optional, view_<game>_whole requires them.
  const withConstants = (name, constants) => ({
    description: `${name} with its constants (${constants.join(', ')}): a push that carries view_constants, a history step`,
    allOf: [ref(name), { required: constants }],
  });
  for (const id of ids) {
    // Which keys are constants may hang on the options (Persian Rummy's target or deals_to_play): a
    // Rummy game's whole view requires those of the whole family, layout and rules.
    const constants = games.layouts[id] === 'rummy' ? ['layout', 'rules'] : games.view_constants[id];
    const view = defs[`view_${id}`];
    view.required = view.required.filter((key) => !constants.includes(key));
    view.description = `The view of ${id} (docs/protocol.md "Views, game by game"); in a delta push without view_constants its ` +
      `constants (${constants.join(', ')}) are left out`;
    defs[`view_${id}_whole`] = withConstants(`view_${id}`, constants);
  }
  defs.view_waiting = object({}, { seats: int(1, 64), options: { type: 'object' } },
    { description: 'The view before play starts, and after a fault stopped the table; its constants are seats and options' });
  defs.view_waiting_whole = withConstants('view_waiting', ['options', 'seats']);
  defs.legal = { description: 'A legal entry of any game', anyOf: ids.map((id) => ref(`legal_${id}`)) };
  defs.result = { description: 'A result of any game (result_<game> says which fields each has)', anyOf: ids.map((id) => ref(`result_${id}`)) };
  // A whole push names its game: its view (whole), legal entries and result are that game's.
  const perGame = ids.map((id) => ({
    if: { properties: { game: constant(id) }, required: ['game'] },
    then: { properties: { legal: array(ref(`legal_${id}`)), result: ref(`result_${id}`) },
      // A game's view names its layout; a table's before play (or ended before play, or stopped by a fault) has none.
      if: { properties: { view: { required: ['layout'] } } },
      then: { properties: { view: ref(`view_${id}_whole`) } },
      else: { properties: { view: ref('view_waiting_whole') } } },
  }));
  return { defs, ids, perGame };
}

// ----- HTTP API

const http = {
  http_error: { ...errorBody, description: 'An /api error body: the error message without re' },
  http_ledger: ledgerBody,
  http_settle: settleBody,
  http_history: historyBody,
};

export function buildSchema() {
  const { defs: games, ids, perGame } = gameDefs();
  const defs = { ...common, ...clientMessages, ...serverMessages, ...http, ...games };
  defs.game_id = { ...common.game_id, enum: ids };
  defs.game_entry = gameEntry;
  defs.table_line = tableLine;
  defs.ledger_entry = ledgerEntry;
  defs.fair = fair;
  defs.timer = timer;
  defs.player = player;
  defs.chat_line = chatLine;
  defs.standings = standings;
  defs.history_step = historyStep;
  defs.state_whole = { ...stateWhole, allOf: perGame };
  defs.client_message = { description: 'Any client request, by its type', oneOf: Object.keys(clientMessages).map(ref) };
  defs.server_message = {
    description: 'Any frame a server sends, by its type (a state push: state; a whole one also state_whole)',
    anyOf: Object.values(serverTypes).map(ref),
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: SCHEMA_ID,
    title: 'Parlour wire protocol',
    description: 'Every WebSocket frame both ways, every game\'s view, legal entries and result, and the HTTP API bodies. ' +
      'Generated by protocol/schema/build.mjs; PROTOCOL.md and docs/protocol.md say it in words. x-server-types maps a ' +
      'server frame\'s type to its definition.',
    'x-server-types': serverTypes,
    'x-client-types': Object.fromEntries(Object.keys(clientMessages).map((name) => [name.slice(2), name])),
    anyOf: [ref('client_message'), ref('server_message')],
    $defs: Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b))),
  };
}

export function buildOpenApi() {
  // Resolved against the server's origin: GET /api/schema is parlour.schema.json.
  const schemaRef = (name) => ({ $ref: `/api/schema#/$defs/${name}` });
  const json = (name) => ({ 'application/json': { schema: schemaRef(name) } });
  const errors = (...statuses) => Object.fromEntries(statuses.map((status) => [String(status), {
    description: { 400: 'A parameter is wrong', 401: 'No valid bearer token', 403: 'Not yours to read', 404: 'No such table, player or endpoint',
      503: 'Too many reads waiting (rate_limited)' }[status], content: json('http_error') }]));
  const bearer = [{ bearer: [] }];
  const csv = { 'text/csv; charset=utf-8': { schema: { type: 'string' } } };
  const format = { name: 'format', in: 'query', schema: { enum: ['json', 'csv'], default: 'json' } };
  return {
    openapi: '3.1.0',
    info: { title: 'Parlour HTTP API', version: '1', description: 'The HTTP side of Parlour (docs/protocol.md). Bodies are the $defs of parlour.schema.json, served at /api/schema.' },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A player\'s token from welcome' } } },
    paths: {
      '/api/players/{name}/ledger': { get: {
        summary: 'A player\'s ledger, newest first', security: bearer,
        parameters: [{ name: 'name', in: 'path', required: true, schema: schemaRef('player_name') },
          { name: 'limit', in: 'query', schema: int(1, 500) }, { name: 'before', in: 'query', schema: int(1) }, format],
        responses: { 200: { description: 'The ledger page', content: { ...json('http_ledger'), ...csv } }, ...errors(400, 401, 404, 503) },
      } },
      '/api/settle': { get: {
        summary: 'Settle-up over tables (tonight\'s without tables)', security: bearer,
        parameters: [{ name: 'tables', in: 'query', description: 'Table ids separated by commas', schema: str() }, format],
        responses: { 200: { description: 'Nets and payments', content: { ...json('http_settle'), ...csv } }, ...errors(400, 401, 404, 503) },
      } },
      '/api/tables/{table}/history': { get: {
        summary: 'A hand history, a deal at a time', security: bearer,
        parameters: [{ name: 'table', in: 'path', required: true, schema: schemaRef('table_id') },
          { name: 'deal', in: 'query', schema: int(1, 1000000) }, { name: 'from', in: 'query', schema: int(1) }],
        responses: { 200: { description: 'The history document', content: json('http_history') }, ...errors(400, 401, 403, 404, 503) },
      } },
      '/api/schema': { get: {
        summary: 'This wire\'s JSON Schema (draft 2020-12)', security: [],
        responses: { 200: { description: 'parlour.schema.json', content: { 'application/schema+json': { schema: { type: 'object' } } } } },
      } },
      '/api/openapi.json': { get: {
        summary: 'This document', security: [],
        responses: { 200: { description: 'openapi.json', content: { 'application/json': { schema: { type: 'object' } } } } },
      } },
      '/healthz': { get: { summary: 'Liveness', security: [], responses: { 200: { description: 'ok', content: { 'text/plain; charset=utf-8': { schema: constant('ok') } } } } } },
      '/readyz': { get: { summary: 'Readiness', security: [], responses: {
        200: { description: 'ready', content: { 'text/plain; charset=utf-8': { schema: str() } } },
        503: { description: 'The reason it is not ready', content: { 'text/plain; charset=utf-8': { schema: str() } } } } } },
    },
  };
}

// ASCII only (other characters as \u escapes): the server embeds the text in a C++ source.
const text = (value) => JSON.stringify(value, null, 1).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const outputs = { 'parlour.schema.json': text(buildSchema()), 'openapi.json': text(buildOpenApi()) };
  const check = process.argv.includes('--check');
  let stale = false;
  for (const [name, content] of Object.entries(outputs)) {
    const file = path.join(here, name);
    if (check) {
      const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (committed !== content) {
        console.error(`protocol/schema/${name} is not what build.mjs writes; run node protocol/schema/build.mjs and commit it`);
        stale = true;
      }
    } else {
      fs.writeFileSync(file, content);
    }
  }
  process.exit(stale ? 1 : 0);
}
