// A player's chip ledger, newest first, paged backwards with "Older".
// Uses the WebSocket `ledger` request (the HTTP twin needs the token in a header,
// which the open socket already stands for).

import { el, formatChips, replaceChildren, sameName } from './dom.js';
import { href } from './router.js';

const PAGE_SIZE = 50;

export function createLedgerPage(ctx, { player }) {
  const name = player || ctx.me?.name || '';
  let oldest = null; // entry number of the last row shown, for `before`
  let loading = false;
  let loadedAny = false;

  const heading = el('h2', { text: `Ledger — ${name}` });
  const balance = el('div', { class: 'ledger-balance' });
  const body = el('tbody');
  const status = el('p', { class: 'muted' });
  const older = el('button', { type: 'button', class: 'btn', text: 'Older', hidden: true, onclick: () => load() });

  const element = el('section', { class: 'panel ledger' },
    el('div', { class: 'panel-head' }, heading, el('span', { class: 'spacer' }), balance),
    el('div', { class: 'table-scroll' }, el('table', { class: 'data-table ledger-table' },
      el('thead', {}, el('tr', {},
        ['Entry', 'Time', 'Amount', 'Balance', 'Table', 'Game', 'Memo'].map((h) =>
          el('th', { class: ['Entry', 'Amount', 'Balance'].includes(h) ? 'num' : null, text: h })))),
      body)),
    status,
    el('div', { class: 'ledger-foot' }, older));

  async function load() {
    if (loading || !name) return;
    loading = true;
    older.disabled = true;
    status.textContent = 'Loading…';
    const request = { player: name, limit: PAGE_SIZE };
    if (oldest !== null) request.before = oldest;
    try {
      const reply = await ctx.conn.request('ledger', request);
      const entries = Array.isArray(reply.entries) ? reply.entries.filter((e) => e && typeof e === 'object') : [];
      if (typeof reply.player === 'string') heading.textContent = `Ledger — ${reply.player}`;
      replaceChildren(balance, 'Balance ', el('strong', { text: formatChips(reply.balance) }), ' chips');
      if (sameName(reply.player ?? name, ctx.me?.name) && typeof reply.balance === 'number') ctx.setChips(reply.balance);
      body.append(...entries.map((entry) => row(entry, ctx)));
      loadedAny = loadedAny || entries.length > 0;
      const last = entries[entries.length - 1];
      if (last && Number.isFinite(last.entry)) oldest = last.entry;
      // A short page means we reached the first entry.
      older.hidden = entries.length < PAGE_SIZE || !last || !Number.isFinite(last.entry);
      status.textContent = loadedAny ? (older.hidden ? 'That is the first entry.' : '') : 'No entries yet.';
    } catch (error) {
      status.textContent = error.code === 'not_found' ? `There is no player called "${name}".` : 'Could not load the ledger.';
      if (error.code !== 'not_found') ctx.banner.error(error);
    } finally {
      loading = false;
      older.disabled = false;
    }
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

function row(entry, ctx) {
  const amount = Number(entry.amount);
  const amountClass = amount > 0 ? 'amount-plus' : amount < 0 ? 'amount-minus' : '';
  return el('tr', {},
    el('td', { class: 'num muted', text: entry.entry ?? '' }),
    el('td', { class: 'nowrap', text: formatTime(entry.time) }),
    el('td', { class: `num ${amountClass}`, text: Number.isFinite(amount) ? (amount > 0 ? `+${formatChips(amount)}` : formatChips(amount)) : String(entry.amount ?? '') }),
    el('td', { class: 'num', text: formatChips(entry.balance) }),
    el('td', {}, entry.table !== null && entry.table !== undefined && entry.table !== ''
      ? el('a', { href: href.table(String(entry.table)), text: String(entry.table) })
      : el('span', { class: 'muted', text: '—' })),
    el('td', { text: entry.game ? ctx.gameName(entry.game) : '—' }),
    el('td', { class: 'memo', text: entry.memo ?? '' }));
}

/** The protocol doesn't fix the time format: accept ISO strings, SQLite UTC text, seconds or milliseconds. */
export function formatTime(time) {
  if (time === null || time === undefined || time === '') return '';
  let date;
  if (typeof time === 'number') date = new Date(time < 1e12 ? time * 1000 : time);
  else if (/^\d+(\.\d+)?$/.test(String(time))) return formatTime(Number(time));
  else if (/^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(String(time))) {
    // SQLite's datetime() text has no zone and is UTC.
    date = new Date(`${String(time).replace(' ', 'T')}Z`);
  } else date = new Date(String(time));
  if (Number.isNaN(date.getTime())) return String(time);
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
