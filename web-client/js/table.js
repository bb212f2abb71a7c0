// @ts-check
// The table page: one table's `state`, drawn generically for any game, with
// the viewer's legal actions as buttons and the host's controls.
//
// Arriving at a table sends `join` when this browser holds (or wants) a seat
// there and `watch` otherwise; after a reconnect the same request is sent
// again, and the server answers a held seat with the same seat and a fresh state.

import { el, isPlainObject, replaceChildren, sameName } from './dom.js';
import { makeContext, seatName } from './render.js';
import { createLayout, layoutNameOf } from './layouts/index.js';
import { seatCount, waitingTable } from './layouts/common.js';
import { logLine } from './log.js';
import { renderActions } from './actions.js';
import { renderResult, resultHeadline } from './result.js';
import { createChatPanel } from './chat.js';
import { renderStandings } from './standings.js';
import { href, inviteUrl } from './router.js';
import { inviteFor, isSeated, markSeated, rememberInvite } from './store.js';
import { rememberCommitment, verifyTable } from './fair.js';
import { showVerdict } from './replay.js';
import { displayName, tableTitle, tableTitleCapital } from './names.js';
import { helpPanel } from './help.js';
import { errorCode, errorMessage, plainError } from './banner.js';
import { play as playSound, setSound, soundOn } from './sound.js';
import { notificationsSupported, notifyBlocked, notifyOn, notifyTurn, setNotify } from './notify.js';
import { numberMoves, renderTextTable, setTextMode, textModeOn } from './text_table.js';
import { t, tn, tWord } from './i18n.js';

/** @typedef {import('../types/wire').State} State */
/** @typedef {import('../types/wire').Result} Result */
/** @typedef {import('../types/wire').RequestMap} RequestMap */
/** @typedef {import('../types/wire').ReplyMap} ReplyMap */
/** @typedef {import('../types/wire').Joined} Joined */
/** @typedef {import('../types/wire').Watching} Watching */
/** @typedef {import('./connection.js').RequestError} RequestError */
/** @typedef {import('./render.js').RenderContext} RenderContext */
/** @typedef {import('./app.js').AppContext} AppContext */
/** @typedef {import('./app.js').Page} Page */
/** @typedef {import('./layouts/index.js').Layout} Layout */
/** @typedef {import('./layouts/index.js').Selection} Selection */

const LOG_LINES = 50;
// Errors that mean "the connection went away": the reconnect logic retries on its own.
/** @type {Set<string | undefined>} */
const NETWORK_CODES = new Set(['offline', 'disconnected', 'timeout']);

/**
 * params: {table} for #/table/ID, or {invite} for #/invite/CODE.
 * @param {AppContext} ctx
 * @param {{table?: string, invite?: string}} params
 * @returns {Page}
 */
