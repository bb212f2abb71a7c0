// @ts-check
// The lobby: the games on offer, the open tables (refreshed every 5 s while
// the lobby is shown) and a form to create a table with any game's options.

import { el, humanise, isPlainObject, replaceChildren, sameName } from './dom.js';
import { href } from './router.js';
import { markSeated, rememberInvite } from './store.js';
import { displayName, sourceName, tableTitleCapital } from './names.js';
import { takenSeats } from './layouts/common.js';
import { t, tn, tParts, tWord } from './i18n.js';

/** @typedef {import('../types/wire').Game} Game */
/** @typedef {import('../types/wire').GameOption} GameOption */
/** @typedef {import('../types/wire').OptionValue} OptionValue */
/** @typedef {import('../types/wire').TableListing} TableListing */
/** @typedef {import('../types/wire').TableSeat} TableSeat */
/** @typedef {import('../types/wire').CreateRequest} CreateRequest */
/** @typedef {import('./app.js').AppContext} AppContext */
/** @typedef {import('./app.js').Page} Page */
/** @typedef {() => ([string, unknown] | null)} OptionReader an option's name and value as the form has it, or null to leave it out */

const REFRESH_MS = 5000;

/**
 * @param {AppContext} ctx
 * @param {{game?: string | null}} [params]
 * @returns {Page}
 */
