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

/** @typedef {import('../../types/wire').State} State */
/** @typedef {import('../../types/wire').Game} Game */
/** @typedef {import('../../types/wire').Action} Action */
/** @typedef {import('../../types/wire').LegalAction} LegalAction */
/** @typedef {import('../render.js').RenderContext} RenderContext */
/** @typedef {import('./common.js').Arrange} Arrange */

/**
 * What the page gives a layout besides the state: the viewer's legal moves and how
 * to send one, and the page's memory the layout keeps across pushes.
 * @typedef {object} LayoutUi
 * @property {(action: Action) => void} act
 * @property {LegalAction[]} legal
 * @property {boolean} busy
 * @property {Selection} selection the layout's own UI memory (selected cards), kept while `legal` stays the same
 * @property {() => void} rerender
 * @property {string | undefined} me
 * @property {Arrange} [arrange]
 */
/**
 * A layout's memory across pushes: `key` is the legal list it belongs to; each layout
 * keeps its own fields beside it (the selected card or cards, …).
 * @typedef {{key: string, [field: string]: any}} Selection
 */
/**
 * A layout: draws a table's state (`name` and `game` are the page's notes of what it draws).
 * @typedef {object} Layout
 * @property {string} family
 * @property {(state: State, rctx: RenderContext, ui: LayoutUi) => HTMLElement} render
 * @property {string} [name]
 * @property {string} [game]
 */

/** @type {Record<string, () => Layout>} */
const LAYOUTS = {
  betting: createBettingLayout,
  building: createBuildingLayout,
  cassino: createCassinoLayout,
  generic: createGenericLayout,
  rummy: createRummyLayout,
  tricks: createTricksLayout,
};

/**
 * The layout name for a state: its view's, or its game's catalogue entry's (`catalogue` may be null).
 * @param {{view?: unknown, game?: string} | null | undefined} state
 * @param {Game[] | null | undefined} catalogue
 * @returns {string}
 */
export function layoutNameOf(state, catalogue) {
  const fromView = isPlainObject(state?.view) ? state.view.layout : null;
  if (typeof fromView === 'string' && LAYOUTS[fromView]) return fromView;
  const entry = Array.isArray(catalogue) ? catalogue.find((g) => isPlainObject(g) && g.id === state?.game) : null;
  if (typeof entry?.layout === 'string' && LAYOUTS[entry.layout]) return entry.layout;
  return 'generic';
}

/**
 * A layout object {family, render(state, rctx, ui) → Node}; an unknown name draws generically.
 * @param {string} name
 * @returns {Layout}
 */
export function createLayout(name) {
  return (LAYOUTS[name] || createGenericLayout)();
}
