// Which table layout draws which game. Unknown games get the generic layout,
// which still shows every field of the view.

import { createRummyLayout } from './rummy.js';
import { createTricksLayout } from './tricks.js';
import { createBettingLayout } from './betting.js';
import { createGenericLayout } from './generic.js';

const TRICKS = new Set(['rams', 'rounce', 'reversi']);
const BETTING = new Set(['red_dog', 'red_and_black', 'ranter_go_round']);

export function familyOf(game) {
  const id = String(game ?? '');
  if (/rummy/.test(id) || id === 'carousel') return 'rummy';
  if (TRICKS.has(id)) return 'tricks';
  if (BETTING.has(id)) return 'betting';
  return 'generic';
}

/** A layout object {family, render(state, rctx, ui) → Node}. */
export function createLayout(game) {
  switch (familyOf(game)) {
    case 'rummy': return createRummyLayout(game);
    case 'tricks': return createTricksLayout(game);
    case 'betting': return createBettingLayout(game);
    default: return createGenericLayout(game);
  }
}
