// @ts-check
// Dismissible messages under the header. Errors from the server are shown in
// plain words (`[data-zone="error"]`), with the server's own message after them.

import { el } from './dom.js';
import { friendlyText } from './names.js';
import { SUITS, rankLabel } from './cards.js';
import { t, tWord } from './i18n.js';

// The building games' pile ids (docs/protocol.md "Building games") as the felt labels them, counting from one.
/** @type {Record<string, string>} */
const PILE_WORDS = { stock: t('stock'), hand: t('hand'), supply: t('supply'), turned: t('turned card'), discard: t('discard pile') };

/**
 * A refusal's pile ids and card codes in words: "6C cannot be loaded on stock:1" → "6♣ cannot be loaded on
 * seat 2's stock"; "layout:3" → "Layout 4".
 * @param {string} text
 * @returns {string}
 */
export function refusalWords(text) {
  return text
    .replace(/\b(layout|centre):(\d+)\b/g, (/** @type {string} */ _, /** @type {string} */ kind, /** @type {string} */ n) =>
      (kind === 'layout' ? t('Layout {n}', { n: Number(n) + 1 }) : t('Centre {n}', { n: Number(n) + 1 })))
    .replace(/\b(stock|hand|supply|turned|discard):(\d+)(?::(\d+))?\b/g,
      (/** @type {string} */ _, /** @type {string} */ kind, /** @type {string} */ seat, /** @type {string | undefined} */ slot) =>
        t("seat {seat}'s {pile}", { seat: Number(seat) + 1, pile: slot === undefined ? PILE_WORDS[kind] : t('{pile} {n}', { pile: PILE_WORDS[kind], n: Number(slot) + 1 }) }))
    .replace(/\b([A2-9TJQKEW])([SHDC])\b/g, (/** @type {string} */ _, /** @type {string} */ rank, /** @type {string} */ suit) =>
      `${rankLabel(rank)}${SUITS[/** @type {keyof typeof SUITS} */ (suit)].symbol}`);
}

const MAX_MESSAGES = 4;
const NOTICE_MS = 6000; // plain notices fade on their own; errors wait to be dismissed

/** @typedef {{code?: unknown, message?: unknown}} ErrorLike */

export class Banner {
  /** @param {HTMLElement} container */
  constructor(container) {
    this.container = container;
  }

  /**
   * Show an error; `error` may be a RequestError, {code, message}, or a string
   * (anything a `catch` caught: whatever else it is reads as "Something went wrong.").
   * @param {unknown} error
   */
  error(error) {
    if (typeof error === 'string') return this.show(error, 'error');
    return this.show(plainError(error), 'error');
  }

  /** @param {string} text */
  notice(text) {
    const item = this.show(text, 'notice');
    setTimeout(() => item.remove(), NOTICE_MS);
    return item;
  }

  /**
   * @param {string} text
   * @param {'error' | 'notice'} kind
   */
  show(text, kind) {
    // The same message is shown once, however often it comes.
    for (const old of this.container.children) if (/** @type {HTMLElement} */ (old).dataset.text === text) old.remove();
    // One error at a time: a newer error replaces the older one.
    if (kind === 'error') for (const old of this.container.querySelectorAll('[data-zone="error"]')) old.remove();
    const item = el('div', {
      class: `banner banner-${kind}`, role: kind === 'error' ? 'alert' : 'status', dataset: { text },
      'data-zone': kind === 'error' ? 'error' : null,
    },
      el('span', { class: 'banner-text', text }),
      // The × is drawn by CSS so the zone's text is the message alone.
      el('button', { type: 'button', class: 'banner-close', 'aria-label': t('Dismiss'), title: t('Dismiss'), onclick: () => item.remove() }));
    this.container.append(item);
    while (this.container.children.length > MAX_MESSAGES) this.container.firstElementChild?.remove();
    return item;
  }

  /** Remove the error banners (after a request succeeds, the old error is history). */
  clearErrors() {
    for (const old of this.container.querySelectorAll('[data-zone="error"]')) old.remove();
  }

  clear() {
    this.container.replaceChildren();
  }
}

// What each protocol error code means, in words a player understands.
/** @type {Record<string, string>} */
const PLAIN = {
  bad_request: t('The server did not understand that request.'),
  unauthorized: t('You are not signed in (or the key for this name is wrong).'),
  forbidden: t('You are not allowed to do that.'),
  not_found: t('That does not exist (any more).'),
  name_taken: t('That name is already taken.'),
  table_full: t('The table is full.'),
  not_your_turn: t('It is not your turn.'),
  illegal_action: t('That move is not allowed.'),
  insufficient_chips: t('You do not have enough chips for that.'),
  rate_limited: t('Too many requests at once — slow down a little.'),
  conflict: t('That cannot be done right now.'),
  internal: t('The server had a problem.'),
  offline: t('Not connected to the server.'),
  disconnected: t('The connection dropped before the server answered.'),
  timeout: t('The server did not answer in time.'),
};

/**
 * A caught error's `code` (a RequestError's, or an `error` reply's), if it has one.
 * @param {unknown} error
 * @returns {string | undefined}
 */
export function errorCode(error) {
  const code = /** @type {ErrorLike | null | undefined} */ (error)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A caught error's `message`, if it has one.
 * @param {unknown} error
 * @returns {string | undefined}
 */
export function errorMessage(error) {
  const message = /** @type {ErrorLike | null | undefined} */ (error)?.message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * "That move is not allowed: meld is not a run or set." from {code, message}.
 * @param {unknown} error
 * @returns {string}
 */
export function plainError(error) {
  if (typeof error === 'string') return error;
  const code = errorCode(error) ?? '';
  // The server's message may lead with its code ("conflict: …"): the words below say it.
  let message = friendlyText(errorMessage(error) ?? '').replace(/^[a-z_]+:\s*/, '');
  if (code === 'illegal_action') message = refusalWords(message);
  // Reason codes in brackets ("(ace_high_not_allowed)") read better as words.
  message = message.replace(/\(([a-z]+(?:_[a-z]+)+)\)/g, (/** @type {string} */ _, /** @type {string} */ reason) => `(${tWord(reason.replace(/_/g, ' '))})`);
  const lead = PLAIN[code];
  if (lead && message && message !== code) return t('{lead}: {message}', { lead: lead.replace(/\.$/, ''), message });
  if (lead) return lead;
  return message || t('Something went wrong.');
}
