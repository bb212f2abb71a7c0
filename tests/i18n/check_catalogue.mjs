// The client's message catalogues against the client's code (ctest test_i18n).
//
//   node tests/i18n/check_catalogue.mjs [SOURCE_DIR]
//
// Reads every t('…'), tn(n, '…', '…') and tParts('…', …) of web-client/js and
// fails when:
// - a call's message is not a literal (the catalogue could not be checked);
// - a message has no entry in a language's catalogue, or a plural message's
//   entry is not {one, other};
// - a translation names a placeholder its message lacks, or drops one (a
//   plural's "one" form may drop {n}: "un jeton");
// - an entry is not used by any call (a message changed in the code and its
//   translation left behind), or two parts of a catalogue translate one
//   message differently;
// - a line pattern's translation and pattern name different holes;
// - text meant for people is written as a bare literal: the value of text:,
//   title:, placeholder:, label:, alt: or 'aria-label': and assignments to
//   textContent or title, when it holds a word.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.argv[2] || new URL('../..', import.meta.url).pathname;
const clientDir = join(root, 'web-client', 'js');
const problems = [];

/** @returns {string[]} the client's modules, the catalogues left out */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'i18n' ? [] : sources(path);
    return entry.name.endsWith('.js') && entry.name !== 'i18n.js' ? [path] : [];
  });
}

function lineOf(text, index) {
  return text.slice(0, index).split('\n').length;
}

/** A JS string literal at `at` (after spaces): {value, end} or null. */
function literalAt(text, at) {
  let i = at;
  while (/\s/.test(text[i])) i++;
  const quote = text[i];
  if (quote !== '\'' && quote !== '"' && quote !== '`') return null;
  let j = i + 1;
  while (j < text.length && text[j] !== quote) j += text[j] === '\\' ? 2 : 1;
  const raw = text.slice(i, j + 1);
  if (quote === '`' && raw.includes('${')) return null;
  return { value: Function(`return ${raw}`)(), end: j + 1 };
}

/** A message: a literal, or literals joined by + (a long message over lines). */
function messageAt(text, at) {
  let message = literalAt(text, at);
  while (message) {
    const rest = text.slice(message.end);
    const plus = /^\s*\+\s*/.exec(rest);
    if (!plus) break;
    const next = literalAt(text, message.end + plus[0].length);
    if (!next) return null; // a literal joined to an expression: not a literal message
    message = { value: message.value + next.value, end: next.end };
  }
  return message;
}

/** Skips one argument (to the comma at this depth): the index after the comma. */
function skipArgument(text, at) {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) return i + 1;
    else if (c === '\'' || c === '"' || c === '`') i = literalAt(text, i)?.end - 1 ?? i;
  }
  return text.length;
}

/** The literal text of a template literal at `at`, its ${…} expressions left out. */
function templateWords(text, at) {
  let out = '';
  let depth = 0;
  for (let i = at + 1; i < text.length; i++) {
    if (depth === 0 && text[i] === '`') break;
    if (depth === 0 && text[i] === '\\') { out += text[i + 1]; i++; continue; }
    if (text[i] === '$' && text[i + 1] === '{' && depth === 0) { depth = 1; i++; continue; }
    if (depth > 0) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}') depth--;
      continue;
    }
    out += text[i];
  }
  return out;
}

