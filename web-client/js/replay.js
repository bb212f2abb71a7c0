// @ts-check
// The replay page (#/replay/TABLE?deal=N): a deal of a table, step by step, as
// the viewer was allowed to see it — his own seat's view of a finished deal
// while the table runs, any seat's view once it has ended — drawn with the same
// layouts as the live table. Back/forward buttons, a slider, the arrow keys;
// each step's event in words and its log lines; "Download JSON" saves every
// deal the viewer may read (with the commitments this browser received), the
// file `parlour verify --history FILE` checks; "Verify deals" checks the
// revealed seed here (fair.js).

import { displayName, tableTitle } from './names.js';
import { el, isPlainObject, replaceChildren } from './dom.js';
import { makeContext, seatName } from './render.js';
import { createLayout, layoutNameOf } from './layouts/index.js';
import { logLine } from './log.js';
import { renderResult } from './result.js';
import { href } from './router.js';
import { fetchDeal, fetchWholeHistory, verifyTable } from './fair.js';
import { errorCode, errorMessage } from './banner.js';
import { t, tWord } from './i18n.js';

/** @typedef {import('../types/wire').State} State */
/** @typedef {import('../types/wire').History} History */
/** @typedef {import('../types/wire').HistoryStep} HistoryStep */
/** @typedef {import('../types/wire').HistoryEvent} HistoryEvent */
/** @typedef {import('./render.js').RenderContext} RenderContext */
/** @typedef {import('./app.js').AppContext} AppContext */
/** @typedef {import('./app.js').Page} Page */

/**
 * params: {table, deal?, verify?}.
 * @param {AppContext} ctx
 * @param {{table: string, deal?: number | null, verify?: boolean}} params
 * @returns {Page}
 */
