// @ts-check
// French for the server's log lines: [English pattern with {holes}, French]; see ../../i18n.js translateLine.

/** @type {Array<[string, string]>} */
export default [
];