/** Every message the code uses: key → {one?, where}. */
const used = new Map();
const WORD = /[A-Za-z]{2,}/;
const BARE = [
  /(?:[{,]\s*|\b)(?:text|title|placeholder|label|alt|'aria-label'|"aria-label")\s*:\s*(['"`])/g,
  /\.(?:textContent|title|placeholder)\s*=\s*(['"`])/g,
];
const ALLOWED_BARE = new Set(['Parlour', 'OK', 'JSON']);

for (const file of sources(clientDir)) {
  const text = readFileSync(file, 'utf8');
  const where = (index) => `${relative(root, file)}:${lineOf(text, index)}`;
  for (const match of text.matchAll(/(?<![\w.$])(t|tn|tParts)\(/g)) {
    const start = match.index + match[0].length;
    if (match[1] === 'tn') {
      const one = messageAt(text, skipArgument(text, start));
      const other = one && text.slice(one.end).trimStart().startsWith(',')
        ? messageAt(text, one.end + text.slice(one.end).indexOf(',') + 1) : null;
      if (!one || !other) {
        problems.push(`${where(match.index)}: tn(count, one, other) takes two literal messages`);
        continue;
      }
      used.set(other.value, { one: one.value, where: where(match.index) });
    } else {
      const message = messageAt(text, start);
      if (!message) {
        problems.push(`${where(match.index)}: ${match[1]}() takes a literal message (use tWord for the server's words)`);
        continue;
      }
      if (!used.has(message.value)) used.set(message.value, { where: where(match.index) });
    }
  }
  for (const pattern of BARE) {
    for (const match of text.matchAll(pattern)) {
      const literal = literalAt(text, match.index + match[0].length - 1);
      // A template with ${…} in it: its words are what is outside the expressions.
      const value = literal ? literal.value
        : templateWords(text, match.index + match[0].length - 1);
      if (WORD.test(value) && !ALLOWED_BARE.has(value)) {
        problems.push(`${where(match.index)}: words for people in a bare literal (${JSON.stringify(value.slice(0, 60))}): wrap them in t()`);
      }
    }
  }
}

const holes = (s) => new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
const same = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
const show = (set) => `{${[...set].join(', ')}}`;

const catalogues = readdirSync(join(clientDir, 'i18n')).filter((name) => name.endsWith('.js'));
for (const name of catalogues) {
  const catalogue = (await import(pathToFileURL(join(clientDir, 'i18n', name)).href)).default;
  const code = catalogue.code;
  let translated = 0;
  for (const [key, use] of used) {
    const entry = catalogue.messages[key];
    if (entry === undefined) {
      problems.push(`${code}: no translation of ${JSON.stringify(key)} (${use.where})`);
      continue;
    }
    translated++;
    if (use.one !== undefined) {
      if (typeof entry !== 'object' || typeof entry.one !== 'string' || typeof entry.other !== 'string') {
        problems.push(`${code}: ${JSON.stringify(key)} counts (${use.where}): its entry is {one, other}`);
        continue;
      }
      const wanted = holes(key);
      for (const h of holes(use.one)) wanted.add(h);
      if (!same(holes(entry.other), wanted)) problems.push(`${code}: ${JSON.stringify(key)}: "other" has ${show(holes(entry.other))}, the message ${show(wanted)}`);
      const oneHoles = holes(entry.one);
      oneHoles.add('n');
      if (!same(oneHoles, new Set([...wanted, 'n']))) problems.push(`${code}: ${JSON.stringify(key)}: "one" has ${show(holes(entry.one))}, the message ${show(wanted)}`);
    } else if (typeof entry !== 'string') {
      problems.push(`${code}: ${JSON.stringify(key)} (${use.where}) does not count: its entry is a string`);
    } else if (!same(holes(entry), holes(key))) {
      problems.push(`${code}: ${JSON.stringify(key)}: the translation has ${show(holes(entry))}, the message ${show(holes(key))}`);
    }
  }
  for (const key of Object.keys(catalogue.messages)) {
    if (!used.has(key)) problems.push(`${code}: ${JSON.stringify(key)} is translated but no code uses it`);
  }
  for (const [english, template] of catalogue.lines) {
    if (!same(holes(english), holes(template))) problems.push(`${code}: the line ${JSON.stringify(english)} has ${show(holes(english))}, its translation ${show(holes(template))}`);
  }
  // The parts of a catalogue must agree where they translate one message.
  const partsDir = join(clientDir, 'i18n', code);
  const seen = new Map();
  for (const part of readdirSync(partsDir).filter((n) => n.endsWith('.js'))) {
    const messages = (await import(pathToFileURL(join(partsDir, part)).href)).default;
    if (Array.isArray(messages) || part.endsWith('words.js')) continue; // lines and words are not messages
    for (const [key, value] of Object.entries(messages)) {
      const before = seen.get(key);
      if (before && JSON.stringify(before.value) !== JSON.stringify(value)) {
        problems.push(`${code}: ${JSON.stringify(key)} is translated differently in ${before.part} and ${part}`);
      }
      seen.set(key, { value, part });
    }
  }
  console.log(`${code}: ${translated} of ${used.size} messages translated, ${catalogue.lines.length} line patterns, ${Object.keys(catalogue.words).length} words`);
}

// ---------------------------------------------------------------------------
// The table log's lines (tests/i18n/log_lines.txt: the lines the server writes,
// each shape once) against each catalogue's line patterns, as the page shows
// them (web-client/js/log_words.js: plainWords, then the patterns). Fails when
// - a line is left as it was (no pattern knows it, or one of its clauses);
// - a translated line still has an English word in it (names, card codes and
//   hashes aside): a hole the catalogue does not translate;
// - a pattern has no literal text (it would match any line).
// Patterns no line uses are listed, not failed: dead, shadowed by a more
// specific one, or for a line the file lacks.
{
  const { plainWords } = await import(pathToFileURL(join(clientDir, 'log_words.js')).href);
  const { friendlyText } = await import(pathToFileURL(join(clientDir, 'names.js')).href);
  const { lineTranslator } = await import(pathToFileURL(join(clientDir, 'i18n.js')).href);
  const corpusFile = join(root, 'tests', 'i18n', 'log_lines.txt');
  const corpus = readFileSync(corpusFile, 'utf8').split('\n').filter((line) => line && !line.startsWith('#'));
  const ENGLISH = /\b(the|and|of|to|is|are|was|with|from|into|his|her|their|them|they|for|by|on|out|off|deals?|dealt|stock|pool|takes?|plays?|wins?|cards?|chips?|players?|tricks?|bets?|seat|host|game|turn|hand|nobody|every|each|has|have|been|goes|lays|melds?|melded|pays|stands|trails|starts|showing|calls|announces|loses|draws|discards|passes|leaves)\b/i;
  const CARD = /\b([A2-9TJQK][SHDC]|JK)(=[A2-9TJQK][SHDC])?\b/g;
  // A line's names as the page writes them, to leave out of the English-word test.
  const namesIn = (line) => ['Ann', 'Bob', ...[...line.matchAll(/\bbot-[A-Za-z0-9]+-\d+\b|\bt[0-9a-f]{8}\b/g)].map((m) => friendlyText(m[0]))];
  for (const name of catalogues) {
    const catalogue = (await import(pathToFileURL(join(clientDir, 'i18n', name)).href)).default;
    const code = catalogue.code;
    if (!catalogue.lines.length) continue;
    for (const [english] of catalogue.lines) {
      if (!english.replace(/\{\w+\}/g, '')) problems.push(`${code}: the line pattern ${JSON.stringify(english)} has no literal text`);
    }
    const usedPatterns = new Set();
    const translate = lineTranslator(catalogue, usedPatterns);
    let translated = 0;
    for (const line of corpus) {
      const plain = plainWords(line);
      const out = translate(plain);
      if (out === plain) {
        problems.push(`${code}: the log line ${JSON.stringify(plain)} is not translated (${relative(root, corpusFile)})`);
        continue;
      }
      translated++;
      let words = out.replace(/sha256 [0-9a-f]+/g, '').replace(CARD, '');
      for (const shown of namesIn(line)) words = words.split(shown).join('');
      const english = ENGLISH.exec(words);
      if (english) problems.push(`${code}: the log line ${JSON.stringify(plain)} keeps the English word "${english[1]}": ${JSON.stringify(out)}`);
    }
    // A name is a name: a player called like one of the server's words keeps it.
    for (const name of ['Draw', 'Table', 'Pot', 'Stock']) {
      const out = translate(`${name} bets 1; 3C is turned; ${name} loses 1 to the pot.`);
      if (out.split(name).length !== 3) problems.push(`${code}: the name "${name}" is translated in the log: ${JSON.stringify(out)}`);
    }
    const unused = catalogue.lines.filter(([english]) => !usedPatterns.has(english));
    console.log(`${code}: ${translated} of ${corpus.length} log lines translated${unused.length ? `; line patterns no log line uses: ${unused.map(([english]) => JSON.stringify(english)).join(', ')}` : ''}`);
  }
}

// -- the server's game catalogue ---------------------------------------------
// Every text of the games catalogue that the client shows (tests/i18n/games.json,
// refreshed by games_texts.mjs) has its word in each language's words part, and
// that part holds nothing else (a text the server no longer sends); every entry
// has a text, and in French a no-break space before : ; ? ! » and after «.
{
  const { texts } = JSON.parse(readFileSync(join(root, 'tests', 'i18n', 'games.json'), 'utf8'));
  for (const name of catalogues) {
    const catalogue = (await import(pathToFileURL(join(clientDir, 'i18n', name)).href)).default;
    const part = (await import(pathToFileURL(join(clientDir, 'i18n', catalogue.code, 'words.js')).href)).default;
    const missing = texts.filter((text) => !Object.hasOwn(part, text));
    for (const text of missing) problems.push(`${catalogue.code}: the games catalogue's ${JSON.stringify(text)} has no word in ${catalogue.code}/words.js`);
    const known = new Set(texts);
    for (const [text, word] of Object.entries(part)) {
      if (!known.has(text)) problems.push(`${catalogue.code}: ${catalogue.code}/words.js translates ${JSON.stringify(text)}, which the games catalogue does not send`);
      if (typeof word !== 'string' || !word.trim()) problems.push(`${catalogue.code}: ${catalogue.code}/words.js has no text for ${JSON.stringify(text)}`);
      // French typography: a no-break space (U+00A0) before : ; ? ! and » and after «.
      else if (catalogue.code === 'fr' && /[^\u00a0][:;?!»]|«[^\u00a0]/.test(word.replace(/\d:\d/g, ''))) {
        problems.push(`fr: fr/words.js ${JSON.stringify(word.slice(0, 60))}: a no-break space goes before : ; ? ! » and after «`);
      }
    }
    console.log(`${catalogue.code}: ${texts.length - missing.length} of ${texts.length} texts of the games catalogue translated`);
  }
}

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`check_catalogue: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log('check_catalogue: the catalogues cover the code');
