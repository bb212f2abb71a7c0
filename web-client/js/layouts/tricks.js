// Pool and trick games (rams, rounce, reversi): the viewer's hand, the trick on
// the table (or the last one), the turned trump and the widow, tricks won per
// seat and the pool. Clicking a card plays it (or exchanges or discards it, when
// that is what `legal` offers for it); declarations are the action buttons.

import { el, isPlainObject } from '../dom.js';
import { SUITS, cardElement, isCard } from '../cards.js';
import { seatName } from '../render.js';
import { bySeat, fact, handZone, mine, poolZone, tableFrame, trickZone } from './common.js';

const CARD_ACTIONS = ['card', 'play_card', 'exchange', 'discard'];
const STATUS_WORDS = { undeclared: 'to declare', passed: 'passed', active: 'playing', out: 'out', paid: 'paid the dealer' };

export function createTricksLayout(game) {
  let lastPlayed = null;

  return {
    family: 'tricks',
    render(state, rctx, ui) {
      const view = isPlainObject(state.view) ? state.view : {};
      const hands = bySeat(view.hands);
      const myHand = mine(view.hands, rctx);
      const cards = myHand && Array.isArray(myHand.cards) ? myHand.cards.filter(isCard) : [];
      const cardActions = ui.legal.filter((a) => CARD_ACTIONS.includes(a.type) && isCard(a.card));
      const actionFor = (card) => CARD_ACTIONS.map((t) => cardActions.find((a) => a.type === t && a.card === card)).find(Boolean) || null;
      const playable = new Set(cardActions.map((a) => a.card));
      const hand = myHand ? handZone(cards, {
        playable, disableUnplayable: true,
        onCard: cardActions.length ? (card) => { const a = actionFor(card); if (a) ui.act(a); } : null,
      }) : null;

      const trick = Array.isArray(view.trick) ? view.trick : [];
      const last = Array.isArray(view.last_trick) ? view.last_trick : [];
      const showing = trick.length ? trick : last;
      const top = showing.length ? JSON.stringify(showing[showing.length - 1]) : null;
      const arrive = top !== null && top !== lastPlayed && trick.length > 0;
      lastPlayed = top;

      const center = [facts(view, rctx, game)];
      const side = [];
      if (isCard(view.turned)) {
        side.push(el('div', { class: 'pile-zone', 'data-zone': 'trump' },
          cardElement(view.turned, { className: view.turned_taken ? 'is-taken' : '' }),
          el('span', { class: 'pile-label' }, view.turned_taken ? 'Turned trump (taken up)' : 'Turned trump')));
      }
      if (view.widow !== undefined || view.widow_taken !== undefined) {
        const count = Number.isInteger(view.widow) ? view.widow : 0;
        side.push(el('div', { class: 'pile-zone', 'data-zone': 'widow', 'data-count': String(count) },
          count > 0 ? cardElement('??') : el('span', { class: 'card card-empty', text: view.widow_taken ? 'taken' : 'none' }),
          el('span', { class: 'pile-label' }, 'Widow ', el('strong', { text: count > 0 ? String(count) : view.widow_taken ? 'taken' : '0' }))));
      }
      if (side.length) center.push(el('div', { class: 'trump-widow' }, side));
      center.push(trickZone(showing, rctx, {
        label: trick.length ? 'Trick' : last.length ? 'Last trick' : 'Trick',
        arrive,
        empty: view.phase === 'declare' ? 'Declaring…' : 'No cards played yet.',
      }));
      const pools = [];
      if (typeof view.pool === 'number') pools.push({ label: 'Pool', amount: view.pool });
      center.push(poolZone(pools));
      if (typeof view.pool_at_play === 'number' && view.pool_at_play > 0 && view.general === null) {
        center.push(el('p', { class: 'hint-strip', text: `Each trick takes ${Math.floor(view.pool_at_play / 5)} chips from the pool.` }));
      }

      const below = [];
      const hint = hintText(view, ui.legal, cardActions);
      if (hint) below.push(el('p', { class: 'hint-strip', text: hint }));

      return tableFrame(state, rctx, {
        seatInfo: (seat) => {
          const h = hands.get(seat);
          const extras = [];
          if (Number.isInteger(h?.tricks)) extras.push(fact('Tricks', String(h.tricks), { 'data-tricks': String(h.tricks) }));
          if (h?.took_widow) extras.push(el('span', { class: 'seat-status', text: 'took the widow' }));
          if (view.general === seat) extras.push(el('span', { class: 'seat-status', text: 'General!' }));
          const count = Number.isInteger(h?.held) ? h.held : Array.isArray(h?.cards) ? h.cards.length : undefined;
          return {
            count, dealer: view.dealer === seat, out: h?.left === true || h?.in_deal === false,
            status: h?.left ? 'left' : (STATUS_WORDS[h?.status] ?? h?.status ?? null), extras,
          };
        },
        center,
        hand,
        below,
      });
    },
  };
}

function facts(view, rctx, game) {
  const suit = typeof view.trump === 'string' ? SUITS[view.trump] : null;
  return el('div', { class: 'facts' },
    fact('Deal', view.deal),
    Number.isInteger(view.dealer) ? fact('Dealer', seatName(rctx, view.dealer)) : null,
    suit ? fact('Trump', el('span', { class: suit.red ? 'card-text card-text-red' : 'card-text' }, `${suit.symbol} ${suit.name}`)) : null,
    Number.isInteger(view.leader) && view.phase === 'play' ? fact('Led by', seatName(rctx, view.leader)) : null,
    Number.isInteger(view.general) ? fact('General', seatName(rctx, view.general)) : null,
    game === 'reversi' && Number.isInteger(view.stake) ? fact('Stake', `${view.stake} per trick`) : null,
    Number.isInteger(view.tricks_per_deal) ? fact('Tricks this deal', view.tricks_per_deal) : null,
    Array.isArray(view.could_not_deal) && view.could_not_deal.length ? fact('Could not deal', view.could_not_deal.map((s) => seatName(rctx, s)).join(', ')) : null);
}

function hintText(view, legal, cardActions) {
  if (!legal.length) return null;
  if (cardActions.some((a) => a.type === 'card' || a.type === 'play_card')) return 'Click a card to play it (cards you may not play are dimmed).';
  if (cardActions.some((a) => a.type === 'exchange')) return 'Click a card to lay it aside for the turned trump, or keep your hand.';
  if (cardActions.some((a) => a.type === 'discard')) return 'Click a card to discard it face down.';
  return 'Declare with the buttons below.';
}

