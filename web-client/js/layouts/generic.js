// The fallback table for a game this client has no layout for: seats and the
// viewer's hand where the view has the usual shapes (hands/seats lists with
// cards), common zones (stock, pile, pot, trick, table melds), and every other
// field of the view drawn generically so nothing is ever hidden.

import { isPlainObject } from '../dom.js';
import { isCard, isCardList } from '../cards.js';
import { renderView } from '../render.js';
import { bySeat, discardZone, handZone, meldsZone, mine, poolZone, stockZone, tableFrame, trickZone } from './common.js';

const USED = ['hands', 'stock', 'upcard', 'pile', 'pile_size', 'pot', 'pool', 'trick', 'table'];

export function createGenericLayout() {
  return {
    family: 'generic',
    render(state, rctx) {
      const view = isPlainObject(state.view) ? state.view : {};
      const hands = Array.isArray(view.hands) ? view.hands : Array.isArray(view.seats) ? view.seats : null;
      const seats = bySeat(hands);
      const myHand = mine(hands, rctx);
      const center = [];
      if (Number.isInteger(view.stock)) center.push(stockZone(view.stock));
      if (isCard(view.upcard) || Number.isInteger(view.pile_size) || Array.isArray(view.pile)) {
        center.push(discardZone(Array.isArray(view.pile) ? view.pile : isCard(view.upcard) ? [view.upcard] : [],
          Array.isArray(view.pile) ? view.pile.length : view.pile_size, { spread: Array.isArray(view.pile) }));
      }
      const pools = [];
      if (typeof view.pot === 'number') pools.push({ label: 'Pot', amount: view.pot });
      if (typeof view.pool === 'number') pools.push({ label: 'Pool', amount: view.pool });
      center.push(poolZone(pools));
      if (Array.isArray(view.trick)) center.push(trickZone(view.trick, rctx));
      if (Array.isArray(view.table) && view.table.every(isPlainObject)) center.push(meldsZone(view.table, rctx));
      const rest = {};
      for (const [key, value] of Object.entries(view)) if (!USED.includes(key) || (key === 'hands' && !hands)) rest[key] = value;
      if (hands === view.seats) delete rest.seats;
      // Per-seat fields other than the cards (drawn at the seats and in the hand) stay visible.
      if (hands) rest.players = hands.map((h) => (isPlainObject(h) ? { ...h, cards: isCardList(h.cards) && h.cards.every((c) => c === '??') ? undefined : h.seat === rctx.mySeat ? undefined : h.cards, count: undefined } : h));
      center.push(renderView(rest, rctx));
      return tableFrame(state, rctx, {
        seatInfo: (seat) => {
          const h = seats.get(seat);
          const cards = h && (isCardList(h.cards) ? h.cards : null);
          return { count: Number.isInteger(h?.count) ? h.count : cards ? cards.length : undefined, dealer: view.dealer === seat };
        },
        center,
        hand: myHand && Array.isArray(myHand.cards) && myHand.cards.every(isCard) ? handZone(myHand.cards) : null,
      });
    },
  };
}
