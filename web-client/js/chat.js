// @ts-check
// The table's chat (docs/protocol.md "Table chat"): the lines and quick
// reactions of everyone at the table, a box to write in, and for the host a
// mute switch beside each person. The box is built once, so a state push never
// eats a half-typed line.

import { displayName } from './names.js';
import { el, isPlainObject, replaceChildren, sameName } from './dom.js';
import { t, tn } from './i18n.js';

/** @typedef {import('../types/wire').State} State */
/** @typedef {import('../types/wire').ChatLine} ChatLine */
/** @typedef {import('../types/wire').Reaction} Reaction */
/** @typedef {import('./app.js').AppContext} AppContext */

const MAX_CHARS = 200;
// The server's fixed set of reactions, as shown.
/** @type {[Reaction, string][]} */
export const REACTIONS = [
  ['gg', 'gg'], ['nice', t('nice!')], ['oops', t('oops')], ['thanks', t('thanks')],
  ['hurry', t('hurry up')], ['wow', t('wow')], ['sorry', t('sorry')], ['thumbs_up', '👍'],
];
/** @type {Map<string, string>} */
const REACTION_TEXT = new Map(REACTIONS);

/**
 * ctx: {conn, banner, me}. Returns {element, update(state)}.
 * `table()` gives the current table id.
 * @param {Pick<AppContext, 'conn' | 'banner' | 'me'>} ctx
 * @param {() => string} table
 */
