// @ts-check
// A player's chip ledger, newest first, paged backwards with "Older", each
// movement linked to the deal that caused it; a small balance chart (inline
// SVG); settle-up over chosen tables (who pays whom); CSV downloads of both; and,
// on one's own page, the secret key for signing in elsewhere. Uses the WebSocket
// `ledger` and `settle` requests; the CSVs come over HTTP with the stored token.

import { displayName, friendlyText, tableTitle, tableTitleCapital } from './names.js';
import { el, formatChips, isPlainObject, replaceChildren, sameName } from './dom.js';
import { deviceUrl, href, signupUrl } from './router.js';
import { loadIdentity } from './store.js';
import { balanceChart } from './chart.js';
import { errorCode, errorMessage } from './banner.js';
import { t, tn, tParts } from './i18n.js';

/** @typedef {import('../types/wire').LedgerEntry} LedgerEntry */
/** @typedef {import('../types/wire').LedgerRequest} LedgerRequest */
/** @typedef {import('../types/wire').SettledTable} SettledTable */
/** @typedef {import('./app.js').AppContext} AppContext */
/** @typedef {import('./app.js').Page} Page */

const PAGE_SIZE = 50;
// Settle-up reads back the ledger as far as tonight: at most 10 pages of 500 entries.
const SETTLE_PAGES = 10;
const SETTLE_PAGE_SIZE = 500;
const SETTLE_MOST_TABLES = 50;
const CSV_LIMIT = 500; // entries in a ledger CSV (the API's largest page)

/**
 * @param {AppContext} ctx
 * @param {{player: string | null, table: string | null}} params
 * @returns {Page}
 */
