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
  const known = catalogue.words[text];
  if (known !== undefined) return known;
  // A view's word is kept once, in its plain form: "deal_over", "deal over"
  // and "Deal over" find "deal over", capitalised as the English was.
  const word = catalogue.words[text.replace(/_/g, ' ').toLowerCase()];
  if (!word) return text;
  return text[0] === text[0].toLowerCase() ? word : word[0].toUpperCase() + word.slice(1);
}

/**
 * A line pattern ready to match: its regex, its holes in order, its
 * translation, and how much literal text it has (how specific it is).
 * @typedef {{english: string, pattern: RegExp, names: string[], template: string, literal: number}} LinePattern
 */

// What a hole matches: a number for {n}, any text for {melds} (the server
// separates melds with "; "), else any text within one clause.
/** @type {Record<string, string>} */
const HOLES = { n: '([-+]?\\d+)', melds: '(.+?)' };
const CLAUSE_TEXT = '((?:(?!; ).)+?)';

/**
 * @param {string} english
 * @param {string} template
 * @returns {LinePattern}
 */
function compileLine(english, template) {
  /** @type {string[]} */
  const names = [];
  let source = '';
  let last = 0;
  let literal = 0;
  const text = (/** @type {string} */ part) => {
    literal += part.length;
    return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  };
  for (const match of english.matchAll(/\{(\w+)\}/g)) {
    const index = match.index ?? 0;
    source += text(english.slice(last, index)) + (Object.hasOwn(HOLES, match[1]) ? HOLES[match[1]] : CLAUSE_TEXT);
    names.push(match[1]);
    last = index + match[0].length;
  }
  source += text(english.slice(last));
  return { english, pattern: new RegExp(`^${source}$`, 's'), names, template, literal };
}

// What a list in a hole is made of: "Ann and Bob 7, Cleo 5", melds "6D 7D; 2C 2H".
const LIST = /(, | and |; )/;
const CLAUSES = '; ';
// How deep a hole's text is translated again (each level's text is shorter).
const DEPTH = 4;

/**
 * The translator of a catalogue's log lines (translateLine is the page's;
 * tests/i18n/check_catalogue.mjs makes one per catalogue).
 *
 * A line is translated so:
 * - its last mark ("." or "!") is set aside: patterns are written without it,
 *   and it comes back as the catalogue has it (a hole-less line "!" → " !");
 * - a line of clauses ("Ann bets 1; 3C is turned; Ann loses 1 to the pot.") is
 *   translated clause by clause when a pattern knows every clause, their "; "
 *   as the catalogue has it; otherwise as a whole (a list of melds has "; " too);
 * - of the patterns that match the whole text, the one with the most literal
 *   text wins ("{who} plays {card} from {from} to {to}" over "{who} plays
 *   {card}"); the catalogue's order breaks a tie. A hole {n} is a number
 *   ("{who} pays {payee} {n}" with names of two words), a hole {melds} any text,
 *   any other hole any text but "; " (so that "{who} passes" cannot take in a
 *   clause before it);
 * - what a hole caught is translated again: by the pattern that matches it
 *   whole ("Layout 2", "3 chips", the text of a rule), else, for a list, each item, its ", ", " and " and "; " as the catalogue has
 *   them (a hole-less line " and " → " et "), else it stays (a name, a card, a
 *   number);
 * - a line no pattern knows, or one of whose clauses none knows, stays as it is.
 * The catalogue's `words` (the server's words shown as words) are not used: a
 * hole holds names too, and a player called "Draw" or "Table" keeps his name.
 * @param {Pick<Catalogue, 'lines'>} catalogueOf
 * @param {Set<string>} [used] gets the English of every pattern that matched
 *   (for the catalogue check: a pattern no line uses is dead or shadowed)
 * @returns {(line: string) => string}
 */
export function lineTranslator({ lines }, used) {
  if (!lines.length) return (line) => line;
  // Stable: patterns of equal literal length keep the catalogue's order.
  const patterns = lines.map(([english, template]) => compileLine(english, template))
    .sort((a, b) => b.literal - a.literal);
  /** @type {Map<string, string>} the hole-less lines: glue such as " and " */
  const exact = new Map(lines.filter(([english]) => !/\{\w+\}/.test(english)));
  const glue = (/** @type {string} */ text) => {
    const out = exact.get(text);
    if (out === undefined) return text;
    used?.add(text);
    return out;
  };

  /**
   * @param {string} text
   * @param {number} depth
   * @returns {string | null} null when no pattern matches the whole text
   */
  function sentence(text, depth) {
    for (const { english, pattern, names, template } of patterns) {
      const match = pattern.exec(text);
      if (!match) continue;
      used?.add(english);
      /** @type {Record<string, string>} */
      const values = {};
      names.forEach((name, i) => { values[name] = hole(match[i + 1], depth + 1); });
      return fill(template, values);
    }
    return null;
  }

  /**
   * @param {string} text what a hole caught
   * @param {number} depth
   * @returns {string}
   */
  function hole(text, depth) {
    if (depth > DEPTH) return text;
    const whole = sentence(text, depth);
    if (whole !== null) return whole;
    const items = text.split(LIST);
    if (items.length === 1) return text;
    return items.map((item, i) => (i % 2 ? glue(item) : hole(item, depth + 1))).join('');
  }

  /**
   * @param {string} line
   * @returns {string}
   */
  function translate(line) {
    const [, body, mark] = /** @type {RegExpExecArray} */ (/^(.*?)([.!]?)$/s.exec(line));
    let out = null;
    if (body.includes(CLAUSES)) {
      const clauses = body.split(CLAUSES).map((clause) => sentence(clause, 0));
      if (clauses.every((clause) => clause !== null)) out = clauses.join(glue(CLAUSES));
    }
    out ??= sentence(body, 0);
    return out === null ? line : out + glue(mark);
  }

  // A table's log is drawn again at every push: the lines seen lately are kept.
  /** @type {Map<string, string>} */
  const seen = new Map();
  return (line) => {
    let out = seen.get(line);
    if (out === undefined) {
      out = translate(line);
      if (seen.size >= 1000) seen.clear();
      seen.set(line, out);
    }
    return out;
  };
}

/** @type {((line: string) => string) | null} */
let pageLines = null;

/**
 * A log line of the server (already in plain English words: log_words.js) in
 * the page's language, by the catalogue's line patterns (see lineTranslator).
 * In English, and for a line no pattern knows, the line itself.
 * @param {string} line
 * @returns {string}
 */
export function translateLine(line) {
  pageLines ??= lineTranslator(catalogue);
  return pageLines(line);
}
