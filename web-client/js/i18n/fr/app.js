// @ts-check
// French for the client's messages of app: see ../fr.js.

/** @type {Record<string, string | import('../../i18n.js').PluralForms>} */
export default {
  Language: 'Langue',
  // help.js: the keys on the keyboard, as French keyboards label them
  'Enter': 'Entrée',
  'Esc': 'Échap',
};