export function createLobbyPage(ctx, params = {}) {
  /** @type {ReturnType<typeof setInterval> | undefined | null} */
  let timer = null;
  let refreshing = false;
  /** @type {Game[]} */
  let games = [];

  const tablesList = el('div', { class: 'tables-list' }, el('p', { class: 'muted', text: t('Loading tables…') }));
  // The tables I hold a seat at or host, private ones included: found again after a closed tab.
  const myTablesList = el('div', { class: 'tables-list', 'data-testid': 'my-tables' });
  const myTablesSection = el('section', { class: 'panel lobby-mine', hidden: true },
    el('div', { class: 'panel-head' }, el('h2', { text: t('Your tables') })), myTablesList);
  /** @type {TableListing[]} */
  let lastTables = [];
  /** Tables listed under "Your tables", not again among the open ones. @type {Set<string>} */
  let mineIds = new Set();
  const filterSelect = el('select', {
    class: 'tables-filter', 'aria-label': t('Which tables to show'),
    onchange: () => renderTables(lastTables),
  },
  el('option', { value: 'all', text: t('All tables') }),
  el('option', { value: 'open', text: t('With a free seat, or mine') }));
  const updated = el('span', { class: 'muted small' });
  const gamesGrid = el('div', { class: 'games-grid' }, el('p', { class: 'muted', text: t('Loading games…') }));
  const createForm = createTableForm(ctx);

  const element = el('div', { class: 'lobby' },
    el('h1', { class: 'sr-only', text: t('Parlour — the card room') }),
    myTablesSection,
    el('section', { class: 'panel lobby-tables' },
      el('div', { class: 'panel-head' },
        el('h2', { text: t('Open tables') }), updated, filterSelect,
        el('button', { type: 'button', class: 'btn btn-small', text: t('Refresh'), onclick: () => refresh(true) }),
        el('button', {
          type: 'button', class: 'btn btn-small btn-primary lobby-jump', text: t('New table'),
          onclick: () => { createForm.element.scrollIntoView({ behavior: 'smooth', block: 'start' }); createForm.element.querySelector('select')?.focus({ preventScroll: true }); },
        })),
      tablesList),
    el('section', { class: 'panel lobby-create' },
      el('h2', { text: t('New table') }), createForm.element),
    el('section', { class: 'panel lobby-games' },
      el('h2', { text: t('Games') }), gamesGrid));

  async function refresh(reportErrors = false) {
    if (refreshing) return;
    refreshing = true;
    try {
      const [reply, mine] = await Promise.all([ctx.conn.request('tables'), ctx.conn.request('tables', { mine: true })]);
      renderMine(Array.isArray(mine.tables) ? mine.tables.filter(isPlainObject) : []);
      renderTables(Array.isArray(reply.tables) ? reply.tables.filter(isPlainObject) : []);
      updated.textContent = t('updated {time}', { time: new Date().toLocaleTimeString() });
    } catch (error) {
      // The periodic refresh stays quiet: the connection indicator already says we're offline.
      if (reportErrors) ctx.banner.error(error);
      updated.textContent = t('could not refresh');
    } finally {
      refreshing = false;
    }
  }

  /** @param {TableListing[]} mine */
  function renderMine(mine) {
    myTablesSection.hidden = mine.length === 0;
    mineIds = new Set(mine.map((listing) => String(listing.table ?? '')));
    const order = { playing: 0, waiting: 1 };
    const sorted = [...mine].sort((a, b) => (order[/** @type {'playing'|'waiting'} */ (a.status)] ?? 2) - (order[/** @type {'playing'|'waiting'} */ (b.status)] ?? 2));
    replaceChildren(myTablesList, sorted.map(tableCard));
  }

  /** @param {TableListing[]} listed */
  function renderTables(listed) {
    lastTables = listed;
    const all = listed.filter((listing) => !mineIds.has(String(listing.table ?? '')));
    const tables = filterSelect.value === 'all' ? all : all.filter((listing) => {
      const seats = Array.isArray(listing.seats) ? listing.seats.filter(isPlainObject) : [];
      return listing.status !== 'finished' && (seats.some((x) => sameName(x.player, ctx.me?.name)) || (listing.status === 'waiting' && seats.some((x) => x.player === null || x.player === undefined)));
    });
    if (!tables.length && all.length) {
      replaceChildren(tablesList, el('p', { class: 'empty-note' }, tParts('No table has a free seat right now — create one, or {button} to watch.', {
        button: el('button', { type: 'button', class: 'btn btn-small', text: t('show all tables'), onclick: () => { filterSelect.value = 'all'; renderTables(listed); } }),
      })));
      return;
    }
    if (!tables.length) {
      replaceChildren(tablesList, el('p', { class: 'empty-note', text: mineIds.size ? t('No other open tables — create one!') : t('No open tables yet — create one!') }));
      return;
    }
    // Tables still gathering players first, finished ones last.
    /** @type {Record<string, number>} */
    const order = { waiting: 0, playing: 1, finished: 2 };
    const sorted = [...tables].sort((a, b) => (order[a.status] ?? 1) - (order[b.status] ?? 1));
    replaceChildren(tablesList, sorted.map(tableCard));
  }

  /** @param {TableListing} table */
  function tableCard(table) {
    const id = String(table.table ?? '');
    const seats = Array.isArray(table.seats) ? table.seats.filter(isPlainObject) : [];
    const mine = seats.some((s) => sameName(s.player, ctx.me?.name));
    const hasRoom = seats.some((s) => s.player === null || s.player === undefined);
    const open = table.status !== 'finished';
    // Only the options that differ from the game's defaults say something about the table.
    const defaults = new Map((games.find((g) => g.id === table.game)?.options || []).filter(isPlainObject).map((o) => [o.name, o.default]));
    const options = isPlainObject(table.options)
      ? Object.entries(table.options).filter(([k, v]) => !defaults.has(k) || JSON.stringify(defaults.get(k)) !== JSON.stringify(v))
      : [];
    return el('article', { class: 'table-card', 'data-testid': 'table-row', 'data-table': id, 'data-game': String(table.game ?? '') },
      el('div', { class: 'table-card-head' },
        el('strong', { class: 'table-card-game', text: ctx.gameName(table.game) }),
        statusBadge(table.status),
        table.private === true ? el('span', { class: 'badge badge-private', text: t('private') }) : null,
        el('span', { class: 'muted small', text: t('{table} · host {host}', { table: tableTitleCapital(id), host: displayName(table.host) ?? '?' }) })),
      options.length ? el('div', { class: 'muted small table-card-options', text: options.map(([k, v]) => t('{option}: {value}', { option: tWord(humanise(k)), value: formatOption(v) })).join(' · ') }) : null,
      el('div', { class: 'seat-chips' }, seats.length ? seats.map(seatChip) : el('span', { class: 'muted small', text: t('no seats') })),
      el('div', { class: 'table-card-foot' },
        el('span', { class: 'muted small', 'data-testid': 'seats-taken', text: `${tn(takenSeats(seats), '{n} of {total} seats taken', '{n} of {total} seats taken', { total: seats.length })} · ${tn(Number(table.spectators) || 0, '{n} watching', '{n} watching')}` }),
        el('span', { class: 'spacer' }),
        el('button', {
          type: 'button', class: 'btn btn-primary btn-small', disabled: !(open && (mine || (table.status === 'playing' ? table.late_join === true : hasRoom))), 'data-testid': 'join',
          text: mine ? t('Back to my seat') : table.status === 'playing' ? t('Join at the next deal') : t('Join'),
          onclick: () => {
            // The table page sends the `join`; marking the intent here makes it join rather than watch.
            markSeated(ctx.me?.name, id, true);
            ctx.navigate(href.table(id));
          },
        }),
        el('button', {
          type: 'button', class: 'btn btn-small', text: t('Watch'), 'data-testid': 'watch',
          onclick: () => {
            if (!mine) markSeated(ctx.me?.name, id, false);
            ctx.navigate(href.table(id));
          },
        })));
  }

  /** @param {Game[]} list */
  function renderGames(list) {
    games = list;
    if (!games.length) {
      replaceChildren(gamesGrid, el('p', { class: 'empty-note', text: t('The server offers no games.') }));
      return;
    }
    replaceChildren(gamesGrid, games.map((game) => el('article', { class: 'game-card', id: `game-${game.id}`, 'data-game': game.id },
      el('div', { class: 'game-card-head' },
        el('strong', { text: tWord(game.name || humanise(game.id)) }),
        el('span', { class: 'muted small', text: playersRange(game) })),
      Array.isArray(game.aliases) && game.aliases.length ? el('div', { class: 'muted small game-aliases', 'data-zone': 'game-aliases', text: t('Also: {names}', { names: game.aliases.map(tWord).join(', ') }) }) : null,
      game.summary ? el('p', { class: 'game-card-summary', text: tWord(game.summary) }) : null,
      optionList(game),
      el('div', { class: 'game-card-foot' },
        game.source ? el('span', { class: 'muted small', text: t('Rules after {source}', { source: sourceName(game.source) }) }) : el('span'),
        el('button', {
          type: 'button', class: 'btn btn-small', text: t('New table'),
          onclick: () => {
            createForm.selectGame(game.id);
            createForm.element.scrollIntoView({ behavior: 'smooth', block: 'start' });
          },
        })))));
    createForm.setGames(games);
    if (params.game && games.some((g) => g.id === params.game)) {
      createForm.selectGame(params.game);
      const card = gamesGrid.querySelector(`[data-game="${CSS.escape(params.game)}"]`);
      card?.classList.add('is-chosen');
      card?.scrollIntoView({ block: 'center' });
    }
  }

  return {
    element,
    title: t('Lobby'),
    start() {
      ctx.loadGames().then(renderGames).catch((error) => {
        replaceChildren(gamesGrid, el('p', { class: 'empty-note', text: t('Could not load the games.') }));
        ctx.banner.error(error);
      });
      refresh(true);
      clearInterval(timer ?? undefined);
      timer = setInterval(() => refresh(false), REFRESH_MS);
    },
    resume() {
      if (!games.length) this.start?.();
      else refresh(false);
    },
    destroy() {
      clearInterval(timer ?? undefined);
      timer = null;
    },
  };
}

