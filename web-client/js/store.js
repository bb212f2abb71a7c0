// @ts-check
// What the browser remembers between visits.
//
// The identity (name + secret token) lives in localStorage under
// "parlour.identity" so a reload signs in again without asking. Which tables
// this browser holds a seat at, and the invite codes it has seen, are kept too:
// they decide whether reopening a table sends `join` (keep my seat) or `watch`.

const IDENTITY_KEY = 'parlour.identity';
const SEATS_KEY = 'parlour.seats';
const INVITES_KEY = 'parlour.invites';
const MAX_REMEMBERED = 50; // old tables are forgotten so storage stays small

/**
 * @param {string} key
 * @param {any} fallback
 * @returns {any} what was stored (checked by the callers), or the fallback
 */
function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch {
    return fallback; // storage disabled or corrupted: behave as a first visit
  }
}

/**
 * @param {string} key
 * @param {unknown} value
 */
function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode or quota: the session still works, it just won't be remembered */
  }
}

/**
 * {name, token?} or null.
 * @returns {{name: string, token: string | undefined} | null}
 */
export function loadIdentity() {
  const identity = read(IDENTITY_KEY, null);
  if (!identity || typeof identity.name !== 'string' || !identity.name) return null;
  return { name: identity.name, token: typeof identity.token === 'string' ? identity.token : undefined };
}

/**
 * @param {string} name
 * @param {string | undefined} token
 */
export function saveIdentity(name, token) {
  write(IDENTITY_KEY, token ? { name, token } : { name });
}

export function forgetIdentity() {
  write(IDENTITY_KEY, null);
}

// Per-table records are keyed by player name too, so two people sharing a
// browser (after "Sign out") don't inherit each other's seats.
/**
 * @param {string} key
 * @returns {Record<string, unknown>}
 */
function tableRecords(key) {
  const records = read(key, {});
  return records && typeof records === 'object' && !Array.isArray(records) ? records : {};
}

/**
 * @param {string} key
 * @param {string} id
 * @param {unknown} value null forgets the record
 */
function setRecord(key, id, value) {
  const records = tableRecords(key);
  delete records[id];
  if (value !== null) records[id] = value;
  const ids = Object.keys(records);
  for (const old of ids.slice(0, Math.max(0, ids.length - MAX_REMEMBERED))) delete records[old];
  write(key, records);
}

/**
 * @param {string | null | undefined} player
 * @param {string} table
 */
function seatKey(player, table) {
  return `${String(player).toLowerCase()}@${table}`;
}

/**
 * @param {string | null | undefined} player
 * @param {string} table
 * @returns {boolean}
 */
export function isSeated(player, table) {
  return tableRecords(SEATS_KEY)[seatKey(player, table)] === true;
}

/**
 * @param {string | null | undefined} player
 * @param {string} table
 * @param {boolean} seated
 */
export function markSeated(player, table, seated) {
  if (isSeated(player, table) === seated) return;
  setRecord(SEATS_KEY, seatKey(player, table), seated ? true : null);
}

/**
 * @param {string | null} table
 * @returns {string | null}
 */
export function inviteFor(table) {
  const code = tableRecords(INVITES_KEY)[String(table)];
  return typeof code === 'string' ? code : null;
}

/**
 * @param {string | null | undefined} table
 * @param {unknown} code
 */
export function rememberInvite(table, code) {
  if (table !== null && table !== undefined && typeof code === 'string' && code && inviteFor(table) !== code) {
    setRecord(INVITES_KEY, String(table), code);
  }
}

/**
 * A switch the player sets in this browser (sound, notifications, the text
 * table): stored as "on" or "off" under its own key.
 * @param {string} key
 * @returns {boolean}
 */
export function switchOn(key) {
  try {
    return localStorage.getItem(key) === 'on';
  } catch {
    return false;
  }
}

/**
 * @param {string} key
 * @param {boolean} on
 */
export function setSwitch(key, on) {
  try {
    localStorage.setItem(key, on ? 'on' : 'off');
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}
