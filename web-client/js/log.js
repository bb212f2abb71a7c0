// @ts-check
// The table log in plain language. The server's lines may carry {seat:N} tags
// (a seat's player) and card codes ("9S", "JK"); both are drawn for people:
// "{seat:0} lays off 9S" → "Ann lays off 9♠" with the card named for screen readers.
// The words come from log_words.js: plain, and in the page's language.

import { el } from './dom.js';
import { cardText, isCard } from './cards.js';
import { seatName } from './render.js';
import { logWords } from './log_words.js';

/** @typedef {import('./render.js').RenderContext} RenderContext */

const TOKEN = /\{seat:(\d+)\}|\b([A2-9TJQK][SHDC]|JK)\b/g;

/**
 * One log line → an <li> of text, name and card spans.
 * @param {unknown} line a log line (a string; anything else is shown as JSON)
 * @param {RenderContext} rctx
 * @returns {HTMLLIElement}
 */
export function logLine(line, rctx) {
  const text = logWords(typeof line === 'string' ? line : JSON.stringify(line));
  const item = el('li', { class: 'log-line' });
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > last) item.append(text.slice(last, match.index));
    if (match[1] !== undefined) {
      const seat = Number(match[1]);
      item.append(el('span', { class: `log-name${seat === rctx.mySeat ? ' is-me' : ''}`, text: seatName(rctx, seat) }));
    } else if (isCard(match[2])) {
      item.append(cardText(match[2]));
    } else {
      item.append(match[0]);
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) item.append(text.slice(last));
  return item;
}

/**
 * The plain-text form of a line (for titles and the "last move" strip).
 * @param {unknown} line
 * @param {RenderContext} rctx
 * @returns {string}
 */
export function logText(line, rctx) {
  return logLine(line, rctx).textContent;
}

export { plainWords } from './log_words.js';