/**
 * The game's options and their defaults, folded away under the summary.
 * @param {Game} game
 */
function optionList(game) {
  const options = Array.isArray(game.options) ? game.options.filter((o) => isPlainObject(o) && o.name) : [];
  if (!options.length) return null;
  return el('details', { class: 'game-options' },
    el('summary', { text: tn(options.length, '{n} option', '{n} options') }),
    el('dl', {}, options.map((o) => [
      el('dt', {}, tWord(humanise(o.name)), el('span', { class: 'muted small', text: ` ${optionDefault(o)}` })),
      o.description ? el('dd', { text: tWord(o.description) }) : null,
    ])));
}

/**
 * "(default 5; 3–9)": an option's default and the values it takes.
 * @param {GameOption} o
 */
function optionDefault(o) {
  const value = formatOption(o.default);
  if (Array.isArray(o.choices)) return t('(default {value}; {choices})', { value, choices: o.choices.map(formatOption).join(', ') });
  if (Number.isFinite(o.min) || Number.isFinite(o.max)) return t('(default {value}; {min}–{max})', { value, min: o.min ?? '…', max: o.max ?? '…' });
  return t('(default {value})', { value });
}

/** @param {string} status */
function statusBadge(status) {
  const known = ['waiting', 'playing', 'finished'].includes(status);
  /** @type {Record<string, string>} */
  const words = { waiting: t('waiting'), playing: t('playing'), finished: t('finished') };
  return el('span', { class: `badge badge-status${known ? ` status-${status}` : ''}`, text: known ? words[status] : status ?? t('unknown') });
}