export function createTablePage(ctx, params) {
  let tableId = params.table ? String(params.table) : null;
  const inviteCode = params.invite ? String(params.invite) : null;
  // Null until the first push; everything that reads it runs after `onState`
  // (render and what it calls), or checks it first (the key handler, `watch`).
  let state = /** @type {State} */ (/** @type {unknown} */ (null));
  let busy = false;
  let watching = false;
  let reclaimTried = false; // one automatic re-join per visit, see onState
  /** @type {string | null} */
  let legalKey = null;
  /** @type {ReturnType<typeof renderActions> | null} */
  let actionsUi = null;
  /** @type {Layout | null} */
  let layout = null;
  /** @type {Selection | null} */
  let selection = null; // the layout's UI memory (selected cards) across pushes
  let botLevel = '1';
  // The viewer's own arrangement of the hand (sorted, or dragged into order) and the card just drawn.
  /** @type {import('./layouts/common.js').Arrange} */
  const arrange = { sort: null, order: null, rerender: () => render() };
  let helpOpen = false;
  let wasMyTurn = false;
  /** @type {number | null} */
  let lastLogCount = null;
  /** @type {boolean | null} */
  let hadResult = null;
  // An act whose reply was lost with the connection: resent once, with the same
  // action_id, when we are back; the server answers it without applying it twice.
  /** @type {import('../types/wire').ActRequest | null} */
  let unanswered = null;

  /** The table's id, for the code that runs only once it is known (a table's own
   *  address, or after the invite's `join` answered with it). */
  function knownTableId() {
    return /** @type {string} */ (tableId);
  }

  const head = el('div', { class: 'table-head panel' });
  const turnText = el('span', { class: 'turn-text', text: '' });
  const turnTimer = el('span', { class: 'turn-timer', hidden: true });
  const moveTimer = el('span', { class: 'turn-timer move-timer', 'data-testid': 'move-timer', hidden: true });
  // Shown while the server plays my seat because my clock ran out (docs/protocol.md "Turn clock and away").
  const backButton = el('button', { type: 'button', class: 'btn btn-small btn-back', 'data-action': 'back', hidden: true, text: t("I'm back") });
  backButton.addEventListener('click', () => command('back', { table: knownTableId() }));
  const turnZone = el('div', { class: 'turn-banner', 'data-zone': 'turn', role: 'status', 'aria-live': 'polite' }, turnText, turnTimer, backButton);
  const felt = el('div', { class: 'felt' });
  // The text table (text_table.js): the felt in words, for a screen reader or the keyboard alone.
  const textPanel = el('div', { class: 'text-holder', hidden: true });
  const textAnnounce = el('div', { class: 'sr-only', 'aria-live': 'polite', 'data-testid': 'text-announce' });
  /** @type {HTMLInputElement | null} */
  let moveBox = null;
  const actionsPanel = el('div', { class: 'actions-panel panel', 'data-zone': 'actions' });
  const resultPanel = el('div', { class: 'result-panel panel', hidden: true });
  const helpHolder = el('div', { class: 'help-holder', hidden: true });
  // Shown over the table while the connection is down: what is drawn may be out of date.
  const offlineNote = el('div', { class: 'offline-note', role: 'status', hidden: true }, t('Reconnecting…'));
  // The last deal's result stays on show while the next deal runs, even in games that clear it when dealing.
  /** @type {Result | null} */
  let lastResult = null;
  const invitePanel = el('div', { class: 'invite-panel panel', hidden: true });
  // "Verify deals" on a finished table: the revealed seed checked here (fair.js).
  const verifyPanel = el('div', { class: 'panel verify-panel', 'data-zone': 'verify', hidden: true });
  const logList = el('ol', { class: 'log-list', tabindex: '0', 'aria-label': t('Table log, newest last') });
  // Screen readers hear each new line once, not the whole list on every redraw.
  const logAnnounce = el('div', { class: 'sr-only', 'aria-live': 'polite' });
  /** @type {string | null} */
  let lastLogLine = null;
  const logPanel = el('div', { class: 'log-panel panel', 'data-zone': 'log' }, el('h3', { class: 'panel-title', text: t('Log') }), logList, logAnnounce);
  const chatPanel = createChatPanel(ctx, () => knownTableId());
  const standingsPanel = el('div', { class: 'standings-holder', hidden: true });

  // Hidden while the page shows only a message (opening, or refused): a table we
  // may not see offers no felt and no chat.
  const tableArea = el('div', { class: 'table-layout', hidden: true },
    el('div', { class: 'table-main' }, standingsPanel, offlineNote, textPanel, felt, actionsPanel, helpHolder, resultPanel, textAnnounce),
    el('aside', { class: 'table-side' }, invitePanel, verifyPanel, chatPanel.element, logPanel));
  const element = el('div', { class: 'table-page', 'data-table': tableId ?? '', 'data-phase': '', 'data-your-turn': 'false' },
    head,
    turnZone,
    tableArea,
    chatPanel.badge);
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timerTick;

  const offConnection = ctx.conn.on('status', ({ status }) => showConnection(status));
  /** @param {string} status */
  function showConnection(status) {
    const down = status !== 'online';
    element.classList.toggle('is-offline', down);
    offlineNote.hidden = !down;
    element.dataset.connection = down ? 'reconnecting' : 'connected';
    // Back online: errors about the lost connection are history.
    if (!down) ctx.banner.clearErrors();
  }

  document.addEventListener('keydown', onKey);

  showMessage(tableId ? t('Opening {table}…', { table: tableTitle(tableId) }) : t('Joining by invite…'));

  // -- talking to the server ------------------------------------------------

  async function enter() {
    if (!tableId) {
      await enterByInvite();
      return;
    }
    try {
      await enterTable();
    } finally {
      if (ctx.conn.isOpen) resendUnanswered();
    }
  }

  /** A private table is joined through its invite (its id alone is refused): the one we know, if any. */
  function joinFields() {
    const code = inviteFor(tableId);
    return code ? { invite: code } : { table: knownTableId() };
  }

  async function enterTable() {
    // Read the wish to sit before drawing a cached state, which may predate our seat.
    const wantSeat = isSeated(ctx.me?.name, knownTableId());
    renderCached();
    if (wantSeat) {
      try {
        const reply = await ctx.conn.request('join', joinFields());
        seatedBy(reply);
        return; // seated, or watching with our place in line
      } catch (error) {
        if (NETWORK_CODES.has(errorCode(error))) return;
        markSeated(ctx.me?.name, knownTableId(), false);
        if (errorCode(error) !== 'not_found') ctx.banner.error(error);
        // No seat to be had (full, already playing…): still show the table.
      }
    }
    await watch();
  }

  async function enterByInvite() {
    if (!inviteCode) return showMessage(t('No table was given.'));
    try {
      const joined = await ctx.conn.request('join', { invite: inviteCode });
      tableId = String(joined.table);
      element.dataset.table = tableId;
      rememberInvite(tableId, inviteCode);
      seatedBy(joined);
      // Show the table's own address without re-running the route (and re-joining).
      ctx.replaceRoute(href.table(tableId));
      renderCached();
    } catch (error) {
      if (NETWORK_CODES.has(errorCode(error))) return;
      showMessage(errorCode(error) === 'not_found' ? t('This invite link is not valid (any more).') : t('Could not join with this invite.'), error);
    }
  }

  /**
   * A `join` answers `joined` with a seat, or, at a table in play, `watching`
   * with the reason (and our place in line where the game takes players between
   * deals: the seat comes with the next deal). True when we hold a seat.
   * @param {Joined | Watching} reply
   */
  function seatedBy(reply) {
    if (reply?.type === 'watching') {
      markSeated(ctx.me?.name, knownTableId(), Number.isInteger(reply.waiting));
      watching = true;
      if (typeof reply.message === 'string') ctx.banner.notice(reply.message);
      return false;
    }
    markSeated(ctx.me?.name, knownTableId(), true);
    return true;
  }

  async function watch() {
    try {
      await ctx.conn.request('watch', { table: knownTableId() });
      watching = true;
    } catch (error) {
      if (NETWORK_CODES.has(errorCode(error))) return;
      if (!state) showMessage(errorCode(error) === 'not_found' ? t('There is no such table (it may have closed).') : t('Could not open {table}.', { table: tableTitle(tableId) }), error);
      else ctx.banner.error(error);
    }
  }

  /**
   * Send a request from a button, with every control disabled until the reply.
   * @template {keyof RequestMap} T
   * @param {T} type
   * @param {RequestMap[T]} fields
   * @param {(reply: ReplyMap[T]) => void} [after]
   * @param {(error: unknown) => void} [failed]
   */
  async function command(type, fields, after, failed) {
    if (busy) return;
    setBusy(true);
    try {
      const reply = await ctx.conn.request(type, fields);
      if (type === 'act') ctx.banner.clearErrors();
      if (after) after(reply);
    } catch (error) {
      if (failed) failed(error);
      ctx.banner.error(error);
    } finally {
      setBusy(false);
    }
  }

  function newActionId() {
    return `a${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  }

  /** @param {import('../types/wire').Action} action */
  function act(action) {
    const fields = { table: knownTableId(), action, action_id: newActionId() };
    unanswered = fields;
    command('act', fields, () => { unanswered = null; }, (error) => {
      if (!NETWORK_CODES.has(errorCode(error))) unanswered = null;
    });
  }

  function resendUnanswered() {
    if (!unanswered || String(unanswered.table) !== tableId) return;
    const fields = unanswered;
    unanswered = null;
    ctx.conn.request('act', fields).catch((error) => {
      if (!NETWORK_CODES.has(error.code)) ctx.banner.error(error);
    });
  }

  /** @param {boolean} value */
  function setBusy(value) {
    busy = value;
    element.classList.toggle('is-busy', value);
    actionsUi?.setBusy(value);
    // A control disabled for a reason of its own (data-blocked, say Start with too few seated) stays so.
    for (const button of head.querySelectorAll('button')) button.disabled = value || button.dataset.blocked === 'true';
  }

  /** @param {State} incoming */
  function onState(incoming) {
    if (!tableId || String(incoming.table) !== tableId) return;
    state = incoming;
    const me = ctx.me?.name;
    const listed = Array.isArray(state.players) && state.players.some((p) => isPlainObject(p) && sameName(p.player, me));
    if (Number.isInteger(state.seat)) {
      markSeated(me, knownTableId(), true);
    } else if (listed && !reclaimTried && state.status !== 'finished') {
      // We hold a seat here but came in as a spectator (e.g. a new browser tab):
      // `join` hands back the seat we already hold.
      reclaimTried = true;
      ctx.conn.request('join', { table: knownTableId() })
        .then(() => markSeated(me, knownTableId(), true))
        .catch((error) => { if (!NETWORK_CODES.has(error.code)) ctx.banner.error(error); });
    } else if (!listed) {
      // In line for a seat: after a reconnect or a restart we ask again.
      markSeated(me, knownTableId(), Number.isInteger(state.waiting));
    }
    if (typeof state.invite === 'string') rememberInvite(tableId, state.invite);
    // Kept so that, once the seed is revealed, the check is against what was sent to us.
    rememberCommitment(state);
    render();
  }

  function renderCached() {
    const cached = ctx.states.get(knownTableId());
    if (cached) onState(cached);
  }

  // -- drawing ---------------------------------------------------------------

  /**
   * @param {string} text
   * @param {unknown} [error]
   */
  function showMessage(text, error) {
    tableArea.hidden = true;
    turnZone.hidden = true;
    replaceChildren(head, el('div', { class: 'table-title' },
      el('h1', { text: text }),
      error ? el('p', { class: 'muted', text: plainError(error) }) : null,
      el('a', { href: href.lobby(), class: 'btn btn-small', text: t('Back to the lobby') })));
  }

  function render() {
    tableArea.hidden = false;
    turnZone.hidden = false;
    const rctx = makeContext(state);
    const me = ctx.me?.name;
    const mySeat = rctx.mySeat;
    const legal = Array.isArray(state.legal) ? state.legal.filter(isPlainObject) : [];
    // At a deal's end everyone may press Continue: that is not anyone's turn (no
    // "Your turn", no chime, no title mark); the felt says who won and who paid.
    const betweenDeals = legal.length > 0 && legal.every((a) => a.type === 'continue');
    const myMove = legal.length > 0 && !betweenDeals;
    const myTurn = myMove || (mySeat !== null && rctx.toAct.includes(mySeat) && !betweenDeals);
    const game = ctx.gameName(state.game);
    const view = isPlainObject(state.view) ? state.view : {};

    element.dataset.table = knownTableId();
    element.dataset.game = String(state.game ?? '');
    element.dataset.phase = String(view.phase ?? state.status ?? '');
    element.dataset.yourTurn = String(legal.length > 0);
    element.dataset.seq = String(state.seq ?? '');
    // A refused Start (or any error from the waiting table) is history once play begins.
    if (element.dataset.status === 'waiting' && state.status === 'playing') ctx.banner.clearErrors();
    element.dataset.status = String(state.status ?? '');
    const layoutName = layoutNameOf(state, ctx.games);
    if (!layout || layout.name !== layoutName || layout.game !== state.game) {
      layout = createLayout(layoutName);
      layout.name = layoutName;
      layout.game = state.game;
      selection = null;
    }
    renderHead(game, mySeat);
    renderTurn(rctx, myMove, betweenDeals);
    element.classList.toggle('my-turn', myTurn);
    felt.classList.toggle('felt-my-turn', myTurn);
    felt.dataset.family = layout.family;
    const legalKey = JSON.stringify(legal);
    if (!selection || selection.key !== legalKey) selection = { key: legalKey };
    const refocus = focusKey(felt);
    try {
      if (state.status === 'waiting') replaceChildren(felt, waitingTable(state, { ...rctx, me }, game));
      else replaceChildren(felt, layout.render(state, rctx, { act, legal, busy, selection, rerender: () => render(), me, arrange }));
    } catch (error) {
      // A layout bug must never hide the table: fall back to the generic drawing.
      console.warn('layout failed; drawing generically', error);
      // It stays for this table: the failing layout is not tried again on every push.
      layout = createLayout('generic');
      layout.name = layoutName;
      layout.game = state.game;
      replaceChildren(felt, layout.render(state, rctx, { act, legal, busy, selection, rerender: () => render(), me, arrange }));
    }
    restoreFocus(felt, refocus);
    const text = textModeOn() && state.status !== 'waiting';
    felt.hidden = text;
    textPanel.hidden = !text;
    element.dataset.textTable = String(text);
    replaceChildren(textPanel, text ? renderTextTable(state, rctx, { game, turn: turnText.textContent ?? '' }) : null);
    renderHelp(game);
    renderActionsPanel(rctx, myTurn);
    if (text && myMove && !wasMyTurn) {
      textAnnounce.textContent = tn(actionsUi?.count ?? 0, "Your turn. {n} move: type a move's number, then Enter.", "Your turn. {n} moves: type a move's number, then Enter.");
      moveBox?.focus();
    } else if (text && !myMove && wasMyTurn) textAnnounce.textContent = '';
    renderInvite();
    renderLog(rctx);
    chatPanel.update(state);
    renderEnd(mySeat);
    if (state.result !== undefined && state.result !== null) lastResult = state.result;
    const result = lastResult !== null ? renderResult(lastResult, rctx) : null;
    resultPanel.hidden = !result;
    replaceChildren(resultPanel, result);
    ctx.setTitle(myTurn ? t('● Your turn — {game} at {table}', { game, table: tableTitle(tableId) }) : t('{game} at {table}', { game, table: tableTitle(tableId) }));
    setBusy(busy); // freshly built buttons inherit a request still in flight
    cues(myMove);
    if (myMove && !wasMyTurn) requestAnimationFrame(revealTurn);
    wasMyTurn = myMove;
  }

  /**
   * Sounds: a chime when my turn starts, a tick when a card is played, a flourish for a result.
   * @param {boolean} mine
   */
  function cues(mine) {
    const logCount = Array.isArray(state.log) ? state.log.length : 0;
    const hasResult = state.result !== undefined && state.result !== null;
    if (mine && !wasMyTurn) {
      playSound('turn');
      notifyTurn(t('Your turn at {table}', { table: tableTitle(tableId) }), t('{game}: it is your move.', { game: ctx.gameName(state.game) }), `parlour-turn-${knownTableId()}`);
    }
    else if (hasResult && hadResult === false) playSound('result');
    else if (lastLogCount !== null && logCount > lastLogCount) playSound('play');
    lastLogCount = logCount;
    hadResult = hasResult;
  }

  /**
   * My turn has started: bring the table's middle (pot, upcard; the building games'
   * opponent piles, which may be targets), my hand and my moves into view together,
   * without moving the page if they already are. A felt whose moves are all made on
   * it leaves the move list out.
   */
  function revealTurn() {
    if (!element.isConnected) return;
    const movesOnFelt = felt.querySelector('[data-moves-on-felt="true"]') !== null;
    const parts = [felt.querySelector('.felt-center'), felt.querySelector('[data-zone="hand"]'), movesOnFelt ? null : actionsPanel]
      .filter(/** @returns {node is Element} */ (node) => node !== null && node.getClientRects().length > 0);
    if (!parts.length) return;
    const rects = parts.map((node) => node.getBoundingClientRect());
    const top = Math.min(...rects.map((r) => r.top));
    const bottom = Math.max(...rects.map((r) => r.bottom));
    const header = document.getElementById('header');
    const covered = header && getComputedStyle(header).position === 'sticky' ? header.getBoundingClientRect().bottom : 0;
    if (top >= covered && bottom <= window.innerHeight) return;
    // Top of the block under the sticky header; if it is taller than the screen, keep the hand and the moves.
    const room = window.innerHeight - covered;
    const shift = bottom - top <= room ? top - covered - 4 : bottom - window.innerHeight + 4;
    window.scrollBy({ top: shift, behavior: 'instant' });
  }

  /** @param {string} game */
  function renderHelp(game) {
    helpHolder.hidden = !helpOpen;
    if (!helpOpen) return;
    if (helpHolder.dataset.game === String(state.game)) return;
    helpHolder.dataset.game = String(state.game);
    replaceChildren(helpHolder, helpPanel(state.game, game));
  }

  function toggleHelp() {
    helpOpen = !helpOpen;
    delete helpHolder.dataset.game;
    if (state) render();
    if (helpOpen) helpHolder.scrollIntoView({ block: 'nearest', behavior: 'instant' });
  }

  // -- keyboard shortcuts (listed in the help panel) ----------------------------

  /** The text table on or off (key T): the moves are numbered afresh, and the move box takes the focus. */
  function toggleTextTable() {
    setTextMode(!textModeOn());
    textAnnounce.textContent = textModeOn() ? t('Text table on.') : t('Text table off.');
    render();
    if (textModeOn()) (moveBox ?? textPanel.querySelector('h3'))?.focus?.();
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (!state || !element.isConnected || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    // Never while typing: chat, bet amounts, the invite box.
    // The text table's move box takes numbers only: a letter or ? typed there is a shortcut (T, S, D, ?).
    const inMoveBox = target instanceof HTMLElement && target.matches('.move-number-input') && /^[a-zA-Z?]$/.test(event.key);
    const typing = !inMoveBox && target instanceof HTMLElement && (target.isContentEditable || target.matches('input, textarea, select'));
    if (typing && !(event.key === 'Enter' && target.matches('.action-number')) && event.key !== 'Escape') return;
    const key = event.key;
    /** @param {string} selector */
    const click = (selector) => {
      const node = /** @type {HTMLButtonElement | null} */ (element.querySelector(selector));
      if (!node || node.disabled) return false;
      node.click();
      return true;
    };
    let done = false;
    if (key === 'Escape') {
      if (typing) return;
      if (selection) {
        selection = { key: selection.key };
        render();
        done = true;
      }
    } else if (key === '?') {
      toggleHelp();
      done = true;
    } else if (key === 't' || key === 'T') {
      toggleTextTable();
      done = true;
    } else if (key === 'd' || key === 'D') {
      done = click('[data-zone="actions"] button[data-action-type="draw"][data-action*="stock"]') ||
        click('[data-zone="stock"] .pile-button') || click('[data-zone="actions"] button[data-action-type="draw"]');
    } else if (key === 's' || key === 'S') {
      if (felt.querySelector('[data-testid="sort-suit"]')) {
        arrange.sort = arrange.sort === 'suit' ? 'rank' : 'suit';
        arrange.order = null;
        render();
        done = true;
      }
    } else if (key === 'Enter') {
      // Enter on a focused button presses that button; otherwise it confirms the selected move.
      if (target instanceof HTMLElement && target.matches('button, a') && !typing) return;
      done = click('[data-confirm="true"]') ||
        (typing && click(`[data-zone="actions"] button[data-action-type="${CSS.escape(target.dataset.actionType || '')}"]:not([data-action])`));
    } else if (/^[1-9]$/.test(key)) {
      const amount = /** @type {HTMLInputElement | null} */ (element.querySelector('[data-zone="actions"] input.action-number'));
      if (amount && !amount.disabled) {
        const value = Math.min(Number(amount.max) || Infinity, Math.max(Number(amount.min) || 0, Number(key)));
        amount.value = String(value);
        amount.dispatchEvent(new Event('input'));
        amount.focus();
        done = true;
      }
    }
    if (done) event.preventDefault();
  }

  /**
   * Why Start cannot be pressed yet, or '' when it can: the game's fewest
   * players, counted as the server counts them (a seat with a player or a bot).
   */
  function startShortfall() {
    const info = (ctx.games || []).find((g) => g.id === state.game);
    const fewest = Number.isInteger(info?.min_players) ? info.min_players : 2;
    const { taken, seats } = seatCount(state, makeContext(state));
    if (taken >= fewest) return '';
    const more = fewest - taken;
    return tn(more, 'Seat {n} more player or bot to start: {taken} of {seats} seats taken, {fewest} needed.',
      'Seat {n} more players or bots to start: {taken} of {seats} seats taken, {fewest} needed.', { taken, seats, fewest });
  }

  function takesLateJoiners() {
    const info = (ctx.games || []).find((g) => g.id === state.game);
    return info?.seats_change_between_deals === true;
  }

  /**
   * The host's "free a seat": a bot's seat, or an absent player's (disconnected
   * or away), goes to a new player or a bot — at the next deal in games that
   * take players between deals; in others the player is out of the game.
   * @param {string} status
   */
  function freeSeatControls(status) {
    const players = Array.isArray(state.players) ? state.players.filter(isPlainObject) : [];
    const candidates = players.filter((p) => !sameName(p.player, state.host) && !p.leaving &&
      (status === 'waiting' || p.bot || p.connected === false || p.away === true));
    if (!candidates.length) return [];
    const seatSelect = el('select', { class: 'free-seat', 'data-testid': 'free-seat', 'aria-label': t('Seat to free') },
      candidates.map((p) => el('option', { value: String(p.seat), text: displayName(p.player, p.seat) })));
    const late = takesLateJoiners();
    const replaceSelect = el('select', { class: 'free-seat-for', 'data-testid': 'free-seat-for', 'aria-label': t('Who takes it') },
      el('option', { value: 'open', text: status === 'waiting' || late ? t('for a new player') : t('out of the game') }),
      status !== 'waiting' && late ? el('option', { value: 'bot', text: t('for a bot') }) : null);
    const free = button(t('Free seat'), '', () => command('unseat', {
      table: knownTableId(), seat: Number(seatSelect.value), replace: /** @type {'open' | 'bot'} */ (replaceSelect.value), // its options' values
    }, () => ctx.banner.notice(status === 'playing' && late ? t('The seat changes hands when the next deal starts.') : t('The seat is free.'))), 'free-seat-go');
    return [seatSelect, replaceSelect, free];
  }

  /**
   * @param {string} game
   * @param {number | null} mySeat
   */
  function renderHead(game, mySeat) {
    const isHost = sameName(state.host, ctx.me?.name);
    const status = String(state.status ?? 'unknown');
    const buttons = [];
    if (mySeat === null && status === 'waiting') {
      buttons.push(button(t('Take a seat'), 'btn-primary', () => command('join', joinFields(), seatedBy)));
    }
    if (mySeat === null && status === 'playing' && takesLateJoiners() && !Number.isInteger(state.waiting)) {
      buttons.push(button(t('Ask for a seat'), 'btn-primary', () => command('join', joinFields(), seatedBy), 'ask-seat'));
    }
    if (isHost && (status === 'playing' || status === 'waiting')) buttons.push(...freeSeatControls(status));
    if (isHost && status === 'waiting') {
      const start = button(t('Start'), 'btn-primary', () => command('start', { table: knownTableId() }), 'start');
      const short = startShortfall();
      if (short) {
        // Disabled with its reason in view (and read with the button): a tap that would only be refused is not offered.
        start.disabled = true;
        start.dataset.blocked = 'true';
        start.title = short;
        start.setAttribute('aria-describedby', 'start-reason');
        buttons.push(start, el('span', { id: 'start-reason', class: 'muted small start-reason', 'data-testid': 'start-reason', text: short }));
      } else {
        buttons.push(start);
      }
    }
    if (isHost && status === 'waiting') {
      // A careful bot (level 1) plays the game's own strategy where it has one, else at random.
      const level = el('select', { class: 'bot-level', 'data-testid': 'bot-level', 'aria-label': t('Bot strength') },
        el('option', { value: '1', text: t('careful') }), el('option', { value: '0', text: t('random') }));
      level.value = botLevel;
      level.addEventListener('change', () => { botLevel = level.value; });
      buttons.push(level, button(t('Seat a bot'), '', () => command('bot', { table: knownTableId(), level: Number(botLevel) }), 'add-bot'));
    }
    if (isHost && status !== 'finished') {
      buttons.push(button(t('End table'), 'btn-danger', () => {
        if (window.confirm(t('End this table? Play stops after the current deal is settled (press again to stop at once).'))) command('end', { table: knownTableId() });
      }, 'end-table'));
    }
    if (status === 'finished' && Number.isInteger(state.fair?.deal)) {
      buttons.push(el('a', { href: href.replay(knownTableId()), class: 'btn', 'data-testid': 'replay', text: t('Replay') }));
      buttons.push(button(t('Verify deals'), '', () => verifyDeals(), 'verify-deals'));
    }
    const help = button(helpOpen ? t('Hide the rules') : t('How to play'), '', () => toggleHelp(), 'how-to-play');
    help.setAttribute('aria-expanded', String(helpOpen));
    help.title = t('The rules of this game and the keyboard shortcuts (key ?)');
    const sound = button(soundOn() ? t('Sound on') : t('Sound off'), 'btn-ghost-dark', () => { setSound(!soundOn()); render(); }, 'sound');
    sound.setAttribute('aria-pressed', String(soundOn()));
    sound.title = t('A chime when your turn starts and a tick for each play');
    buttons.unshift(help, sound);
    if (notificationsSupported()) {
      const on = notifyOn();
      const notify = button(on ? t('Notify on') : t('Notify off'), 'btn-ghost-dark', async () => {
        const now = await setNotify(!notifyOn());
        const blocked = !now && !on ? notifyBlocked() : '';
        if (blocked) ctx.banner.notice(blocked);
        render();
      }, 'notify');
      notify.setAttribute('aria-pressed', String(on));
      notify.title = t('A browser notification when your turn starts while this tab is in the background');
      buttons.splice(2, 0, notify);
    }
    const textOn = textModeOn();
    const textToggle = button(textOn ? t('Text table on') : t('Text table'), 'btn-ghost-dark', () => toggleTextTable(), 'text-table');
    textToggle.setAttribute('aria-pressed', String(textOn));
    textToggle.title = t('The table in words, moves by number: for a screen reader or the keyboard alone (key T)');
    buttons.splice(notificationsSupported() ? 3 : 2, 0, textToggle);
    const leave = button(t('Leave'), 'btn-leave', () => {
      // One mistaken tap must not end a hand for everyone: mid-deal, Leave asks first.
      const phase = String(state.view?.phase ?? '');
      const midDeal = mySeat !== null && status === 'playing' && phase !== 'deal_over' && phase !== 'game_over';
      if (midDeal && !window.confirm(t('Leave in the middle of a deal?\n\nThe deal goes on for everyone: a bot plays your hand to its end, with your chips. Your seat is given up when the next deal starts.'))) return;
      command('leave', { table: knownTableId() }, () => {
        markSeated(ctx.me?.name, knownTableId(), false);
        watching = false;
        ctx.navigate(href.lobby());
      });
    }, 'leave');
    if (mySeat !== null && status === 'playing') leave.title = t('Give up your seat (asks first in the middle of a deal)');
    buttons.push(leave);

    replaceChildren(head,
      el('div', { class: 'table-title' },
        el('h1', { text: game }),
        el('span', { class: `badge badge-status status-${status}`, text: tWord(status) }),
        mySeat === null ? el('span', { class: 'badge badge-watching', text: t('watching') }) : null),
      el('div', { class: 'table-meta muted small' },
        el('span', { text: tableTitleCapital(tableId) }),
        Number.isInteger(state.view?.deal) ? el('span', { text: t('deal {deal}', { deal: state.view.deal }) }) : null,
        el('span', { text: t('move {seq}', { seq: state.seq ?? '—' }) }),
        el('span', { text: t('host {name}', { name: displayName(state.host) ?? '—' }) }),
        el('a', { href: href.ledger(ctx.me?.name, knownTableId()), text: t('balances'), title: t('Every player\'s balance at this table (settle up)') }),
        replayLink(mySeat)),
      el('div', { class: 'table-buttons' }, buttons));
  }

  /**
   * While the table runs, a seated player may replay its last finished deal.
   * @param {number | null} mySeat
   */
  function replayLink(mySeat) {
    const started = state.fair?.deal;
    if (mySeat === null || state.status !== 'playing' || !Number.isInteger(started)) return null;
    const over = /** @type {(string | undefined)[]} */ (['deal_over', 'game_over']).includes(state.view?.phase);
    const last = over ? started : started - 1;
    if (last < 1) return null;
    return el('a', { href: href.replay(knownTableId(), last), 'data-testid': 'replay-deal-link', text: t('replay deal {deal}', { deal: last }) });
  }

  async function verifyDeals() {
    verifyPanel.hidden = false;
    replaceChildren(verifyPanel, el('p', { class: 'muted', text: t('Re-shuffling every deal…') }));
    try {
      showVerdict(verifyPanel, await verifyTable(ctx.conn, knownTableId()));
    } catch (error) {
      showVerdict(verifyPanel, { ok: false, lines: [t('Could not verify: {error}', { error: errorMessage(error) })] });
    }
  }

  /**
   * @param {RenderContext} rctx
   * @param {boolean} myTurn
   */
  function renderActionsPanel(rctx, myTurn) {
    const text = textModeOn() && state.status !== 'waiting';
    const key = JSON.stringify([state.legal ?? [], text]);
    // Same legal list as before: keep the controls so a half-typed bet survives unrelated pushes.
    if (key === legalKey && actionsUi) return;
    legalKey = key;
    // A keyboard player inside the move panel stays there when its moves change (a draw, then the discard).
    const focusWasHere = actionsPanel.contains(document.activeElement) || document.activeElement === document.body;
    actionsUi = renderActions(state.legal, rctx, act);
    moveBox = text && actionsUi.count ? numberMoves(actionsUi.element, (line) => { textAnnounce.textContent = line; ctx.banner.notice(line); }) : null;
    let note = null;
    if (!actionsUi.count) {
      actionsUi = null;
      note = el('p', { class: 'muted', text: idleText(rctx) });
    }
    replaceChildren(actionsPanel,
      el('h3', { class: 'panel-title' }, myTurn ? t('Your move') : t('Actions'), ' ', moveTimer),
      actionsUi ? actionsUi.element : note);
    if (text && moveBox && focusWasHere) moveBox.focus();
  }

  /** Whose turn, in words, and a countdown when the state carries a deadline. */
  /** For a person in line for a seat at a table in play (docs/protocol.md "Late joiners and open seats"). */
  function waitingLine() {
    return state.waiting === 1 ? t('You are next in line for a seat: you are dealt in when one is free at the start of a deal.')
      : t('You are number {place} in line for a seat; you are dealt in when one frees up.', { place: state.waiting });
  }

  /**
   * @param {RenderContext} rctx
   * @param {boolean} mine
   * @param {boolean} betweenDeals only Continue is offered: the deal is over
   */
  function renderTurn(rctx, mine, betweenDeals) {
    const view = isPlainObject(state.view) ? state.view : {};
    const headline = view.phase === 'deal_over' || betweenDeals ? resultHeadline(state.result, rctx) : null;
    let text;
    if (state.status === 'finished') text = t('The table has finished.');
    else if (state.status === 'waiting') {
      text = sameName(state.host, ctx.me?.name) ? t('Seat players or bots, then press Start.') : t('Waiting for the host to start the game.');
    }
    else if (betweenDeals) text = t('{headline} The next deal starts shortly — press Continue when you are ready.', { headline: headline ?? t('The deal is over.') });
    else if (headline && !rctx.toAct.length) text = t('{headline} The next deal starts shortly.', { headline });
    else if (mine) text = rctx.toAct.length > 1 ? t('Your turn (others may act too).') : t('Your turn!');
    else if (rctx.toAct.length) text = t('Waiting for {names}.', { names: rctx.toAct.map((seat) => seatName(rctx, seat)).join(', ') });
    else if (view.phase === 'deal_over') text = t('The deal is over — the next one starts shortly.');
    else if (view.phase === 'game_over') text = t('Game over.');
    else text = t('Waiting…');
    const myEntry = rctx.mySeat === null ? null : rctx.players.find((p) => p.seat === rctx.mySeat);
    const away = myEntry?.away === true && state.status === 'playing';
    backButton.hidden = !away;
    if (away) text = t('You are away: a bot plays for you. {text}', { text });
    if (rctx.mySeat === null && Number.isInteger(state.waiting) && state.status === 'playing') text = `${waitingLine()} ${text}`;
    turnText.textContent = text;
    turnZone.classList.toggle('is-mine', mine);
    turnZone.dataset.seats = rctx.toAct.join(',');
    // The server arms a turn timer for games with a time limit and says when it
    // runs out (docs/protocol.md: state.timer).
    const deadline = timerDeadline(state);
    clearInterval(timerTick);
    turnTimer.hidden = deadline === null;
    // My own clock is shown on my move panel too: on a phone the scroll that
    // brings my hand and moves into view takes the banner off the screen.
    const timerSeat = isPlainObject(state.timer) ? state.timer.seat : undefined;
    moveTimer.hidden = deadline === null || !mine || timerSeat !== rctx.mySeat;
    if (deadline !== null) {
      const tick = () => {
        const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
        for (const timer of [turnTimer, moveTimer]) {
          timer.textContent = t('{time} left', { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` });
          timer.classList.toggle('is-urgent', left <= 10);
        }
      };
      tick();
      timerTick = setInterval(tick, 500);
    }
  }

  /** @param {RenderContext} rctx */
  function idleText(rctx) {
    const isHost = sameName(state.host, ctx.me?.name);
    if (state.status === 'finished') return t('This table has finished.');
    if (state.status === 'waiting') {
      return isHost ? t('Seat players or bots, then press Start.') : t('Waiting for the host to start the game.');
    }
    const waitingFor = rctx.toAct.map((seat) => seatName(rctx, seat));
    if (rctx.mySeat === null && Number.isInteger(state.waiting)) return waitingLine();
    if (rctx.mySeat === null) return waitingFor.length ? t('You are watching. Waiting for {names}.', { names: waitingFor.join(', ') }) : t('You are watching.');
    return waitingFor.length ? t('Waiting for {names}.', { names: waitingFor.join(', ') }) : t('Nothing to do right now.');
  }

  /**
   * A finished table: its standings, the host's Rematch and everyone's "Join the rematch".
   * @param {number | null} mySeat
   */
  function renderEnd(mySeat) {
    const panel = state.status === 'finished' ? renderStandings(state, {
      me: ctx.me?.name,
      rematch: (sameSeed) => command('rematch', { table: knownTableId(), same_seed: sameSeed }, (created) => {
        // The host sits at the rematch where he sat here.
        if (mySeat !== null) markSeated(ctx.me?.name, String(created.table), true);
        if (typeof created.invite === 'string') rememberInvite(String(created.table), created.invite);
        ctx.navigate(href.table(String(created.table)));
      }),
      joinRematch: (table) => {
        // Players keep their seats at the rematch (the server holds them); watchers watch.
        if (mySeat !== null) markSeated(ctx.me?.name, table, true);
        ctx.navigate(href.table(table));
      },
    }) : null;
    standingsPanel.hidden = !panel;
    replaceChildren(standingsPanel, panel);
  }

  function renderInvite() {
    // The state's own invite (host and seated players) when this browser could not keep it.
    const code = inviteFor(tableId) ?? (typeof state.invite === 'string' ? state.invite : null);
    invitePanel.hidden = !code;
    if (!code) return;
    const link = inviteUrl(code);
    if (invitePanel.dataset.link === link) return; // keep the "Copied" feedback
    invitePanel.dataset.link = link;
    const input = el('input', {
      type: 'text', class: 'invite-input', readonly: true, value: link, onfocus: () => input.select(),
      'data-testid': 'invite-link', 'aria-label': t('Invite link'),
    });
    const copy = el('button', { type: 'button', class: 'btn btn-small', text: t('Copy'), onclick: () => copyText(link, input, copy) });
    replaceChildren(invitePanel,
      el('h3', { class: 'panel-title', text: t('Invite link') }),
      el('div', { class: 'invite-row' }, input, copy),
      el('p', { class: 'muted small', text: t('Anyone with this link can join.') }));
  }

  /** @param {RenderContext} rctx */
  function renderLog(rctx) {
    const lines = Array.isArray(state.log) ? state.log.slice(-LOG_LINES) : [];
    // Follow new lines only if the reader hasn't scrolled up to read older ones.
    const atBottom = logList.scrollHeight - logList.scrollTop - logList.clientHeight < 24;
    replaceChildren(logList, lines.map((line) => logLine(line, rctx)));
    const newest = lines.length ? logList.lastElementChild?.textContent ?? null : null;
    if (newest !== null && lastLogLine !== null && newest !== lastLogLine) logAnnounce.textContent = newest;
    lastLogLine = newest;
    if (!lines.length) logList.append(el('li', { class: 'muted', text: t('Nothing yet.') }));
    if (atBottom) logList.scrollTop = logList.scrollHeight;
  }

  return {
    element,
    title: tableId ? tableTitleCapital(tableId) : t('Invite'),
    start: () => { showConnection(ctx.conn.status); return enter(); },
    resume: enter,
    onState,
    destroy() {
      clearInterval(timerTick);
      offConnection();
      document.removeEventListener('keydown', onKey);
      // A spectator stops receiving pushes; a seated player keeps the seat
      // (leaving a seat is an explicit "Leave").
      if (watching && tableId && !isSeated(ctx.me?.name, tableId)) {
        ctx.conn.request('leave', { table: tableId }).catch(() => {});
      }
    },
  };
}

