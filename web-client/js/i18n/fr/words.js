// @ts-check
// French for words that come from the server (game names, option labels, ...): see ../../i18n.js tWord.

/** @type {Record<string, string>} */
export default {
};