export function createLedgerPage(ctx, { player, table }) {
  const name = player || ctx.me?.name || '';
  const own = sameName(name, ctx.me?.name);
  /** @type {number | null} */
  let oldest = null; // entry number of the last row shown, for `before`
  let loading = false;
  let loadedAny = false;
  /** @type {LedgerEntry[]} */
  const entries = []; // every entry loaded so far, newest first
  let settleTable = table || null;

  const heading = el('h1', { class: 'page-title', text: t('Ledger — {name}', { name: displayName(name) }) });
  const balance = el('div', { class: 'ledger-balance' });
  const chartBox = el('div', { class: 'ledger-chart' });
  const body = el('tbody', { role: 'rowgroup' });
  const status = el('p', { class: 'muted' });
  const older = el('button', { type: 'button', class: 'btn', text: t('Older'), hidden: true, onclick: () => load() });
  const settleBox = el('section', { class: 'panel settle' });
  const tokenBox = own ? tokenPanel() : null;
  const signupBox = own ? signupPanel() : null;
  const devicesBox = own ? devicesPanel() : null;
  const passphraseBox = own ? passphrasePanel() : null;

  const element = el('div', { class: 'ledger-page' },
    el('section', { class: 'panel ledger' },
      el('div', { class: 'panel-head' }, heading, el('span', { class: 'spacer' }), balance,
        canDownload() ? el('button', {
          type: 'button', class: 'btn btn-small', 'data-testid': 'ledger-csv', text: t('Download CSV'),
          onclick: () => downloadCsv(`/api/players/${encodeURIComponent(name)}/ledger?format=csv&limit=${CSV_LIMIT}`, `${name}-ledger.csv`),
        }) : null),
      chartBox,
      // Roles spelt out: on a phone the rows are laid out as cards (felt.css), which drops a table's own.
      el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': t('Ledger entries') }, el('table', { class: 'data-table ledger-table', role: 'table' },
        el('caption', { class: 'sr-only', text: t('Chip ledger of {name}, newest first', { name }) }),
        el('thead', { role: 'rowgroup' }, el('tr', { role: 'row' },
          [[t('Entry'), true], [t('Time'), false], [t('Amount'), true], [t('Balance'), true], [t('Table'), false], [t('Game'), false], [t('Deal'), false], [t('Memo'), false]].map(([h, num]) =>
            el('th', { scope: 'col', role: 'columnheader', class: num ? 'num' : null, text: h })))),
        body)),
      status,
      el('div', { class: 'ledger-foot' }, older)),
    settleBox,
    tokenBox,
    devicesBox,
    passphraseBox,
    signupBox);

  async function load() {
    if (loading || !name) return;
    loading = true;
    older.disabled = true;
    status.textContent = t('Loading…');
    /** @type {LedgerRequest} */
    const request = { player: name, limit: PAGE_SIZE };
    if (oldest !== null) request.before = oldest;
    try {
      const reply = await ctx.conn.request('ledger', request);
      const page = Array.isArray(reply.entries) ? reply.entries.filter(isPlainObject) : [];
      if (typeof reply.player === 'string') heading.textContent = t('Ledger — {name}', { name: displayName(reply.player) });
      const value = Number.isFinite(reply.balance) ? Math.trunc(reply.balance) : null;
      replaceChildren(balance, tParts('Balance {amount} chips', {
        amount: el('strong', { 'data-testid': 'balance', 'data-value': value === null ? null : String(value), text: value === null ? '—' : String(value) }),
      }));
      if (own && typeof reply.balance === 'number') ctx.setChips(reply.balance);
      body.append(...page.map((entry) => row(entry, ctx)));
      entries.push(...page);
      loadedAny = loadedAny || page.length > 0;
      const last = page[page.length - 1];
      if (last && Number.isFinite(last.entry)) oldest = last.entry;
      // A short page means we reached the first entry.
      older.hidden = page.length < PAGE_SIZE || !last || !Number.isFinite(last.entry);
      status.textContent = loadedAny ? (older.hidden ? t('That is the first entry.') : '') : t('No entries yet.');
      replaceChildren(chartBox, balanceChart(entries));
      if (!settleBox.dataset.drawn) showSettle();
    } catch (error) {
      status.textContent = errorCode(error) === 'not_found' ? t('There is no player called "{name}".', { name }) : t('Could not load the ledger.');
      if (errorCode(error) !== 'not_found') ctx.banner.error(error);
    } finally {
      loading = false;
      older.disabled = false;
    }
  }

  // -- settle up --------------------------------------------------------------
  // The server settles (`settle`): each person's net over the chosen tables, the
  // fewest payments, and what bots and pools hold apart. By default tonight's
  // tables: those this page's player hosted and those they moved chips at since
  // the same time, so that a host and the friends who played at his tables tick
  // the same ones and read the same totals; or the one table in ?table=.

  /**
   * The tables this page's player moved chips at since `since` (ISO 8601), newest
   * first: their ledger read back a page at a time, as far as `since`, at most
   * SETTLE_PAGES pages.
   * @param {string} since
   * @returns {Promise<string[]>}
   */
  async function tablesPlayedSince(since) {
    /** @type {string[]} */
    const ids = [];
    /** @type {number | undefined} */
    let before;
    for (let page = 0; page < SETTLE_PAGES; ++page) {
      /** @type {LedgerRequest} */
      const request = { player: name, limit: SETTLE_PAGE_SIZE };
      if (before !== undefined) request.before = before;
      const reply = await ctx.conn.request('ledger', request);
      const got = Array.isArray(reply.entries) ? reply.entries.filter(isPlainObject) : [];
      for (const entry of got) {
        if (typeof entry.time !== 'string' || entry.time < since) return ids;
        if (typeof entry.table === 'string' && entry.table !== '' && !ids.includes(entry.table)) ids.push(entry.table);
      }
      const last = got[got.length - 1];
      if (got.length < SETTLE_PAGE_SIZE || !last || !Number.isFinite(last.entry)) return ids;
      before = last.entry;
    }
    return ids;
  }

  /**
   * Tables to offer: the one asked for, tonight's, and those in the loaded entries.
   * @param {SettledTable[]} tonight
   * @returns {string[]}
   */
  function tableChoices(tonight) {
    /** @type {string[]} */
    const ids = [];
    /** @param {unknown} id */
    const add = (id) => { if (id !== null && id !== undefined && id !== '' && !ids.includes(String(id))) ids.push(String(id)); };
    add(settleTable);
    for (const listed of tonight) add(listed.table);
    for (const entry of entries) add(entry.table);
    return ids;
  }

  async function showSettle() {
    settleBox.dataset.drawn = '1';
    /** @type {Map<string, string>} */
    const games = new Map();
    /** @type {SettledTable[]} */
    let tonight = [];
    /** @type {string[]} */
    let played = [];
    if (own) {
      try {
        const reply = await ctx.conn.request('settle', {});
        tonight = Array.isArray(reply.tables) ? reply.tables.filter(isPlainObject) : [];
        const since = typeof reply.since === 'string' ? reply.since : new Date(Date.now() - 12 * 3600 * 1000).toISOString();
        played = await tablesPlayedSince(since);
      } catch {
        /* the entries still offer tables */
      }
    }
    for (const listed of tonight) games.set(String(listed.table), listed.game);
    for (const e of entries) if (e.table !== null && e.table !== undefined && e.game) games.set(String(e.table), e.game);
    const choices = tableChoices(tonight);
    for (const id of played) if (!choices.includes(id)) choices.push(id);
    // ?table= settles that table alone; otherwise tonight's tables, hosted or played (or the newest one seen).
    // `settle` takes at most 50 tables (docs/protocol.md): the hosted ones first, then the newest played.
    const tonightIds = [...new Set([...tonight.map((listed) => String(listed.table)), ...played])].slice(0, SETTLE_MOST_TABLES);
    const chosen = new Set(settleTable ? [String(settleTable)] : tonightIds.length ? tonightIds : choices.slice(0, 1));
    const boxes = choices.map((id) => el('label', { class: 'settle-choice' },
      el('input', {
        type: 'checkbox', name: 'settle-table', value: id, checked: chosen.has(id),
        onchange: (event) => { if (/** @type {HTMLInputElement} */ (event.target).checked) chosen.add(id); else chosen.delete(id); fill(); },
      }),
       ` ${games.has(id) ? t('{game} at {table}', { game: ctx.gameName(games.get(id)), table: tableTitle(id) }) : tableTitleCapital(id)}`));
    const tbody = el('tbody');
    const payments = el('ul', { class: 'settle-payments', 'data-testid': 'payments' });
    const apart = el('ul', { class: 'settle-apart muted', 'data-testid': 'settle-apart' });
    const note = el('p', { class: 'muted small' });
    const csv = el('button', {
      type: 'button', class: 'btn btn-small', 'data-testid': 'settle-csv', text: t('Download CSV'), disabled: true,
      onclick: () => downloadCsv(`/api/settle?tables=${[...chosen].map(encodeURIComponent).join(',')}&format=csv`, 'settle-up.csv'),
    });
    replaceChildren(settleBox,
      el('div', { class: 'panel-head' }, el('h2', { text: t('Settle up') }), el('span', { class: 'spacer' }), canDownload() ? csv : null),
      el('p', { class: 'hint', text: t('Each person\'s net over the tables ticked, and the fewest payments that square everybody. Bots and pools are shown apart: nobody pays them.') }),
      choices.length ? el('fieldset', { class: 'settle-tables', 'data-testid': 'settle-tables' }, el('legend', { text: t('Tables') }), boxes)
        : el('p', { class: 'muted', text: t('No tables yet.') }),
      el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': t('Balances at these tables') }, el('table', { class: 'data-table', 'data-testid': 'balances', 'data-table': [...chosen].join(',') },
        el('thead', {}, el('tr', {},
          el('th', { scope: 'col', text: t('Player') }), el('th', { scope: 'col', class: 'num', text: t('Net') }),
          el('th', { scope: 'col', class: 'num', text: t('Balance now') }))),
        tbody)),
      el('h3', { text: t('Who pays whom') }),
      payments,
      apart,
      note);

    let round = 0; // a newer fill wins over a slower older one
    async function fill() {
      const mine = ++round;
      const ids = [...chosen];
      const balancesTable = /** @type {HTMLElement | null} */ (settleBox.querySelector('[data-testid="balances"]'));
      if (balancesTable) balancesTable.dataset.table = ids.join(',');
      csv.disabled = ids.length === 0;
      replaceChildren(apart);
      if (ids.length === 0) {
        replaceChildren(tbody, el('tr', {}, el('td', { colspan: 3, class: 'muted', text: t('Tick a table to settle.') })));
        replaceChildren(payments);
        note.textContent = '';
        return;
      }
      replaceChildren(tbody, el('tr', {}, el('td', { colspan: 3, class: 'muted', text: t('Loading…') })));
      let reply;
      try {
        reply = await ctx.conn.request('settle', { tables: ids });
      } catch (error) {
        if (mine !== round) return;
        replaceChildren(tbody, el('tr', {}, el('td', { colspan: 3, class: 'muted', text: errorMessage(error) || t('Could not settle up.') })));
        replaceChildren(payments);
        return;
      }
      const nets = (Array.isArray(reply.nets) ? reply.nets : []).filter(isPlainObject);
      const balances = await Promise.all(nets.map(async (n) => {
        try {
          return (await ctx.conn.request('ledger', { player: n.player, limit: 1 })).balance;
        } catch {
          return null;
        }
      }));
      if (mine !== round) return;
      replaceChildren(tbody, nets.map((n, i) => el('tr', { 'data-player': n.player, 'data-net': n.net, 'data-balance': balances[i] ?? '' },
        el('td', {}, el('a', { href: href.ledger(n.player), text: n.player })),
        el('td', { class: `num ${n.net > 0 ? 'amount-plus' : n.net < 0 ? 'amount-minus' : ''}`, text: signed(n.net) }),
        el('td', { class: 'num', text: formatChips(balances[i]) }))));
      if (nets.length === 0) replaceChildren(tbody, el('tr', {}, el('td', { colspan: 3, class: 'muted', text: t('No chips moved at these tables.') })));
      const lines = (Array.isArray(reply.payments) ? reply.payments : []).filter(isPlainObject);
      replaceChildren(payments, lines.length
        ? lines.map((p) => el('li', { 'data-testid': 'payment', 'data-from': p.from, 'data-to': p.to, 'data-amount': p.amount },
          tParts('{from} pays {to} {amount}', { from: el('strong', { text: p.from }), to: el('strong', { text: p.to }), amount: formatChips(p.amount) })))
        : el('li', { class: 'muted', text: t('Nobody owes anybody.') }));
      const houseLines = [
        ...(reply.from_bots_and_pools || []).map((h) => ({ kind: 'from_bots_and_pools', text: t('{player} won {amount} from bots and pools: nobody pays it', { player: h.player, amount: formatChips(h.amount) }), amount: h.amount, player: h.player })),
        ...(reply.to_bots_and_pools || []).map((h) => ({ kind: 'to_bots_and_pools', text: t('{player} lost {amount} to bots and pools: nobody collects it', { player: h.player, amount: formatChips(h.amount) }), amount: h.amount, player: h.player })),
      ];
      const bots = Array.isArray(reply.bots) ? reply.bots : [];
      replaceChildren(apart,
        houseLines.map((h) => el('li', { 'data-kind': h.kind, 'data-player': h.player, 'data-amount': h.amount, text: h.text })),
        bots.length ? el('li', { 'data-kind': 'bots', 'data-amount': reply.bots_net, text: t('bots: {net} net ({bots})', { net: signed(reply.bots_net), bots: bots.map((b) => `${displayName(b.player)} ${signed(b.net)}`).join(', ') }) }) : null,
        reply.pools_left ? el('li', { 'data-kind': 'pools', 'data-amount': reply.pools_left, text: t('left in pools: {amount} (shared out when the table ends)', { amount: formatChips(reply.pools_left) }) }) : null);
      note.textContent = tn(ids.length, '{n} table; {method}.', '{n} tables; {method}.', {
        method: reply.method === 'greedy' ? t('more than 16 people: payments found by the largest debtor paying the largest creditor') : t('the fewest payments possible'),
      });
    }
    fill();
  }

  /** CSV downloads need the bearer token in a header, so they are fetched and saved from a blob. */
  function canDownload() {
    return Boolean(loadIdentity()?.token);
  }

  /**
   * @param {string} path
   * @param {string} filename
   */
  async function downloadCsv(path, filename) {
    const token = loadIdentity()?.token;
    if (!token) return;
    try {
      const response = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(t('the server answered {status}', { status: response.status }));
      const url = URL.createObjectURL(await response.blob());
      const link = el('a', { href: url, download: filename, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      ctx.banner.error(error);
    }
  }

  function tokenPanel() {
    const identity = loadIdentity();
    const token = identity?.token || '';
    // Hidden until asked for: this page is the one a host shows round the room to settle up.
    const HIDDEN = '•'.repeat(12);
    const shown = el('code', { class: 'token', 'data-testid': 'token', 'data-hidden': 'true', text: HIDDEN });
    const show = el('button', {
      type: 'button', class: 'btn btn-small', text: t('Show'), 'data-testid': 'token-show', 'aria-pressed': 'false',
      onclick: () => {
        const hide = shown.dataset.hidden !== 'true';
        shown.textContent = hide ? HIDDEN : token;
        shown.dataset.hidden = String(hide);
        show.textContent = hide ? t('Show') : t('Hide');
        show.setAttribute('aria-pressed', String(!hide));
      },
    });
    const reveal = el('button', {
      type: 'button', class: 'btn btn-small', text: t('Copy'), title: t('Copy the key without showing it'),
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(token);
          reveal.textContent = t('Copied');
        } catch {
          // Without the async clipboard (plain http), the key is shown and selected for copying by hand.
          if (shown.dataset.hidden === 'true') show.click();
          const range = document.createRange();
          range.selectNodeContents(shown);
          getSelection()?.removeAllRanges();
          getSelection()?.addRange(range);
          reveal.textContent = t('Selected — copy it');
        }
        setTimeout(() => { reveal.textContent = t('Copy'); }, 1500);
      },
    });
    return el('section', { class: 'panel token-panel' },
      el('h2', { text: t('Your secret key') }),
      el('p', { class: 'hint', text: t('To play as this name on another device, enter your name and this key in "Already have a name on another device?" there. Keep it secret: it is your name\'s password.') }),
      el('div', { class: 'token-row' }, shown, show, reveal));
  }

  /** This name's devices: a one-time code for another one, the list, and revoking one. */
  function devicesPanel() {
    const shown = el('p', { class: 'hint', 'data-testid': 'device-code' });
    const list = el('ul', { class: 'device-list', 'data-testid': 'devices' });
    async function refresh() {
      try {
        const reply = await ctx.conn.request('devices');
        const devices = Array.isArray(reply.devices) ? reply.devices.filter(isPlainObject) : [];
        replaceChildren(list, ...devices.map((device) => el('li', { 'data-testid': 'device', 'data-device': String(device.id) },
          el('span', { text: `${device.label}` }),
          el('span', { class: 'muted', text: ` · ${device.last_seen ? t('last seen {time}', { time: new Date(device.last_seen).toLocaleString() }) : t('not seen since the server started')}` }),
          el('button', {
            type: 'button', class: 'btn btn-small btn-ghost', 'data-testid': 'revoke-device', text: t('Revoke'),
            onclick: async () => {
              if (!window.confirm(t('Revoke "{device}"? It is signed out at once and its key stops working.', { device: device.label }))) return;
              try {
                await ctx.conn.request('revoke_device', { device: String(device.id) });
                refresh();
              } catch (error) {
                ctx.banner.error(error);
              }
            },
          }))));
      } catch (error) {
        if (errorCode(error)) ctx.banner.error(error);
      }
    }
    const link = el('button', {
      type: 'button', class: 'btn btn-small', 'data-testid': 'device-link', text: t('Link another device'),
      onclick: async () => {
        try {
          const reply = await ctx.conn.request('device_link');
          replaceChildren(shown, tParts('On the other device open {url} or enter the code {code} under "Have a code from your other device?" before {time}. It works once.', {
            url: el('code', { class: 'token', text: deviceUrl(reply.code) }),
            code: el('code', { class: 'token', 'data-testid': 'device-code-value', text: reply.code }),
            time: new Date(reply.expires_at).toLocaleTimeString(),
          }));
        } catch (error) {
          ctx.banner.error(error);
        }
      },
    });
    refresh();
    return el('section', { class: 'panel token-panel' },
      el('h2', { text: t('Your devices') }),
      el('p', { class: 'hint', text: t('Each device signs in with its own key. Revoke one you lost; a recovery code revokes them all.') }),
      list, link, shown);
  }

  /** An optional passphrase for this name (set or changed while signed in). */
  function passphrasePanel() {
    const result = el('p', { class: 'hint' });
    const input = el('input', { type: 'password', name: 'new-passphrase', minlength: 8, maxlength: 128, autocomplete: 'new-password' });
    const form = el('form', {
      class: 'token-row',
      onsubmit: async (event) => {
        event.preventDefault();
        if (!form.reportValidity()) return;
        try {
          await ctx.conn.request('set_passphrase', { passphrase: input.value });
          input.value = '';
          result.textContent = t('Passphrase saved. "Sign in with a passphrase" on another browser now signs it in as one of your devices.');
        } catch (error) {
          result.textContent = t('{code}: {message}', { code: errorCode(error) || t('error'), message: errorMessage(error) || t('could not save the passphrase') });
        }
      },
    }, el('label', { class: 'field-label' }, t('New passphrase (8–128 characters)'), input),
    el('button', { type: 'submit', class: 'btn btn-small', text: t('Save') }));
    return el('section', { class: 'panel token-panel' },
      el('h2', { text: t('Passphrase (optional)') }),
      el('p', { class: 'hint', text: t('For those who prefer one to a key or a device code. Stored only as an Argon2id hash.') }),
      form, result);
  }

  /** A sign-up link for a friend (servers that take new names by invitation only). */
  function signupPanel() {
    const result = el('p', { class: 'hint', 'data-testid': 'signup-link' });
    const uses = el('input', { type: 'number', name: 'signup-uses', min: 1, max: 20, value: '1', class: 'input-small' });
    const make = el('button', {
      type: 'button', class: 'btn btn-small', text: t('Make a sign-up link'),
      onclick: async () => {
        make.disabled = true;
        try {
          const reply = await ctx.conn.request('signup_link', { uses: Math.min(20, Math.max(1, Number(uses.value) || 1)), hours: 48 });
          replaceChildren(result, tParts('Send this link to your friends ({names}, until {time}): {link}', {
            names: tn(reply.uses, '{n} new name', '{n} new names'),
            time: new Date(reply.expires_at).toLocaleString(),
            link: el('code', { class: 'token', text: signupUrl(reply.code) }),
          }));
        } catch (error) {
          result.textContent = errorCode(error) === 'conflict'
            ? t('Anyone may take a name on this server: share a table\'s invite link instead.')
            : t('{code}: {message}', { code: errorCode(error) || t('error'), message: errorMessage(error) || t('could not make the link') });
        } finally {
          make.disabled = false;
        }
      },
    });
    return el('section', { class: 'panel token-panel' },
      el('h2', { text: t('Sign-up link for a friend') }),
      el('p', { class: 'hint', text: t('On a server that takes new names by invitation only, a friend needs a table\'s invite or a sign-up link to pick a name.') }),
      el('div', { class: 'token-row' }, el('label', { class: 'field-label' }, t('New names'), uses), make),
      result);
  }

  return {
    element,
    title: t('Ledger — {name}', { name }),
    start() {
      if (!name) status.textContent = t('Sign in to see your ledger.');
      else if (!loadedAny && oldest === null) load();
    },
    resume() {
      this.start?.();
    },
  };
}

