// @ts-check
// The words of a table log line, before it is drawn (log.js): the server's
// English made plain, then put in the page's language. No DOM here, so that
// tests/i18n/check_catalogue.mjs reads the log's lines as the page shows them.

import { friendlyText } from './names.js';
import { translateLine } from './i18n.js';

/**
 * The server's wording made plain: bot accounts and table ids in words, "1 chips"
 * as "1 chip", and a player of any gender: "his hand" is "their hand".
 * @param {string} text
 * @returns {string}
 */
export function plainWords(text) {
  return friendlyText(text)
    .replace(/\b1 (chip|card|counter|point|trick)s\b/g, '1 $1')
    .replace(/\b(his|her) (hand|cards?|bet|turn|stock|seat|widow|chips|counters?|tricks?|own)\b/g, 'their $2')
    .replace(/\bhim\b/g, 'them');
}

/**
 * A log line as the page shows it: plain words, in the page's language (its
 * {seat:N} tags and card codes left for log.js to draw).
 * @param {string} text
 * @returns {string}
 */
export function logWords(text) {
  return translateLine(plainWords(text));
}