export function createChatPanel(ctx, table) {
  const list = el('ol', { class: 'chat-list', tabindex: '0', 'aria-label': t('Table chat, newest last') });
  const input = el('input', {
    type: 'text', class: 'chat-input', maxlength: String(MAX_CHARS), placeholder: t('Say something…'),
    'aria-label': t('Chat message'), 'data-testid': 'chat-input', autocomplete: 'off',
  });
  const send = el('button', { type: 'submit', class: 'btn btn-small', text: t('Send'), 'data-testid': 'chat-send' });
  const form = el('form', { class: 'chat-form', 'data-testid': 'chat-form' }, input, send);
  const mutedNote = el('p', { class: 'muted small', 'data-testid': 'chat-muted', hidden: true, text: t('The host has muted you at this table.') });
  const closedNote = el('p', { class: 'muted small', 'data-testid': 'chat-closed', hidden: true, text: t('The table has finished; its chat is closed.') });
  const reactions = el('div', { class: 'chat-reactions', role: 'group', 'aria-label': t('Quick reactions') },
    REACTIONS.map(([name, shown]) => el('button', {
      type: 'button', class: 'btn btn-small btn-reaction', text: shown, title: shown,
      'data-testid': 'chat-reaction', 'data-reaction': name, onclick: () => say({ reaction: name }),
    })));
  const people = el('div', { class: 'chat-people', 'data-testid': 'chat-people', hidden: true });
  const element = el('div', { class: 'chat-panel panel', 'data-zone': 'chat' },
    el('h3', { class: 'panel-title', text: t('Chat') }), list, form, reactions, mutedNote, closedNote, people);
  // Out of sight (below the felt on a phone), new lines from others are counted
  // on a badge that stays in view; it brings the chat into view.
  const badge = el('button', {
    type: 'button', class: 'btn btn-small chat-badge', 'data-testid': 'chat-badge', hidden: true,
    onclick: () => { element.scrollIntoView({ block: 'nearest' }); input.focus({ preventScroll: true }); clearUnread(); },
  });
  let unread = 0;
  let inView = false;
  /** @type {string | null} the last line seen, as a key; null while there is none */
  let lastSeen = null;
  let started = false;  // the first state's lines are history, not news
  const observer = typeof IntersectionObserver === 'function'
    ? new IntersectionObserver((entries) => {
      inView = entries.some((entry) => entry.isIntersecting);
      if (inView) clearUnread();
    }, { threshold: 0.3 })
    : null;
  observer?.observe(element);
  function clearUnread() {
    unread = 0;
    badge.hidden = true;
  }
  /** @type {string | null} */
  let shownKey = null;
  /** @type {string | null} */
  let peopleKey = null;

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    say({ text }, () => { input.value = ''; });
  });

  /**
   * @param {{text: string} | {reaction: Reaction}} fields
   * @param {() => void} [after]
   */
  async function say(fields, after) {
    try {
      await ctx.conn.request('chat', { table: table(), ...fields });
      if (after) after();
    } catch (error) {
      ctx.banner.error(error);
    }
  }

  /**
   * @param {string} player
   * @param {boolean} muted
   */
  async function setMuted(player, muted) {
    try {
      await ctx.conn.request('mute', { table: table(), player, muted });
    } catch (error) {
      ctx.banner.error(error);
    }
  }

  /** @param {State} state */
  function update(state) {
    const me = ctx.me?.name;
    /** @type {ChatLine[]} */
    const lines = Array.isArray(state.chat) ? state.chat.filter(isPlainObject) : [];
    const muted = Array.isArray(state.muted) ? state.muted.filter((name) => typeof name === 'string') : [];
    const mutedMe = muted.some((name) => sameName(name, me));
    // The server takes no chat at a finished table (docs/protocol.md "Table chat").
    const closed = state.status === 'finished';
    input.disabled = mutedMe || closed;
    send.disabled = mutedMe || closed;
    for (const button of reactions.querySelectorAll('button')) button.disabled = mutedMe || closed;
    mutedNote.hidden = !mutedMe || closed;
    closedNote.hidden = !closed;

    countUnread(lines, me);
    const key = JSON.stringify(lines);
    if (key !== shownKey) {
      shownKey = key;
      const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
      replaceChildren(list, lines.length ? lines.map((line) => chatLine(line, me))
        : el('li', { class: 'muted', text: t('No messages yet.') }));
      if (atBottom) list.scrollTop = list.scrollHeight;
    }
    renderPeople(state, lines, muted, me);
  }

  /**
   * @param {ChatLine[]} lines
   * @param {string | undefined} me
   */
  function countUnread(lines, me) {
    const keyOf = (/** @type {ChatLine} */ line) => JSON.stringify([line.time, line.player, line.text, line.reaction]);
    const first = !started;
    started = true;
    let at = lines.length - 1;
    if (!first) while (at >= 0 && keyOf(lines[at]) !== lastSeen) --at;
    const fresh = lines.slice(at + 1).filter((line) => !sameName(line.player, me));
    if (lines.length) lastSeen = keyOf(lines[lines.length - 1]);
    // The lines there when the table opened are history, not news.
    if (first || !fresh.length || inView || !element.isConnected) return;
    unread += fresh.length;
    badge.hidden = false;
    badge.textContent = tn(unread, '💬 {n} new in chat', '💬 {n} new in chat');
  }

  // The host's mute switches: everyone seated (bots aside) and everyone who has chatted.
  /**
   * @param {State} state
   * @param {ChatLine[]} lines
   * @param {string[]} muted
   * @param {string | undefined} me
   */
  function renderPeople(state, lines, muted, me) {
    const isHost = sameName(state.host, me);
    /** @type {string[]} */
    const names = [];
    /** @param {unknown} name */
    const add = (name) => {
      if (typeof name === 'string' && name && !sameName(name, state.host) && !names.some((n) => sameName(n, name))) names.push(name);
    };
    for (const player of Array.isArray(state.players) ? state.players : []) if (isPlainObject(player) && !player.bot) add(player.player);
    for (const line of lines) add(line.player);
    const key = JSON.stringify([isHost, names, muted]);
    if (key === peopleKey) return;
    peopleKey = key;
    people.hidden = !isHost || names.length === 0;
    if (people.hidden) return replaceChildren(people);
    replaceChildren(people, el('span', { class: 'muted small', text: t('Mute:') }), names.map((name) => {
      const isMuted = muted.some((m) => sameName(m, name));
      return el('button', {
        type: 'button', class: `btn btn-small btn-mute${isMuted ? ' is-muted' : ''}`,
        text: isMuted ? `🔇 ${name}` : name, title: isMuted ? t('Let {name} chat again', { name }) : t('Mute {name}', { name }),
        'aria-pressed': String(isMuted), 'data-testid': 'mute', 'data-player': name,
        onclick: () => setMuted(name, !isMuted),
      });
    }));
  }

  return { element, badge, update };
}

/**
 * @param {ChatLine} line
 * @param {string | undefined} me
 */
function chatLine(line, me) {
  const who = String(line.player ?? '?');
  const time = typeof line.time === 'number' ? new Date(line.time) : null;
  const reaction = typeof line.reaction === 'string' ? line.reaction : null;
  return el('li', {
    class: `chat-line${sameName(who, me) ? ' is-me' : ''}${reaction ? ' is-reaction' : ''}`,
    'data-testid': 'chat-line', 'data-player': who, 'data-reaction': reaction,
    title: time ? time.toLocaleTimeString() : null,
  },
  el('span', { class: 'chat-name', text: displayName(who) }),
  ' ',
  el('span', { class: 'chat-text', text: reaction ? (REACTION_TEXT.get(reaction) ?? reaction) : String(line.text ?? '') }));
}
