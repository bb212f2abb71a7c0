// @ts-check
// Hash routes: #/ (lobby), #/games/ID (lobby, that game chosen), #/table/ID, #/invite/CODE, #/signup/CODE (a
// sign-up link: the lobby once signed in), #/device/CODE (a device code: sign in as the same name),
// #/ledger[/NAME][?table=ID],
// #/replay/ID[?deal=N][&verify=1] (a table's hand history).
// Hash routing needs nothing from the server beyond serving index.html at "/".

/**
 * A page's address, parsed.
 * @typedef {{name: 'table', table: string, code?: undefined, player?: undefined, game?: undefined, deal?: undefined, verify?: undefined}
 *   | {name: 'invite' | 'signup' | 'device', code: string, table?: undefined, player?: undefined, game?: undefined, deal?: undefined, verify?: undefined}
 *   | {name: 'replay', table: string, deal: number | null, verify: boolean, code?: undefined, player?: undefined, game?: undefined}
 *   | {name: 'ledger', player: string | null, table: string | null, code?: undefined, game?: undefined, deal?: undefined, verify?: undefined}
 *   | {name: 'lobby', game: string | null, code?: undefined, player?: undefined, table?: undefined, deal?: undefined, verify?: undefined}} Route
 */

/** @param {string} part */
function decode(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a malformed escape is still a usable id
  }
}

/**
 * Parse a location hash into {name, …params}. Unknown paths go to the lobby.
 * @param {string | null | undefined} hash
 * @returns {Route}
 */
export function parseRoute(hash) {
  const [path, query = ''] = String(hash || '').replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decode);
  const [page, arg] = parts;
  const params = new URLSearchParams(query);
  if (page === 'table' && arg) return { name: 'table', table: arg };
  if (page === 'invite' && arg) return { name: 'invite', code: arg };
  if (page === 'signup' && arg) return { name: 'signup', code: arg };
  if (page === 'device' && arg) return { name: 'device', code: arg };
  if (page === 'replay' && arg) {
    const deal = Number(params.get('deal'));
    return { name: 'replay', table: arg, deal: Number.isInteger(deal) && deal > 0 ? deal : null, verify: params.get('verify') === '1' };
  }
  if (page === 'ledger') return { name: 'ledger', player: arg || null, table: params.get('table') || null };
  return { name: 'lobby', game: page === 'games' && arg ? arg : null };
}

/**
 * A stable key so that re-entering the same route doesn't rebuild its page.
 * @param {Route} route
 * @returns {string}
 */
export function routeKey(route) {
  return [route.name, route.code ?? route.player ?? route.game ?? '', route.table ?? '', route.deal ?? '', route.verify ? 'v' : ''].join(':');
}

export const href = {
  lobby: () => '#/',
  /** @param {string} id */
  game: (id) => `#/games/${encodeURIComponent(id)}`,
  /** @param {string} id */
  table: (id) => `#/table/${encodeURIComponent(id)}`,
  /** @param {string} code */
  invite: (code) => `#/invite/${encodeURIComponent(code)}`,
  /** @param {string} code */
  signup: (code) => `#/signup/${encodeURIComponent(code)}`,
  /** @param {string} code */
  device: (code) => `#/device/${encodeURIComponent(code)}`,
  /**
   * @param {string} id
   * @param {number | null} [deal]
   * @param {boolean} [verify]
   */
  replay: (id, deal, verify) => `#/replay/${encodeURIComponent(id)}` +
    (deal || verify ? `?${[deal ? `deal=${deal}` : '', verify ? 'verify=1' : ''].filter(Boolean).join('&')}` : ''),
  /**
   * @param {string | null | undefined} name
   * @param {string | null} [table]
   */
  ledger: (name, table) => (name ? `#/ledger/${encodeURIComponent(name)}` : '#/ledger') +
    (table ? `?table=${encodeURIComponent(table)}` : ''),
};

/**
 * The shareable invite URL for a code.
 * @param {string} code
 */
export function inviteUrl(code) {
  return `${window.location.origin}/${href.invite(code)}`;
}

/**
 * The shareable sign-up link for a code (the code stays in the fragment, never sent to a server).
 * @param {string} code
 */
export function signupUrl(code) {
  return `${window.location.origin}/${href.signup(code)}`;
}

/**
 * The link that signs another device in with a device code (a fragment too).
 * @param {string} code
 */
export function deviceUrl(code) {
  return `${window.location.origin}/${href.device(code)}`;
}
