// @ts-check
// French for the cards' names (cards.js: what a screen reader hears, and the inline card text): see ../fr.js.

/** @type {Record<string, string | import('../../i18n.js').PluralForms>} */
export default {
  'spades': 'pique',
  'hearts': 'cœur',
  'diamonds': 'carreau',
  'clubs': 'trèfle',
  'ace': 'as',
  'two': 'deux',
  'three': 'trois',
  'four': 'quatre',
  'five': 'cinq',
  'six': 'six',
  'seven': 'sept',
  'eight': 'huit',
  'nine': 'neuf',
  'ten': 'dix',
  'jack': 'valet',
  'queen': 'dame',
  'eleven': 'onze',
  'twelve': 'douze',
  'face-down card': 'carte face cachée',
  'joker': 'joker',
  '{rank} of {suit}': '{rank} de {suit}',
  '{card} as {as}': '{card} comme {as}',
  'hidden': 'cachée',
  'Joker': 'Joker',
};
