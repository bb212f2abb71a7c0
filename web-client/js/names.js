// @ts-check
// Names a player reads instead of the server's ids: bots get a friendly name
// chosen from their seat, tables a short title chosen from their id, rule
// sources their book's name. Everything is worked out here, in the client, and
// the same input always gives the same name, so every browser says the same.

import { t } from './i18n.js';

// The server names a bot with an opaque id and its seat: "bot-9f86d081884c7d65-2"
// (bots named before that, after their table: "bot-t4358d405-2").
const BOT_ACCOUNT = /^bot-[A-Za-z0-9]+-(\d+)$/;
const BOT_IN_TEXT = /\bbot-[A-Za-z0-9]+-(\d+)\b/g;
// Table ids: "t" and eight hex digits (docs/protocol.md).
const TABLE_IN_TEXT = /\bt[0-9a-f]{8}\b/g;

const BOT_NAMES = ['Ada', 'Basil', 'Clara', 'Dmitri', 'Edith', 'Felix', 'Greta', 'Hugo', 'Iris', 'Jasper',
  'Kit', 'Lena', 'Milo', 'Nora', 'Otto', 'Pearl', 'Quentin', 'Rosa', 'Silas', 'Tilda'];

// A family name from the bot's own id, so that the seat-1 bots of three tables
// are not all "Basil (bot)" on a ledger or a settle-up.
const BOT_FAMILIES = ['Ashby', 'Brook', 'Carrow', 'Dale', 'Ellery', 'Finch', 'Garland', 'Hale', 'Ingram', 'Jessop',
  'Keel', 'Lark', 'Marsh', 'Nettle', 'Orme', 'Pike', 'Quill', 'Rook', 'Sable', 'Thorn',
  'Umber', 'Vane', 'Wren', 'Yarrow', 'Alder', 'Bell', 'Croft', 'Dunn', 'Eyre', 'Fenn',
  'Gale', 'Holt', 'Ives', 'Kemp', 'Lowe', 'Moss', 'Noakes', 'Oakes', 'Pryce', 'Reed'];

const TABLE_WORDS = ['Oak', 'Velvet', 'Lantern', 'Clover', 'Harbour', 'Juniper', 'Marble', 'Walnut', 'Saffron',
  'Copper', 'Maple', 'Ivory', 'Garnet', 'Willow', 'Amber', 'Cedar', 'Indigo', 'Thistle', 'Birch', 'Opal'];
const TABLE_ROOMS = ['Room', 'Table', 'Parlour', 'Corner', 'Alcove', 'Lounge'];

/**
 * True for a bot's account name.
 * @param {unknown} name
 * @returns {boolean}
 */
export function isBotName(name) {
  return typeof name === 'string' && BOT_ACCOUNT.test(name);
}

/**
 * "Ada Marsh (bot)" for a bot at seat 0: the first name from its seat (so that
 * the bots at one table differ), the family name from its id (so that bots of
 * different tables mostly do); a person's name as it is.
 * @template T
 * @param {T} name
 * @param {number | null} [seat]
 * @returns {T | string}
 */
export function displayName(name, seat) {
  if (typeof name !== 'string') return name;
  const match = BOT_ACCOUNT.exec(name);
  if (!match) return name;
  const at = Number.isInteger(seat) ? seat : Number(match[1]);
  return t('{name} (bot)', { name: `${BOT_NAMES[at % BOT_NAMES.length]} ${BOT_FAMILIES[hash(name.slice(0, name.lastIndexOf('-'))) % BOT_FAMILIES.length]}` });
}

/** @param {unknown} text */
function hash(text) {
  let h = 2166136261;
  for (const ch of String(text)) h = Math.imul(h ^ /** @type {number} */ (ch.codePointAt(0)), 16777619) >>> 0;
  return h;
}

/**
 * "the Walnut Room": a short title for a table id, the same in every browser.
 * @param {string | null | undefined} id
 * @returns {string}
 */
export function tableTitle(id) {
  if (id === null || id === undefined || id === '') return t('a table');
  const h = hash(id);
  // The title is a name (it stays in every language); only its article is a word.
  return t('the {name}', { name: `${TABLE_WORDS[h % TABLE_WORDS.length]} ${TABLE_ROOMS[Math.floor(h / TABLE_WORDS.length) % TABLE_ROOMS.length]}` });
}

/**
 * "The Walnut Room" at the start of a sentence or as a heading.
 * @param {string | null | undefined} id
 * @returns {string}
 */
export function tableTitleCapital(id) {
  const title = tableTitle(id);
  return title[0].toUpperCase() + title.slice(1);
}

/**
 * Any server text with bot account names and table ids put in words.
 * @template T
 * @param {T} text
 * @returns {T | string}
 */
export function friendlyText(text) {
  if (typeof text !== 'string') return text;
  return text
    .replace(BOT_IN_TEXT, (whole, seat) => displayName(whole, Number(seat)))
    .replace(TABLE_IN_TEXT, (id) => tableTitle(id));
}

// The rule books behind the games (docs: /shared/GAMES.md "Source key").
/** @type {Record<string, string>} */
const SOURCES = {
  '000': t('an encyclopedia of card games (its entries Rams to Russian Bank)'),
  '001': t('an article on Rabouge (after Grimm, 1840)'),
  '002': t('a rules site for the Rummy family'),
};

/**
 * The rule book a game's catalogue `source` names, in words.
 * @param {unknown} source
 * @returns {string | null}
 */
export function sourceName(source) {
  if (typeof source !== 'string' || !source) return null;
  return SOURCES[source] ?? (/^\d+$/.test(source) ? t('the classic rule books') : source);
}