/**
 * @param {string} text
 * @param {string} extraClass
 * @param {() => void} onclick
 * @param {string} [testid]
 */
function button(text, extraClass, onclick, testid) {
  return el('button', { type: 'button', class: `btn ${extraClass}`.trim(), text, onclick, 'data-testid': testid ?? null });
}

/**
 * @param {string} text
 * @param {HTMLInputElement} input
 * @param {HTMLButtonElement} copyButton
 */
async function copyText(text, input, copyButton) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // The async clipboard needs a secure context; plain http on a LAN falls back here.
    input.select();
    try {
      document.execCommand('copy');
    } catch {
      /* the text stays selected for a manual copy */
    }
  }
  copyButton.textContent = t('Copied');
  setTimeout(() => { copyButton.textContent = t('Copy'); }, 1500);
}

/**
 * When the running turn's timer runs out (Unix ms), or null when no timer runs.
 * @param {State} state
 * @returns {number | null}
 */
function timerDeadline(state) {
  const timer = state.timer;
  if (!isPlainObject(timer) || state.status !== 'playing') return null;
  return typeof timer.ends_at === 'number' ? timer.ends_at : null;
}

/**
 * What had the keyboard focus inside the felt, so a redraw can give it back.
 * @param {HTMLElement} root
 * @returns {string | null}
 */
function focusKey(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  for (const attr of ['data-index', 'data-tool', 'data-meld', 'data-zone']) {
    const holder = active.closest(`[${attr}]`);
    if (holder && root.contains(holder)) return `[${attr}="${CSS.escape(holder.getAttribute(attr) ?? '')}"]`;
  }
  return null;
}

/**
 * @param {HTMLElement} root
 * @param {string | null} key
 */
function restoreFocus(root, key) {
  if (!key) return;
  const target = root.querySelector(key);
  // A button, input or select has `disabled`; anything else with a tabindex is always enabled.
  const focusable = /** @type {(HTMLElement & {disabled?: boolean}) | null} */ (
    target && (target.matches('button, input, select, [tabindex]') ? target : target.querySelector('button, input, select')));
  if (focusable && !focusable.disabled) focusable.focus({ preventScroll: true });
}
