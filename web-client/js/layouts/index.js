// @ts-check
// Which layout draws a table: the view's `layout` (every game's view names it,
// docs/protocol.md "View schema"), else the catalogue entry's `layout`, else the
// generic layout, which draws any view. Never the game id.

import { isPlainObject } from '../dom.js';
import { createBettingLayout } from './betting.js';
import { createBuildingLayout } from './building.js';
import { createCassinoLayout } from './cassino.js';
import { createGenericLayout } from './generic.js';
import { createRummyLayout } from './rummy.js';
import { createTricksLayout } from './tricks.js';

const LAYOUTS = {
  betting: createBettingLayout,
  building: createBuildingLayout,
  cassino: createCassinoLayout,
  generic: createGenericLayout,
  rummy: createRummyLayout,
  tricks: createTricksLayout,
};

/** The layout name for a state: its view's, or its game's catalogue entry's (`catalogue` may be null). */
export function layoutNameOf(state, catalogue) {
  const fromView = isPlainObject(state?.view) ? state.view.layout : null;
  if (typeof fromView === 'string' && LAYOUTS[fromView]) return fromView;
  const entry = Array.isArray(catalogue) ? catalogue.find((g) => isPlainObject(g) && g.id === state?.game) : null;
  if (typeof entry?.layout === 'string' && LAYOUTS[entry.layout]) return entry.layout;
  return 'generic';
}

/** A layout object {family, render(state, rctx, ui) → Node}; an unknown name draws generically. */
export function createLayout(name) {
  return (LAYOUTS[name] || createGenericLayout)();
}