/** @param {TableSeat} seat */
function seatChip(seat) {
  if (seat.player === null || seat.player === undefined) {
    return el('span', { class: 'seat-chip seat-chip-empty', text: t('open seat') });
  }
  return el('span', { class: 'seat-chip' },
    el('span', { class: `dot ${seat.connected ? 'dot-on' : 'dot-off'}`, title: seat.connected ? t('connected') : t('disconnected'), role: 'img', 'aria-label': seat.connected ? t('connected') : t('disconnected') }),
    displayName(String(seat.player), seat.seat),
    seat.away === true ? el('span', { class: 'badge badge-away', text: t('away') }) : null);
}

/** @param {Partial<Game>} game */
function playersRange(game) {
  const min = game.min_players;
  const max = game.max_players;
  if (min === undefined && max === undefined) return '';
  // English says "players" whatever the count; other languages may not.
  if (min === max && min !== undefined) return tn(min, '{n} players', '{n} players');
  return t('{min}–{max} players', { min: min ?? '?', max: max ?? '?' });
}

/** @param {unknown} value */
function formatOption(value) {
  if (typeof value === 'boolean') return value ? t('yes') : t('no');
  // A choice the game names in words ("aces high") is the server's word.
  if (typeof value === 'string') return tWord(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

// ---------------------------------------------------------------------------
// The create-table form. Options are drawn from the game's own description
// (PROTOCOL.md `games`), so new games and options need no client change.

/** @param {AppContext} ctx */
function createTableForm(ctx) {
  /** @type {Game[]} */
  let games = [];
  /** @type {OptionReader[]} */
  let readers = []; // functions returning [name, value] or null, one per option
  const gameSelect = el('select', { name: 'game', required: true, onchange: () => showGame() });
  const summary = el('p', { class: 'hint' });
  const optionsBox = el('div', { class: 'options-box' });
  const seatsInput = el('input', { type: 'number', name: 'seats', step: 1, placeholder: t('default') });
  const seedInput = el('input', { type: 'number', name: 'seed', step: 1, placeholder: t('random') });
  const privateBox = el('input', { type: 'checkbox', name: 'private' });
  // The turn clock (docs/protocol.md "Turn clock and away"): empty fields keep the server's defaults.
  const clockSeconds = el('input', { type: 'number', name: 'clock_seconds', step: 1, min: 0, max: 3600, placeholder: '90', 'data-testid': 'clock-seconds' });
  const clockBank = el('input', { type: 'number', name: 'clock_bank', step: 1, min: 0, max: 36000, placeholder: '0', 'data-testid': 'clock-bank' });
  const clockAway = el('input', { type: 'number', name: 'clock_away_after', step: 1, min: 1, max: 20, placeholder: '2', 'data-testid': 'clock-away-after' });
  const submit = el('button', { type: 'submit', class: 'btn btn-primary', text: t('Create table'), disabled: true });

  const element = el('form', { class: 'create-form', 'data-testid': 'create-table', onsubmit: onSubmit },
    el('label', { class: 'field-label' }, t('Game'), gameSelect),
    summary,
    optionsBox,
    el('label', { class: 'field-label' }, t('Seats (optional)'), seatsInput),
    el('label', { class: 'field-label' }, t('Seed (optional, replays the same deals)'), seedInput),
    el('fieldset', { class: 'clock-fields' },
      el('legend', { text: t('Turn clock') }),
      el('label', { class: 'field-label' }, t('Seconds per move (0: no clock)'), clockSeconds),
      el('label', { class: 'field-label' }, t('Time bank, seconds for the whole table'), clockBank),
      el('label', { class: 'field-label' }, t('Missed turns before a bot plays the seat'), clockAway)),
    el('label', { class: 'check-label' }, privateBox,
      el('span', {}, tParts('Private {note}', { note: el('span', { class: 'muted small', text: t('— not listed; players join with the invite link') }) }))),
    submit);

  function currentGame() {
    return games.find((g) => g.id === gameSelect.value) || null;
  }

  function showGame() {
    const game = currentGame();
    summary.textContent = game ? [playersRange(game), game.summary ? tWord(game.summary) : ''].filter(Boolean).join(' — ') : '';
    readers = [];
    replaceChildren(optionsBox);
    const options = Array.isArray(game?.options) ? game.options.filter((o) => isPlainObject(o) && o.name) : [];
    if (options.length) optionsBox.append(el('h3', { class: 'options-title', text: t('Options') }));
    for (const option of options) {
      const { field, read } = optionField(option);
      optionsBox.append(field);
      readers.push(read);
    }
    seatsInput.min = String(Number.isInteger(game?.min_players) ? game.min_players : 1);
    if (Number.isInteger(game?.max_players)) seatsInput.max = String(game.max_players);
    else seatsInput.removeAttribute('max');
    seatsInput.placeholder = Number.isInteger(game?.max_players) ? t('default (up to {max})', { max: game.max_players }) : t('default');
    submit.disabled = !game;
  }

  /** @param {SubmitEvent} event */
  async function onSubmit(event) {
    event.preventDefault();
    const game = currentGame();
    if (!game || !element.reportValidity()) return;
    /** @type {Record<string, unknown>} */
    const options = {};
    for (const read of readers) {
      const pair = read();
      if (pair) options[pair[0]] = pair[1];
    }
    // Values as the game's options describe them (an option of a type this client does not know goes as typed).
    /** @type {CreateRequest} */
    const request = { game: game.id, options: /** @type {Record<string, OptionValue>} */ (options) };
    if (seatsInput.value.trim() !== '') request.seats = Number(seatsInput.value);
    if (seedInput.value.trim() !== '') request.seed = Number(seedInput.value);
    if (privateBox.checked) request.private = true;
    /** @type {Record<string, number>} */
    const clock = {};
    for (const [name, input] of /** @type {[string, HTMLInputElement][]} */ ([['seconds', clockSeconds], ['bank', clockBank], ['away_after', clockAway]]))
      if (input.value.trim() !== '') clock[name] = Number(input.value);
    if (Object.keys(clock).length) request.clock = clock;
    submit.disabled = true;
    try {
      const created = await ctx.conn.request('create', request);
      const table = String(created.table);
      rememberInvite(table, created.invite);
      // The creator is the host but not yet seated; the table page joins on arrival.
      markSeated(ctx.me?.name, table, true);
      ctx.navigate(href.table(table));
    } catch (error) {
      ctx.banner.error(error);
    } finally {
      submit.disabled = false;
    }
  }

  return {
    element,
    /** @param {Game[]} list */
    setGames(list) {
      games = list.filter((g) => isPlainObject(g) && g.id);
      const previous = gameSelect.value;
      replaceChildren(gameSelect, games.map((g) => el('option', { value: g.id, text: tWord(g.name || humanise(g.id)) })));
      if (games.some((g) => g.id === previous)) gameSelect.value = previous;
      showGame();
    },
    /** @param {string} id */
    selectGame(id) {
      if (games.some((g) => g.id === id)) {
        gameSelect.value = id;
        showGame();
      }
    },
  };
}

/**
 * One option → a labelled input and a reader for its value.
 * @param {GameOption} option
 * @returns {{field: HTMLElement, read: OptionReader}}
 */
function optionField(option) {
  const label = tWord(humanise(option.name));
  const hint = option.description ? el('span', { class: 'hint', text: tWord(option.description) }) : null;
  const type = option.type;

  if (type === 'bool') {
    const input = el('input', { type: 'checkbox', name: option.name, checked: option.default === true });
    return {
      field: el('div', { class: 'option' }, el('label', { class: 'check-label' }, input, el('span', { text: label })), hint),
      read: () => [option.name, input.checked],
    };
  }

  if (type === 'enum' && Array.isArray(option.choices) && option.choices.length) {
    // Options are indexed so a numeric choice (e.g. hand size 5) goes back as a number.
    const select = el('select', { name: option.name },
      option.choices.map((choice, index) => el('option', { value: String(index), text: formatOption(choice) })));
    const initial = option.choices.findIndex((c) => c === option.default);
    select.value = String(initial >= 0 ? initial : 0);
    return {
      field: el('div', { class: 'option' }, el('label', { class: 'field-label' }, label, select), hint),
      read: () => [option.name, /** @type {OptionValue[]} */ (option.choices)[Number(select.value)]],
    };
  }

  if (type === 'int') {
    const input = el('input', { type: 'number', name: option.name, step: 1 });
    if (Number.isFinite(option.min)) input.min = String(option.min);
    if (Number.isFinite(option.max)) input.max = String(option.max);
    if (Number.isFinite(option.default)) input.value = String(option.default);
    if (Number.isFinite(option.min) && Number.isFinite(option.max)) input.title = `${option.min}–${option.max}`;
    return {
      field: el('div', { class: 'option' }, el('label', { class: 'field-label' }, rangeLabel(label, option), input), hint),
      read: () => (input.value.trim() === '' ? null : [option.name, Number(input.value)]),
    };
  }

  // An option type this client doesn't know: a text box, sent as JSON when it parses.
  const input = el('input', { type: 'text', name: option.name });
  if (option.default !== undefined && option.default !== null) {
    input.value = typeof option.default === 'string' ? option.default : JSON.stringify(option.default);
  }
  return {
    field: el('div', { class: 'option' }, el('label', { class: 'field-label' }, label, input), hint),
    read: () => {
      const raw = input.value.trim();
      if (raw === '') return null;
      try {
        return [option.name, JSON.parse(raw)];
      } catch {
        return [option.name, raw];
      }
    },
  };
}

/**
 * @param {string} label
 * @param {GameOption} option
 */
function rangeLabel(label, option) {
  const hasMin = Number.isFinite(option.min);
  const hasMax = Number.isFinite(option.max);
  if (!hasMin && !hasMax) return label;
  return el('span', {}, label, ' ', el('span', { class: 'muted small', text: `(${hasMin ? option.min : '…'}–${hasMax ? option.max : '…'})` }));
}
