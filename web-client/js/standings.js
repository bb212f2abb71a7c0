// @ts-check
// A finished table's standings (docs/protocol.md "End of a table"): per player
// the chips won or lost at the table, deals won and the game's own score; the
// host's Rematch, everyone's "Join the rematch", and for a rematch with the same
// deals the table it repeats, side by side.

import { displayName, tableTitle } from './names.js';
import { el, formatChips, isPlainObject, sameName } from './dom.js';
import { t, tn } from './i18n.js';

/** @typedef {import('../types/wire').State} State */
/** @typedef {import('../types/wire').Standings} Standings */
/** @typedef {import('../types/wire').StandingsPlayer} StandingsPlayer */

/** @param {unknown} value */
function signed(value) {
  return typeof value === 'number' && value > 0 ? `+${formatChips(value)}` : formatChips(value);
}

/**
 * @param {{players?: StandingsPlayer[]} | null | undefined} standings
 * @returns {StandingsPlayer[]}
 */
function rows(standings) {
  const players = Array.isArray(standings?.players) ? standings.players.filter(isPlainObject) : [];
  return [...players].sort((a, b) => (b.chips ?? 0) - (a.chips ?? 0) || (a.seat ?? 0) - (b.seat ?? 0));
}

/**
 * state: the finished table's state. actions: {me, rematch(sameSeed), joinRematch(table)}.
 * Returns the panel, or null when the state has no standings and no rematch.
 * @param {State} state
 * @param {{me: string | undefined, rematch: (sameSeed: boolean) => void, joinRematch: (table: string) => void}} actions
 * @returns {HTMLElement | null}
 */
export function renderStandings(state, actions) {
  const standings = isPlainObject(state.standings) ? state.standings : null;
  const rematch = isPlainObject(state.rematch) ? state.rematch : null;
  if (!standings && !rematch) return null;
  const isHost = sameName(state.host, actions.me);
  const parts = [el('h3', { class: 'panel-title', text: t('Standings') })];

  if (standings) {
    const players = rows(standings);
    const hasScore = players.some((p) => typeof p.score === 'number');
    parts.push(el('p', { class: 'muted small', text: tn(standings.deals ?? 0, '{n} deal played.', '{n} deals played.') }));
    parts.push(el('table', { class: 'standings-table' },
      el('thead', {}, el('tr', {},
        el('th', { text: t('Player') }), el('th', { text: t('Chips') }), el('th', { text: t('Deals won') }),
        hasScore ? el('th', { text: t('Score') }) : null)),
      el('tbody', {}, players.map((p) => el('tr', {
        'data-testid': 'standing', 'data-player': String(p.player ?? ''), 'data-seat': String(p.seat ?? ''),
        'data-chips': String(p.chips ?? 0), 'data-deals-won': String(p.deals_won ?? 0),
        'data-score': typeof p.score === 'number' ? String(p.score) : null,
        class: sameName(p.player, actions.me) ? 'is-me' : null,
      },
      el('td', { text: p.player ? displayName(p.player, p.seat) : t('Seat {seat}', { seat: p.seat }) }),
      el('td', { class: `chips-delta ${p.chips > 0 ? 'is-up' : p.chips < 0 ? 'is-down' : ''}`, text: signed(p.chips) }),
      el('td', { text: String(p.deals_won ?? 0) }),
      hasScore ? el('td', { text: typeof p.score === 'number' ? String(p.score) : '—' }) : null)))));
    if (isPlainObject(standings.compare)) parts.push(renderComparison(standings, actions.me));
  }

  if (rematch) {
    parts.push(el('div', { class: 'rematch-row' },
      el('span', { text: rematch.same_seed ? t('Rematch with the same deals: {table}.', { table: tableTitle(rematch.table) })
        : t('Rematch: {table}.', { table: tableTitle(rematch.table) }) }),
      el('button', {
        type: 'button', class: 'btn btn-primary', text: t('Join the rematch'), 'data-testid': 'join-rematch',
        'data-rematch': String(rematch.table), onclick: () => actions.joinRematch(String(rematch.table)),
      })));
  } else if (isHost) {
    const sameSeed = el('input', { type: 'checkbox', 'data-testid': 'rematch-same-seed' });
    parts.push(el('div', { class: 'rematch-row' },
      el('button', { type: 'button', class: 'btn btn-primary', text: t('Rematch'), 'data-testid': 'rematch',
        onclick: () => actions.rematch(sameSeed.checked) }),
      el('label', { class: 'small' }, sameSeed, ` ${t('the same deals again (duplicate)')}`)));
  }
  return el('div', { class: 'standings-panel panel', 'data-zone': 'standings' }, parts);
}

// The same deals played twice: each player's chips and deals won at both tables.
/**
 * @param {Standings} standings
 * @param {string | undefined} me
 */
function renderComparison(standings, me) {
  const before = rows(standings.compare);
  const now = rows(standings);
  /** @type {(string | null)[]} */
  const names = [];
  for (const p of [...now, ...before]) if (!names.some((n) => sameName(n, p.player))) names.push(p.player);
  /** @type {(list: StandingsPlayer[], name: string | null) => StandingsPlayer | undefined} */
  const find = (list, name) => list.find((p) => sameName(p.player, name));
  return el('div', { class: 'compare', 'data-testid': 'compare', 'data-compare': String(standings.compare?.table ?? '') },
    el('h4', { text: t('Side by side with {table} (the same deals)', { table: tableTitle(standings.compare?.table) }) }),
    el('table', { class: 'standings-table' },
      el('thead', {}, el('tr', {}, el('th', { text: t('Player') }), el('th', { text: t('This table') }),
        el('th', { text: tableTitle(standings.compare?.table) }), el('th', { text: t('Deals won (now / then)') }))),
      el('tbody', {}, names.map((name) => {
        const a = find(now, name);
        const b = find(before, name);
        return el('tr', {
          'data-testid': 'compare-row', 'data-player': String(name ?? ''),
          'data-chips': a ? String(a.chips) : null, 'data-previous-chips': b ? String(b.chips) : null,
          class: sameName(name, me) ? 'is-me' : null,
        },
        el('td', { text: String(name ?? '—') }),
        el('td', { text: a ? signed(a.chips) : '—' }),
        el('td', { text: b ? signed(b.chips) : '—' }),
        el('td', { text: `${a?.deals_won ?? '—'} / ${b?.deals_won ?? '—'}` }));
      }))));
}
