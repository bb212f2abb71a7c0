// @ts-check
// Layout `generic`: any view, drawn from the common schema alone — seats, the
// viewer's hand, every pile, the melds, the trick, the pools — with the game's
// own fields drawn generically below, so nothing is ever hidden. It draws a
// game whose layout this client does not know, and any table whose layout
// failed.

import { el, isPlainObject } from '../dom.js';
import { renderView } from '../render.js';
import { dealFacts, handZone, meldsZone, pileZone, poolsZone, schemaTable, trickBlock } from './common.js';
import { ownFields, ownHand, readSchema } from './schema.js';

/** @typedef {import('../../types/dom').Child} Child */
/** @typedef {import('./index.js').Layout} Layout */

/** @returns {Layout} */
export function createGenericLayout() {
  return {
    family: 'generic',
    /** @type {Layout['render']} */
    render(state, rctx, ui) {
      const schema = readSchema(state.view);
      /** @type {Child[]} */
      const center = [el('div', { class: 'facts' }, dealFacts(schema, rctx))];
      for (const pile of schema.piles) center.push(pileZone(pile));
      center.push(poolsZone(schema));
      if (schema.trick) center.push(trickBlock(schema, rctx));
      if (schema.melds.length) center.push(meldsZone(schema.melds, rctx));
      // The game's own fields, and each seat's own facts besides its cards.
      const rest = ownFields(schema.view);
      const seatFacts = [...schema.seats.values()].map(({ cards, count, ...facts }) => facts)
        .filter((facts) => Object.keys(facts).some((key) => !['seat', 'status', 'left'].includes(key)));
      if (seatFacts.length) rest.players = seatFacts;
      if (Object.keys(rest).length) center.push(renderView(rest, rctx));
      const cards = ownHand(schema, rctx);
      return schemaTable(state, rctx, schema, {
        center,
        hand: cards && rctx.mySeat !== null && isPlainObject(schema.seats.get(rctx.mySeat)) ? handZone(cards, { arrange: ui.arrange }) : null,
      });
    },
  };
}
