// Banking and betting games (red_dog, red_and_black, ranter_go_round): the pot or
// pool with its chips, each seat's bet, status and shown cards, the cards turned,
// and the viewer's hand. Bets are made with the slider and number box in the
// action bar (bounded by `legal`); stand/exchange/draw are buttons there too.

import { el, formatChips, isPlainObject } from '../dom.js';
import { cardElement, cardText, isCard } from '../cards.js';
import { seatName } from '../render.js';
import { bySeat, fact, handZone, mine, poolZone, stockZone, tableFrame } from './common.js';

const STATUS_WORDS = {
  waiting: 'to bet', won: 'won', lost: 'lost', skipped: 'skipped', sitting_out: 'sitting out', left: 'left',
  dealer: 'bank', bet: 'has bet', won_double: 'won double', lost_double: 'lost double',
  exchanged: 'exchanged', stood: 'stood', drew: 'drew', in: 'in', out: 'out',
};

function words(value) {
  if (value === null || value === undefined) return null;
  return STATUS_WORDS[value] ?? String(value).replace(/_/g, ' ');
}

function smallCards(cards) {
  return el('span', { class: 'card-row card-row-tight' }, cards.filter(isCard).map((c) => cardElement(c, { size: 'sm' })));
}

export function createBettingLayout(game) {
  let lastTurned = null;

  return {
    family: 'betting',
    render(state, rctx, ui) {
      const view = isPlainObject(state.view) ? state.view : {};
      const list = Array.isArray(view.hands) ? view.hands : Array.isArray(view.seats) ? view.seats : [];
      const seats = bySeat(list);
      const me = mine(list, rctx);
      let myCards = [];
      if (me && Array.isArray(me.cards)) myCards = me.cards.filter(isCard);
      else if (me && isCard(me.card)) myCards = [me.card];
      const hand = me && state.status === 'playing' ? handZone(myCards) : null;

      const center = [facts(view, rctx, game)];
      if (Number.isInteger(view.stock)) center.push(stockZone(view.stock, null, 'Pack'));
      const pools = [];
      if (typeof view.pot === 'number') pools.push({ label: 'Pot', amount: view.pot });
      if (typeof view.pool === 'number') pools.push({ label: 'Pool', amount: view.pool });
      if (!pools.length && Number.isInteger(view.dealer)) {
        // Red and Black has no pool: the bank is the dealer's stack.
        const banker = rctx.players.find((p) => p.seat === view.dealer);
        if (banker && typeof banker.chips === 'number') pools.push({ label: 'Bank', amount: banker.chips });
      }
      center.push(poolZone(pools));
      if (Array.isArray(view.turned)) {
        const top = view.turned.length ? view.turned[view.turned.length - 1] : null;
        const arrive = top !== null && top !== lastTurned;
        lastTurned = top;
        center.push(el('div', { class: 'pile-zone turned-zone', 'data-zone': 'turned' },
          view.turned.length ? el('span', { class: 'card-row' }, view.turned.filter(isCard).map((c, i) =>
            cardElement(c, { className: i === view.turned.length - 1 && arrive ? 'card-arrive' : '' })))
            : el('span', { class: 'card card-empty', text: 'none' }),
          el('span', { class: 'pile-label', text: 'Cards turned this deal' })));
      }

      const below = [];
      const hint = hintText(game, view, ui.legal);
      if (hint) below.push(el('p', { class: 'hint-strip', text: hint }));

      return tableFrame(state, rctx, {
        seatInfo: (seat) => {
          const s = seats.get(seat);
          if (!s) return { dealer: view.dealer === seat };
          const extras = [];
          if (typeof s.bet === 'number') extras.push(fact('Bet', formatChips(s.bet), { 'data-bet': String(s.bet) }));
          if (typeof s.colour === 'string') extras.push(fact('On', s.colour === 'red' ? '♥♦ red' : '♠♣ black'));
          if (isCard(s.target)) extras.push(fact('Turned', cardText(s.target)));
          if (isCard(s.shown)) extras.push(fact('Shows', cardText(s.shown)));
          if (Number.isInteger(s.counters)) extras.push(fact('Counters', '●'.repeat(Math.min(s.counters, 10)) + (s.counters > 10 ? ` ${s.counters}` : ''), { 'data-counters': String(s.counters), 'aria-label': `${s.counters} counters` }));
          if (Number.isInteger(s.named)) extras.push(fact('Colour count', `${s.named} of 5`));
          const others = seat !== rctx.mySeat;
          if (others && Array.isArray(s.cards) && s.cards.length && s.cards.some((c) => c !== '??')) extras.push(smallCards(s.cards));
          if (others && isCard(s.card) && s.card !== '??') extras.push(smallCards([s.card]));
          else if (others && s.card === '??') extras.push(smallCards(['??']));
          const count = Array.isArray(s.cards) ? s.cards.length : undefined;
          return {
            count: count || (isCard(s.card) ? 1 : undefined),
            faceUp: !(Array.isArray(s.cards) && s.cards.length && s.cards.every((c) => c === '??')) && s.card !== '??',
            dealer: view.dealer === seat,
            out: s.standing === 'out' || s.in_deal === false || s.status === 'left',
            status: words(s.done ?? s.status ?? (s.king ? 'king' : null)), extras,
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
  return el('div', { class: 'facts' },
    fact('Deal', view.deal),
    Number.isInteger(view.dealer) ? fact(game === 'red_and_black' ? 'Bank' : 'Dealer', seatName(rctx, view.dealer)) : null,
    typeof view.ante === 'number' ? fact('Ante', view.ante) : null,
    typeof view.stake === 'number' ? fact('Counter worth', `${view.stake} chip${view.stake === 1 ? '' : 's'}`) : null,
    typeof view.limit === 'number' && view.limit > 0 ? fact('Limit', view.limit) : null,
    Number.isInteger(view.winner) ? fact('Winner', seatName(rctx, view.winner)) : null);
}

function hintText(game, view, legal) {
  if (!legal.length) return null;
  if (legal.some((a) => a.type === 'bet' && isPlainObject(a.amount))) {
    if (game === 'red_dog') return 'Bet that one of your cards beats the next card turned (same suit, higher rank). Set the amount below.';
    if (game === 'red_and_black') return 'Name red or black and your bet below: most of your five cards in that colour wins.';
    return 'Set your bet below.';
  }
  if (legal.some((a) => a.type === 'exchange')) return 'Keep your card (stand) or exchange it with the player on your left.';
  if (legal.some((a) => a.type === 'draw')) return 'Stand, or put your card back and draw another.';
  return null;
}
