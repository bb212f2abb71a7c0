// The decoder of state pushes: a pure module (no DOM, no WebSocket), so that the
// browser client (connection.js) and the golden-frame replay under Node
// (tests/protocol/replay_golden.mjs) run the very same code.
//
// A state push carries only what the connection has not had (docs/protocol.md
// "State"): the log and chat lines it has not had (`log_from`, `chat_from`),
// the players list only when it changed (`chips` alone when only chips did),
// the last deal's result once, the table's fixed parts (`game`, `host`,
// `clock`, `invite`) and the deal's `fair` block when new, and the view's
// constants (named by `view_constants`) once. `completeState` fills them in,
// so that every reader sees a whole state. The C++ test client does the same in
// tests/support/state_keeper.cpp; tests/protocol/golden-frames holds the frames
// both must decode alike.

// Log lines kept per table (the server keeps 50).
export const LOG_KEPT = 50;
// Parts of a state push sent only when new to the connection (docs/protocol.md "State").
export const FIXED_PARTS = ['game', 'host', 'clock', 'invite', 'fair'];

/**
 * What a connection keeps of one table between pushes.
 * @typedef {{log: unknown[], logEnd: number, chat: unknown[], chatEnd: number,
 *   players: Array<Record<string, unknown>> | undefined, result?: object,
 *   fixed: Record<string, unknown>, constants: Record<string, unknown>}} TableMemory
 */

/** @returns {TableMemory} */
export function newTableMemory() {
  return { log: [], logEnd: 0, chat: [], chatEnd: 0, players: undefined, fixed: {}, constants: {} };
}

/**
 * Fills `state` (a push as it came; changed in place) in from what earlier pushes
 * of its table carried, and remembers in `tables` (a Map: table id → memory, one
 * per connection) what this one carries.
 * @param {Map<string, TableMemory>} tables
 * @param {Record<string, any>} state a `state` push (PROTOCOL.md), filled in here
 * @returns {Record<string, any>} the same object
 */
export function completeState(tables, state) {
  const key = String(state.table);
  const kept = tables.get(key) || newTableMemory();
  const lines = Array.isArray(state.log) ? state.log : [];
  if (Number.isInteger(state.log_from)) {
    kept.log = state.log_from === kept.logEnd ? kept.log.concat(lines) : lines.slice();
    kept.logEnd = state.log_from + lines.length;
    if (kept.log.length > LOG_KEPT) kept.log = kept.log.slice(-LOG_KEPT);
    state.log = kept.log;
  }
  // Chat lines come the same way (`chat_from`), and only when there are new ones.
  if (Number.isInteger(state.chat_from)) {
    const chat = Array.isArray(state.chat) ? state.chat : [];
    kept.chat = state.chat_from === kept.chatEnd ? (kept.chat || []).concat(chat) : chat.slice();
    kept.chatEnd = state.chat_from + chat.length;
    if (kept.chat.length > LOG_KEPT) kept.chat = kept.chat.slice(-LOG_KEPT);
  }
  state.chat = kept.chat || [];
  if (Array.isArray(state.players)) {
    kept.players = state.players;
  } else if (Array.isArray(state.chips) && Array.isArray(kept.players) && state.chips.length === kept.players.length) {
    kept.players = kept.players.map((entry, i) => ({ ...entry, chips: state.chips[i] }));
  }
  delete state.chips;
  if (kept.players) state.players = kept.players;
  if (state.result && typeof state.result === 'object') kept.result = state.result;
  else if (kept.result && state.status === 'playing') state.result = kept.result;
  for (const part of FIXED_PARTS) {
    if (state[part] !== undefined) kept.fixed[part] = state[part];
    else if (kept.fixed[part] !== undefined) state[part] = kept.fixed[part];
  }
  if (state.view && typeof state.view === 'object' && !Array.isArray(state.view)) {
    if (Array.isArray(state.view_constants)) {
      kept.constants = {};
      for (const name of state.view_constants) if (name in state.view) kept.constants[name] = state.view[name];
    } else {
      for (const [name, value] of Object.entries(kept.constants)) if (!(name in state.view)) state.view[name] = value;
    }
  }
  delete state.view_constants;
  tables.set(key, kept);
  return state;
}