export function createReplayPage(ctx, params) {
  const table = String(params.table);
  /** @type {History | null} */
  let doc = null; // the deal's history, every page merged
  let index = 0;
  let perspective = 0; // the seat whose view is shown, when every seat's may be
  /** @type {import('./layouts/index.js').Layout | null} */
  let layout = null;

  /** The history on show: what calls this runs only once `open` has loaded one. */
  function shown() {
    return /** @type {History} */ (doc);
  }

  const title = el('h1', { class: 'page-title', text: t('Replay of {table}', { table: tableTitle(table) }) });
  const meta = el('div', { class: 'table-meta muted small' });
  const dealPicker = el('select', { class: 'replay-deal', 'data-testid': 'replay-deal', 'aria-label': t('Deal') });
  dealPicker.addEventListener('change', () => open(Number(dealPicker.value)));
  const seatPicker = el('select', { class: 'replay-seat', 'data-testid': 'replay-seat', 'aria-label': t('Seen from'), hidden: true });
  seatPicker.addEventListener('change', () => { perspective = Number(seatPicker.value); draw(); });
  const prev = el('button', { type: 'button', class: 'btn', 'data-testid': 'replay-prev', text: t('◀ Back'), onclick: () => go(index - 1) });
  const next = el('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'replay-next', text: t('Forward ▶'), onclick: () => go(index + 1) });
  const slider = el('input', { type: 'range', class: 'replay-slider', 'data-testid': 'replay-slider', min: 0, max: 0, value: 0, 'aria-label': t('Step') });
  slider.addEventListener('input', () => go(Number(slider.value)));
  const stepLabel = el('span', { class: 'replay-step', 'data-testid': 'replay-step', 'aria-live': 'polite' });
  const eventText = el('p', { class: 'replay-event', 'data-testid': 'replay-event' });
  const stepLog = el('ol', { class: 'log-list', 'aria-label': t('What this step logged') });
  const felt = el('div', { class: 'felt' });
  const resultPanel = el('div', { class: 'result-panel panel', hidden: true });
  const download = el('button', { type: 'button', class: 'btn', 'data-testid': 'replay-download', text: t('Download JSON'), onclick: () => save() });
  const verifyButton = el('button', { type: 'button', class: 'btn', 'data-testid': 'verify-deals', text: t('Verify deals'), hidden: true, onclick: () => verify() });
  const verifyPanel = el('div', { class: 'panel verify-panel', 'data-zone': 'verify', hidden: true });
  const status = el('p', { class: 'muted', text: t('Loading the history…') });

  const element = el('div', { class: 'replay-page', 'data-zone': 'replay', 'data-table': table },
    el('div', { class: 'table-head panel' },
      el('div', { class: 'table-title' }, title),
      meta,
      el('div', { class: 'table-buttons' },
        el('label', { class: 'small' }, `${t('Deal')} `, dealPicker),
        el('label', { class: 'small' }, ` ${t('Seen from')} `, seatPicker),
        download, verifyButton,
        el('a', { href: href.table(table), class: 'btn btn-small', text: t('Back to the table') }))),
    el('div', { class: 'replay-controls panel' }, prev, slider, next, stepLabel),
    status,
    el('div', { class: 'table-layout' },
      el('div', { class: 'table-main' }, felt, resultPanel),
      el('aside', { class: 'table-side' },
        el('div', { class: 'panel' }, el('h3', { class: 'panel-title', text: t('This step') }), eventText, stepLog),
        verifyPanel)));

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === 'ArrowLeft') go(index - 1);
    if (event.key === 'ArrowRight') go(index + 1);
  }

  /** @param {number | null | undefined} deal */
  async function open(deal) {
    status.hidden = false;
    status.textContent = t('Loading the history…');
    try {
      doc = deal ? await fetchDeal(ctx.conn, table, deal) : await fetchDeal(ctx.conn, table, undefined);
    } catch (error) {
      status.textContent = errorCode(error) === 'forbidden' ? t('You may not replay this yet: {error}', { error: errorMessage(error) })
        : t('Could not load the history: {error}', { error: errorMessage(error) });
      element.dataset.error = errorCode(error) ?? 'error';
      return;
    }
    status.hidden = true;
    element.dataset.deal = String(doc.deal ?? '');
    const full = doc.viewer?.full === true;
    perspective = full ? (Number.isInteger(doc.viewer?.seat) ? doc.viewer.seat : perspective) : doc.viewer?.seat ?? 0;
    renderPickers(full);
    layout = null;
    index = 0;
    slider.max = String(Math.max(0, (doc.steps ?? []).length - 1));
    verifyButton.hidden = !(isPlainObject(doc.fair) && typeof doc.fair.seed === 'string');
    if (params.verify && !verifyButton.hidden && verifyPanel.hidden) verify();
    draw();
  }

  /** @param {boolean} full */
  function renderPickers(full) {
    const deals = (shown().deals ?? []).filter((d) => d.finished);
    replaceChildren(dealPicker, deals.map((d) => el('option', { value: String(d.deal), text: t('Deal {deal}', { deal: d.deal }) })));
    dealPicker.value = String(shown().deal ?? '');
    seatPicker.hidden = !full;
    replaceChildren(seatPicker, (shown().seats ?? []).map((s) => el('option', { value: String(s.seat), text: s.player ? displayName(s.player, s.seat) : t('Seat {seat}', { seat: s.seat }) })));
    seatPicker.value = String(perspective);
    const game = ctx.gameName(shown().game);
    title.textContent = t('Replay: {game} at {table}', { game, table: tableTitle(table) });
    replaceChildren(meta,
      el('span', { text: shown().status === 'finished' ? t('the table has ended: every hand is shown') : t('your own view of a finished deal') }),
      el('span', { text: t('host {name}', { name: displayName(shown().host) ?? '—' }) }));
  }

  /** @param {number} to */
  function go(to) {
    const steps = doc?.steps ?? [];
    if (!steps.length) return;
    index = Math.max(0, Math.min(steps.length - 1, to));
    draw();
  }

  /**
   * The step as a `state` push, so the live table's layouts draw it.
   * @param {HistoryStep} step
   * @returns {State}
   */
  function stateOf(step) {
    const full = shown().viewer?.full === true;
    const seat = full ? perspective : shown().viewer?.seat ?? null;
    const players = (shown().seats ?? []).filter((s) => s.player).map((s) => ({
      seat: s.seat, player: s.player, bot: s.bot, chips: step.chips?.[s.seat], connected: true, away: false,
    }));
    /** @type {State} */
    const state = {
      type: 'state', table, game: shown().game, seq: step.seq, status: 'playing', seat, host: shown().host, players,
      // A finished table's step has every seat's view, a playing one the viewer's.
      view: /** @type {import('../types/wire').View} */ (full ? step.views?.[perspective] : step.view), to_act: step.to_act ?? [], legal: [], log: step.log ?? [],
      // A step has its own log lines only, and no chat.
      log_from: 0, chat: [],
      result: step.result,
    };
    return state;
  }

  function draw() {
    const steps = doc?.steps ?? [];
    prev.disabled = index <= 0;
    next.disabled = index >= steps.length - 1;
    slider.value = String(index);
    if (!steps.length) {
      stepLabel.textContent = t('No steps to show.');
      replaceChildren(felt, el('p', { class: 'muted', text: t('Nothing was played in this deal.') }));
      return;
    }
    const step = steps[index];
    const state = stateOf(step);
    const rctx = makeContext(state);
    element.dataset.seq = String(step.seq);
    element.dataset.step = String(index);
    stepLabel.textContent = t('Step {step} of {steps} (move {seq})', { step: index + 1, steps: steps.length, seq: step.seq });
    eventText.textContent = describeEvent(step.event, rctx, shown().deal);
    replaceChildren(stepLog, (step.log ?? []).map((line) => logLine(line, rctx)));
    const name = layoutNameOf(state, ctx.games);
    if (!layout || layout.name !== name) {
      layout = createLayout(name);
      layout.name = name;
    }
    const ui = { act: () => {}, legal: [], busy: true, selection: { key: '[]' }, rerender: () => draw(), me: ctx.me?.name };
    try {
      replaceChildren(felt, layout.render(state, rctx, ui));
    } catch (error) {
      console.warn('layout failed; drawing generically', error);
      layout = createLayout('generic');
      layout.name = name;
      replaceChildren(felt, layout.render(state, rctx, ui));
    }
    const result = isPlainObject(step.result) ? renderResult(step.result, rctx) : null;
    resultPanel.hidden = !result;
    replaceChildren(resultPanel, result);
  }

  async function save() {
    download.disabled = true;
    try {
      const whole = await fetchWholeHistory(ctx.conn, table);
      const blob = new Blob([JSON.stringify(whole, null, 1)], { type: 'application/json' });
      const link = el('a', { href: URL.createObjectURL(blob), download: `parlour-${table}-history.json` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    } catch (error) {
      ctx.banner.error(error);
    } finally {
      download.disabled = false;
    }
  }

  async function verify() {
    verifyButton.disabled = true;
    verifyPanel.hidden = false;
    replaceChildren(verifyPanel, el('p', { class: 'muted', text: t('Re-shuffling every deal…') }));
    try {
      showVerdict(verifyPanel, await verifyTable(ctx.conn, table));
    } catch (error) {
      showVerdict(verifyPanel, { ok: false, lines: [t('Could not verify: {error}', { error: errorMessage(error) })] });
    } finally {
      verifyButton.disabled = false;
    }
  }

  return {
    element,
    title: t('Replay {table}', { table }),
    start() {
      document.addEventListener('keydown', onKey);
      return open(params.deal);
    },
    resume() {},
    destroy() {
      document.removeEventListener('keydown', onKey);
    },
  };
}

/**
 * The verdict of fair.js verifyHistory in a panel (data-state ok|failed).
 * @param {HTMLElement} panel
 * @param {import('./fair.js').Verdict} verdict
 */
export function showVerdict(panel, verdict) {
  panel.hidden = false;
  panel.dataset.state = verdict.ok ? 'ok' : 'failed';
  replaceChildren(panel,
    el('h3', { class: 'panel-title', text: verdict.ok ? t('Every deal verified') : t('Verification FAILED') }),
    el('ul', { class: 'verify-lines small' }, verdict.lines.map((line) => el('li', { text: line }))));
}

/**
 * A step's event in words.
 * @param {HistoryEvent | null | undefined} event
 * @param {RenderContext} rctx
 * @param {number | null | undefined} deal
 * @returns {string}
 */
export function describeEvent(event, rctx, deal) {
  if (!isPlainObject(event)) return '';
  const who = Number.isInteger(event.seat) ? seatName(rctx, event.seat) : '';
  switch (event.kind) {
    case 'start': return t('Play starts: deal {deal} is dealt.', { deal: deal ?? 1 });
    case 'deal': return t('The next deal is dealt.');
    case 'leave': return t('{who} leaves the table.', { who });
    case 'close': return t('The table closes; what its pools hold is shared out.');
    case 'act': {
      /** @type {Record<string, unknown>} */
      const action = isPlainObject(event.action) ? event.action : {};
      const words = [action.type === undefined || action.type === null ? t('acts') : tWord(String(action.type).replace(/_/g, ' '))];
      for (const [key, value] of Object.entries(action)) {
        if (key === 'type') continue;
        if (['string', 'number', 'boolean'].includes(typeof value)) words.push(String(value));
        else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) words.push(value.join(' '));
      }
      const move = words.join(' ');
      return event.by === 'clock' ? t('{who}: {move} (time ran out: the table played for them).', { who, move })
        : t('{who}: {move}.', { who, move });
    }
    default: return tWord(String(event.kind ?? ''));
  }
}