/** @param {number} n */
function signed(n) {
  return n > 0 ? `+${formatChips(n)}` : formatChips(n);
}

/**
 * @param {LedgerEntry} entry
 * @param {AppContext} ctx
 */
function row(entry, ctx) {
  const amount = Number(entry.amount);
  const amountClass = amount > 0 ? 'amount-plus' : amount < 0 ? 'amount-minus' : '';
  return el('tr', { role: 'row', 'data-testid': 'ledger-entry', 'data-amount': Number.isFinite(amount) ? String(amount) : '', 'data-entry': String(entry.entry ?? '') },
    el('td', { role: 'cell', class: 'num muted', text: entry.entry ?? '' }),
    el('td', { role: 'cell', class: 'nowrap', text: formatTime(entry.time) }),
    el('td', { role: 'cell', class: `num ${amountClass}`, text: Number.isFinite(amount) ? signed(amount) : String(entry.amount ?? '') }),
    el('td', { role: 'cell', class: 'num', text: formatChips(entry.balance) }),
    el('td', { role: 'cell' }, entry.table !== null && entry.table !== undefined && entry.table !== ''
      ? el('a', { href: href.table(String(entry.table)), text: tableTitleCapital(String(entry.table)) })
      : el('span', { class: 'muted', text: '—' })),
    el('td', { role: 'cell' }, entry.game ? el('a', { href: href.game(entry.game), text: ctx.gameName(entry.game), title: t('Rules and a new table') }) : '—'),
    el('td', { role: 'cell', class: 'nowrap' }, dealLink(entry)),
    el('td', { role: 'cell', class: 'memo', text: friendlyText(entry.memo ?? '') }));
}

/**
 * "deal N", linking to the table where the movement happened (seq: the table event that caused it).
 * @param {LedgerEntry} entry
 */
function dealLink(entry) {
  const table = entry.table;
  if (table === null || table === undefined || table === '' || !Number.isFinite(entry.deal)) return el('span', { class: 'muted', text: '—' });
  return el('a', {
    href: href.table(String(table)), 'data-testid': 'deal-link', 'data-deal': String(entry.deal),
    'data-seq': Number.isFinite(entry.seq) ? String(entry.seq) : null,
    title: Number.isFinite(entry.seq) ? t('{table}, step {seq}', { table: tableTitle(String(table)), seq: entry.seq }) : tableTitle(String(table)),
    text: t('deal {deal}', { deal: entry.deal }),
  });
}

/**
 * The protocol doesn't fix the time format: accept ISO strings, SQLite UTC text, seconds or milliseconds.
 * @param {unknown} time
 * @returns {Date | null}
 */
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

/**
 * @param {unknown} time
 * @returns {string}
 */
export function formatTime(time) {
  const date = parseTime(time);
  if (!date) return time === null || time === undefined ? '' : String(time);
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
