// A player's chip ledger, newest first, paged backwards with "Older"; a small
// balance chart (inline SVG); the settle-up table of every player's balance at
// one table; and, on one's own page, the secret key for signing in elsewhere.
// Uses the WebSocket `ledger` request (the HTTP twin needs the token in a header,
// which the open socket already stands for).

import { el, formatChips, isPlainObject, replaceChildren, sameName } from './dom.js';
import { href } from './router.js';
import { loadIdentity } from './store.js';
import { balanceChart } from './chart.js';

const PAGE_SIZE = 50;
const SETTLE_LIMIT = 500; // entries read per player to total their play at one table

export function createLedgerPage(ctx, { player, table }) {
  const name = player || ctx.me?.name || '';
  const own = sameName(name, ctx.me?.name);
  let oldest = null; // entry number of the last row shown, for `before`
  let loading = false;
  let loadedAny = false;
  const entries = []; // every entry loaded so far, newest first
  let settleTable = table || null;

  const heading = el('h2', { text: `Ledger — ${name}` });
  const balance = el('div', { class: 'ledger-balance' });
  const chartBox = el('div', { class: 'ledger-chart' });
  const body = el('tbody');
  const status = el('p', { class: 'muted' });
  const older = el('button', { type: 'button', class: 'btn', text: 'Older', hidden: true, onclick: () => load() });
  const settleBox = el('section', { class: 'panel settle' });
  const tokenBox = own ? tokenPanel() : null;

  const element = el('div', { class: 'ledger-page' },
    el('section', { class: 'panel ledger' },
      el('div', { class: 'panel-head' }, heading, el('span', { class: 'spacer' }), balance),
      chartBox,
      el('div', { class: 'table-scroll' }, el('table', { class: 'data-table ledger-table' },
        el('caption', { class: 'sr-only', text: `Chip ledger of ${name}, newest first` }),
        el('thead', {}, el('tr', {},
          ['Entry', 'Time', 'Amount', 'Balance', 'Table', 'Game', 'Memo'].map((h) =>
            el('th', { scope: 'col', class: ['Entry', 'Amount', 'Balance'].includes(h) ? 'num' : null, text: h })))),
        body)),
      status,
      el('div', { class: 'ledger-foot' }, older)),
    settleBox,
    tokenBox);

  async function load() {
    if (loading || !name) return;
    loading = true;
    older.disabled = true;
    status.textContent = 'Loading…';
    const request = { player: name, limit: PAGE_SIZE };
    if (oldest !== null) request.before = oldest;
    try {
      const reply = await ctx.conn.request('ledger', request);
      const page = Array.isArray(reply.entries) ? reply.entries.filter(isPlainObject) : [];
      if (typeof reply.player === 'string') heading.textContent = `Ledger — ${reply.player}`;
      const value = Number.isFinite(reply.balance) ? Math.trunc(reply.balance) : null;
      replaceChildren(balance, 'Balance ',
        el('strong', { 'data-testid': 'balance', 'data-value': value === null ? null : String(value), text: value === null ? '—' : String(value) }),
        ' chips');
      if (own && typeof reply.balance === 'number') ctx.setChips(reply.balance);
      body.append(...page.map((entry) => row(entry, ctx, name)));
      entries.push(...page);
      loadedAny = loadedAny || page.length > 0;
      const last = page[page.length - 1];
      if (last && Number.isFinite(last.entry)) oldest = last.entry;
      // A short page means we reached the first entry.
      older.hidden = page.length < PAGE_SIZE || !last || !Number.isFinite(last.entry);
      status.textContent = loadedAny ? (older.hidden ? 'That is the first entry.' : '') : 'No entries yet.';
      replaceChildren(chartBox, balanceChart(entries));
      if (!settleBox.dataset.drawn) showSettle();
    } catch (error) {
      status.textContent = error.code === 'not_found' ? `There is no player called "${name}".` : 'Could not load the ledger.';
      if (error.code !== 'not_found') ctx.banner.error(error);
    } finally {
      loading = false;
      older.disabled = false;
    }
  }

  // -- settle up --------------------------------------------------------------

  /** Tables to choose from: the one asked for, those in the loaded entries, and the tables this player hosts. */
  async function tableChoices() {
    const ids = [];
    const add = (id) => { if (id !== null && id !== undefined && id !== '' && !ids.includes(String(id))) ids.push(String(id)); };
    add(settleTable);
    for (const entry of entries) add(entry.table);
    try {
      const reply = await ctx.conn.request('tables');
      for (const t of Array.isArray(reply.tables) ? reply.tables : []) if (sameName(t.host, name)) add(t.table);
    } catch {
      /* the entries are enough */
    }
    return ids;
  }

  /** The players of a table: from a state seen in this session, else from the lobby list, else from entry memos. */
  async function tablePlayers(id) {
    const state = ctx.states.get(String(id));
    if (state && Array.isArray(state.players)) return state.players.map((p) => p.player).filter((p) => typeof p === 'string');
    try {
      const reply = await ctx.conn.request('tables');
      const found = (reply.tables || []).find((t) => String(t.table) === String(id));
      if (found) return (found.seats || []).map((s) => s.player).filter((p) => typeof p === 'string');
    } catch {
      /* fall through */
    }
    return [name];
  }

  async function showSettle() {
    settleBox.dataset.drawn = '1';
    const choices = await tableChoices();
    if (!settleTable) settleTable = choices[0] || null;
    const select = el('select', {
      name: 'table', 'aria-label': 'Table to settle up',
      onchange: () => { settleTable = select.value; fill(); },
    }, choices.map((id) => el('option', { value: id, text: `Table ${id}` })));
    if (settleTable) select.value = settleTable;
    const tbody = el('tbody');
    const note = el('p', { class: 'muted small' });
    replaceChildren(settleBox,
      el('div', { class: 'panel-head' }, el('h2', { text: 'Settle up' }), el('span', { class: 'spacer' }),
        choices.length ? select : null),
      el('p', { class: 'hint', text: 'Every player\'s balance now and what they won or lost at the table — for the host to settle up.' }),
      el('div', { class: 'table-scroll' }, el('table', { class: 'data-table', 'data-testid': 'balances', 'data-table': settleTable ?? '' },
        el('thead', {}, el('tr', {},
          el('th', { scope: 'col', text: 'Player' }), el('th', { scope: 'col', class: 'num', text: 'At this table' }),
          el('th', { scope: 'col', class: 'num', text: 'Balance' }))),
        tbody)),
      note);
    async function fill() {
      const balances = settleBox.querySelector('[data-testid="balances"]');
      balances.dataset.table = settleTable ?? '';
      if (!settleTable) {
        replaceChildren(tbody, el('tr', {}, el('td', { colspan: 3, class: 'muted', text: 'No table yet.' })));
        return;
      }
      replaceChildren(tbody, el('tr', {}, el('td', { colspan: 3, class: 'muted', text: 'Loading…' })));
      const players = await tablePlayers(settleTable);
      const rows = await Promise.all(players.map(async (p) => {
        try {
          const reply = await ctx.conn.request('ledger', { player: p, limit: SETTLE_LIMIT });
          // Starting chips are a grant, not play: they are left out of the table's total.
          const net = (reply.entries || []).filter((e) => String(e.table) === String(settleTable) && !/starting chips|grant/i.test(String(e.memo ?? '')))
            .reduce((sum, e) => sum + (Number(e.amount) || 0), 0);
          return { player: reply.player || p, balance: reply.balance, net };
        } catch {
          return { player: p, balance: null, net: null };
        }
      }));
      replaceChildren(tbody, rows.map((r) => el('tr', { 'data-player': r.player, 'data-balance': r.balance ?? '', 'data-net': r.net ?? '' },
        el('td', {}, el('a', { href: href.ledger(r.player), text: r.player })),
        el('td', { class: `num ${r.net > 0 ? 'amount-plus' : r.net < 0 ? 'amount-minus' : ''}`, text: r.net === null ? '—' : signed(r.net) }),
        el('td', { class: 'num', text: formatChips(r.balance) }))));
      // Chips still in the table's pot or pool are shared out when the table ends.
      const view = ctx.states.get(String(settleTable))?.view;
      const pools = view && view.pools && typeof view.pools === 'object' ? Object.entries(view.pools) : [];
      const held = pools.find(([, amount]) => typeof amount === 'number') || null;
      note.textContent = `Table ${settleTable}: ${rows.length} player${rows.length === 1 ? '' : 's'}.` +
        (held ? ` The ${held[0]} holds ${formatChips(held[1])} chips, shared out when the table ends.` : '');
    }
    fill();
  }

  function tokenPanel() {
    const identity = loadIdentity();
    const token = identity?.token || '';
    const shown = el('code', { class: 'token', 'data-testid': 'token', text: token });
    const reveal = el('button', {
      type: 'button', class: 'btn btn-small', text: 'Copy',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(token);
          reveal.textContent = 'Copied';
        } catch {
          const range = document.createRange();
          range.selectNodeContents(shown);
          getSelection().removeAllRanges();
          getSelection().addRange(range);
          reveal.textContent = 'Selected — copy it';
        }
        setTimeout(() => { reveal.textContent = 'Copy'; }, 1500);
      },
    });
    return el('section', { class: 'panel token-panel' },
      el('h2', { text: 'Your secret key' }),
      el('p', { class: 'hint', text: 'To play as this name on another device, enter your name and this key in "Already have a name on another device?" there. Keep it secret: it is your name\'s password.' }),
      el('div', { class: 'token-row' }, shown, reveal));
  }

  return {
    element,
    title: `Ledger — ${name}`,
    start() {
      if (!name) status.textContent = 'Sign in to see your ledger.';
      else if (!loadedAny && oldest === null) load();
    },
    resume() {
      this.start();
    },
  };
}

