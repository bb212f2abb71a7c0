// Hash routes: #/ (lobby), #/table/ID, #/invite/CODE, #/ledger[/NAME].
// Hash routing needs nothing from the server beyond serving index.html at "/".

function decode(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a malformed escape is still a usable id
  }
}

/** Parse a location hash into {name, …params}. Unknown paths go to the lobby. */
export function parseRoute(hash) {
  const parts = String(hash || '').replace(/^#/, '').split('/').filter(Boolean).map(decode);
  const [page, arg] = parts;
  if (page === 'table' && arg) return { name: 'table', table: arg };
  if (page === 'invite' && arg) return { name: 'invite', code: arg };
  if (page === 'ledger') return { name: 'ledger', player: arg || null };
  return { name: 'lobby' };
}

/** A stable key so that re-entering the same route doesn't rebuild its page. */
export function routeKey(route) {
  return [route.name, route.table ?? route.code ?? route.player ?? ''].join(':');
}

export const href = {
  lobby: () => '#/',
  table: (id) => `#/table/${encodeURIComponent(id)}`,
  invite: (code) => `#/invite/${encodeURIComponent(code)}`,
  ledger: (name) => (name ? `#/ledger/${encodeURIComponent(name)}` : '#/ledger'),
};

/** The shareable invite URL for a code. */
export function inviteUrl(code) {
  return `${window.location.origin}/${href.invite(code)}`;
}
