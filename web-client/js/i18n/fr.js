// @ts-check
// The French catalogue: the client's messages by their English text (see
// ../i18n.js), gathered from one file per part of the client, and the
// server's log lines and words. tests/i18n/check_catalogue.mjs checks it.

import actions from './fr/actions.js';
import app from './fr/app.js';
import cards from './fr/cards.js';
import help from './fr/help.js';
import layouts from './fr/layouts.js';
import lobby from './fr/lobby.js';
import panels from './fr/panels.js';
import shell from './fr/shell.js';
import table from './fr/table.js';
import lines from './fr/log.js';
import words from './fr/words.js';
import viewWords from './fr/view_words.js';

/** @type {import('../i18n.js').Catalogue} */
const catalogue = {
  code: 'fr',
  messages: { ...actions, ...app, ...cards, ...help, ...layouts, ...lobby, ...panels, ...shell, ...table },
  lines,
  words: { ...viewWords, ...words },
};

export default catalogue;