function signed(n) {
  return n > 0 ? `+${formatChips(n)}` : formatChips(n);
}

function row(entry, ctx) {
  const amount = Number(entry.amount);
  const amountClass = amount > 0 ? 'amount-plus' : amount < 0 ? 'amount-minus' : '';
  return el('tr', { 'data-testid': 'ledger-entry', 'data-amount': Number.isFinite(amount) ? String(amount) : '', 'data-entry': String(entry.entry ?? '') },
    el('td', { class: 'num muted', text: entry.entry ?? '' }),
    el('td', { class: 'nowrap', text: formatTime(entry.time) }),
    el('td', { class: `num ${amountClass}`, text: Number.isFinite(amount) ? signed(amount) : String(entry.amount ?? '') }),
    el('td', { class: 'num', text: formatChips(entry.balance) }),
    el('td', {}, entry.table !== null && entry.table !== undefined && entry.table !== ''
      ? el('a', { href: href.table(String(entry.table)), text: String(entry.table) })
      : el('span', { class: 'muted', text: '—' })),
    el('td', {}, entry.game ? el('a', { href: href.game(entry.game), text: ctx.gameName(entry.game), title: 'Rules and a new table' }) : '—'),
    el('td', { class: 'memo', text: entry.memo ?? '' }));
}

/** The protocol doesn't fix the time format: accept ISO strings, SQLite UTC text, seconds or milliseconds. */
export function parseTime(time) {
  if (time === null || time === undefined || time === '') return null;
  let date;
  if (typeof time === 'number') date = new Date(time < 1e12 ? time * 1000 : time);
  else if (/^\d+(\.\d+)?$/.test(String(time))) return parseTime(Number(time));
  else if (/^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(String(time))) {
    // SQLite's datetime() text has no zone and is UTC.
    date = new Date(`${String(time).replace(' ', 'T')}Z`);
  } else date = new Date(String(time));
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatTime(time) {
  const date = parseTime(time);
  if (!date) return time === null || time === undefined ? '' : String(time);
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
