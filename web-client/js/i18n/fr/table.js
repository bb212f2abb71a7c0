// @ts-check
// French for the client's messages of table: see ../fr.js.

/** @type {Record<string, string | import('../../i18n.js').PluralForms>} */
export default {
};
