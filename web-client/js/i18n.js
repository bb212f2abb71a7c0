// @ts-check
// The client's words in the reader's language.
//
// Every word the client shows goes through `t` (or `tn` for a count, `tParts`
// for a sentence with elements in it). The English text is the message's key,
// as in gettext: English needs no catalogue, and a message missing from another
// language's catalogue shows in English rather than as a bare key. The
// catalogues are web-client/js/i18n/<code>.js; tests/i18n/check_catalogue.mjs
// fails when a message of the code has no translation, a translation names a
// placeholder its message lacks, or an entry is no longer used.
//
// The language is chosen once per page load: the one this browser picked
// ("parlour.language"), else the first of the browser's languages we have,
// else English. Switching stores the choice and reloads the page, so words
// built when a module loads are in the new language too; the connection comes
// back as after any reload, seats and all.

/**
 * A catalogue: messages by their English text (a plural message by its "other"
 * form, with the language's forms), and the server's log lines as patterns.
 * @typedef {{one: string, other: string}} PluralForms
 * @typedef {{
 *   code: string,
 *   messages: Record<string, string | PluralForms>,
 *   lines: Array<[string, string]>,
 *   words: Record<string, string>,
 * }} Catalogue
 */

const LANGUAGE_KEY = 'parlour.language';

/** The languages offered, each named in itself. */
export const LANGUAGES = /** @type {const} */ ([
  { code: 'en', name: 'English' },
  { code: 'fr', name: 'Français' },
]);

/** @returns {string} */
function chosenLanguage() {
  const known = (/** @type {unknown} */ code) => LANGUAGES.some((l) => l.code === code);
  try {
    const stored = localStorage.getItem(LANGUAGE_KEY);
    if (stored && known(stored)) return stored;
  } catch {
    /* storage disabled: fall through to the browser's languages */
  }
  const wanted = typeof navigator === 'undefined' ? [] : (navigator.languages || [navigator.language]);
  for (const tag of wanted) {
    const base = String(tag || '').toLowerCase().split('-')[0];
    if (known(base)) return base;
  }
  return 'en';
}

/** @type {Catalogue} */
const ENGLISH = { code: 'en', messages: {}, lines: [], words: {} };

const code = chosenLanguage();
/** @type {Catalogue} */
const catalogue = code === 'en' ? ENGLISH : (await import(`./i18n/${code}.js`)).default;
if (typeof document !== 'undefined') document.documentElement.lang = code;
const plurals = new Intl.PluralRules(code);

/** @returns {string} the language the page is shown in */
export function language() {
  return code;
}

/**
 * Remembers the choice and shows the page again in it.
 * @param {string} next a code of LANGUAGES
 */
export function setLanguage(next) {
  if (next === code || !LANGUAGES.some((l) => l.code === next)) return;
  try {
    localStorage.setItem(LANGUAGE_KEY, next);
  } catch {
    return; // nowhere to remember it: a reload would come back in the same language
  }
  window.location.reload();
}

/**
 * @param {string} template
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
function fill(template, params) {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/**
 * A message in the page's language, with its {placeholders} filled in.
 * @param {string} text the English message (a literal: the catalogue check reads it)
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function t(text, params) {
  const entry = catalogue.messages[text];
  return fill(typeof entry === 'string' ? entry : text, params);
}

/**
 * A message that depends on a count: `{n}` is the count unless params give it
 * (e.g. formatted). The catalogue keeps it under its `other` form.
 * @param {number} count
 * @param {string} one English for a count of 1
 * @param {string} other English for any other count
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function tn(count, one, other, params) {
  const entry = catalogue.messages[other];
  const values = { n: count, ...params };
  if (entry && typeof entry === 'object') {
    return fill(plurals.select(count) === 'one' ? entry.one : entry.other, values);
  }
  return fill(count === 1 ? one : other, values);
}

/**
 * A message whose placeholders are elements (a name in bold, a link): the
 * pieces in the language's order, to append to an element.
 * @param {string} text the English message, a literal
 * @param {Record<string, Node | string | number>} parts
 * @returns {Array<Node | string>}
 */
export function tParts(text, parts) {
  const entry = catalogue.messages[text];
  const template = typeof entry === 'string' ? entry : text;
  /** @type {Array<Node | string>} */
  const out = [];
  let last = 0;
  for (const match of template.matchAll(/\{(\w+)\}/g)) {
    const index = match.index ?? 0;
    if (!(match[1] in parts)) continue;
    if (index > last) out.push(template.slice(last, index));
    const part = parts[match[1]];
    out.push(typeof part === 'number' ? String(part) : part);
    last = index + match[0].length;
  }
  if (last < template.length) out.push(template.slice(last));
  return out;
}

/**
 * A word that comes from the server (a game's name, an option's label, a
 * reason): the catalogue's `words` translate the ones it knows; the others
 * stay as the server wrote them.
 * @param {string} text
 * @returns {string}
 */
export function tWord(text) {
  return catalogue.words[text] ?? text;
}

/** @type {Array<{pattern: RegExp, names: string[], template: string}> | null} */
let compiledLines = null;

/**
 * @param {string} pattern
 * @returns {{pattern: RegExp, names: string[]}}
 */
function compileLine(pattern) {
  /** @type {string[]} */
  const names = [];
  let source = '';
  let last = 0;
  for (const match of pattern.matchAll(/\{(\w+)\}/g)) {
    const index = match.index ?? 0;
    source += pattern.slice(last, index).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    source += '(.+?)';
    names.push(match[1]);
    last = index + match[0].length;
  }
  source += pattern.slice(last).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return { pattern: new RegExp(`^${source}$`), names };
}

/**
 * A log line of the server (already in plain English words, log.js) in the
 * page's language: the first of the catalogue's line patterns that matches it
 * whole gives the sentence; what its {holes} caught is put back as it was,
 * after the catalogue's `words` and lines had their go at it (a nested clause).
 * A line no pattern knows stays in English.
 * @param {string} line
 * @returns {string}
 */
export function translateLine(line) {
  return lineIn(line, 0);
}

/**
 * @param {string} line
 * @param {number} depth how many lines this one is nested in
 * @returns {string}
 */
function lineIn(line, depth) {
  if (!catalogue.lines.length) return line;
  compiledLines ??= catalogue.lines.map(([english, template]) => ({ ...compileLine(english), template }));
  for (const { pattern, names, template } of compiledLines) {
    const match = pattern.exec(line);
    if (!match) continue;
    /** @type {Record<string, string>} */
    const values = {};
    names.forEach((name, i) => { values[name] = holeText(match[i + 1], depth); });
    return fill(template, values);
  }
  return line;
}

/**
 * @param {string} text what a hole of a line pattern caught
 * @param {number} depth
 * @returns {string}
 */
function holeText(text, depth) {
  if (text in catalogue.words) return catalogue.words[text];
  // One level of nesting is all the server's sentences have ("X, and Y").
  return depth < 2 ? lineIn(text, depth + 1) : text;
}
