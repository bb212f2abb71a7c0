// @ts-check
// Layout `betting` (Red Dog, Red and Black, Ranter-Go-Round): the common
// blocks (seats, the pack, the pot or pool) plus each seat's bet, the colour
// named, the card turned against it and the card shown, counters, and the row
// of cards turned this deal. Bets are made with the slider and number box in
// the action bar (bounded by `legal`); stand/exchange/draw are buttons there too.

import { el, formatChips } from '../dom.js';
import { cardElement, cardText, isFace } from '../cards.js';
import { seatName } from '../render.js';
import { fact, handZone, pileZone, poolZone, poolsZone, schemaTable } from './common.js';
import { ownHand, readSchema } from './schema.js';
import { t, tn, tWord } from '../i18n.js';

/** @typedef {import('../../types/dom').Child} Child */
/** @typedef {import('./index.js').Layout} Layout */
/** @typedef {import('./index.js').LayoutUi} LayoutUi */
/** @typedef {import('./schema.js').Schema} Schema */
/** @typedef {import('../render.js').RenderContext} RenderContext */
/** @typedef {import('../../types/wire').LegalAction} LegalAction */
/** @typedef {import('../../types/wire').Pile} Pile */
/** @typedef {import('../../types/wire').Meld} Meld */

/** @returns {Layout} */
export function createBettingLayout() {
  /** @type {string | null} */
  let lastTurned = null;

  return {
    family: 'betting',
    render(state, rctx, ui) {
      const schema = readSchema(state.view);
      const myCards = ownHand(schema, rctx);
      const hand = myCards && state.status === 'playing' ? handZone(myCards, { arrange: ui.arrange }) : null;

      /** @type {Child[]} */
      const center = [facts(schema, rctx)];
      const stock = schema.pile('stock');
      if (stock) center.push(pileZone(stock, { label: t('Pack') }));
      const pools = poolsZone(schema);
      if (pools) center.push(pools);
      else center.push(bankZone(schema, rctx));
      const turned = schema.pile('turned');
      if (turned) center.push(turnedRow(turned));

      /** @type {Child[]} */
      const below = [];
      const hint = hintText(schema, ui.legal);
      if (hint) below.push(el('p', { class: 'hint-strip', text: hint }));

      return schemaTable(state, rctx, schema, {
        seatInfo: (seat, s) => {
          if (!s) return {};
          /** @type {Child[]} */
          const extras = [];
          if (typeof s.bet === 'number') extras.push(fact(t('Bet'), formatChips(s.bet), { 'data-bet': String(s.bet) }));
          if (typeof s.colour === 'string') extras.push(fact(t('On'), s.colour === 'red' ? t('♥♦ red') : t('♠♣ black')));
          if (isFace(s.target)) extras.push(fact(t('Turned'), cardText(s.target)));
          if (isFace(s.shown)) extras.push(fact(t('Shows'), cardText(s.shown)));
          if (Number.isInteger(s.counters)) {
            extras.push(fact(t('Counters'), '●'.repeat(Math.min(s.counters, 10)) + (s.counters > 10 ? ` ${s.counters}` : ''),
              { 'data-counters': String(s.counters), 'aria-label': tn(s.counters, '{n} counters', '{n} counters') }));
          }
          if (Number.isInteger(s.named)) extras.push(fact(t('Colour count'), t('{n} of {total}', { n: s.named, total: 5 })));
          const out = s.status === 'out' || s.in_deal === false || s.left === true;
          const status = typeof s.done === 'string' ? tWord(s.done) : s.king ? t('king') : undefined;
          return { out, extras, ...(status ? { status } : {}) };
        },
        center,
        hand,
        below,
      });

      /** @param {Pile} pile */
      function turnedRow(pile) {
        const cards = Array.isArray(pile.cards) ? pile.cards.filter(isFace) : [];
        const top = cards.length ? cards[cards.length - 1] : null;
        const arrive = top !== null && top !== lastTurned;
        lastTurned = top;
        return el('div', { class: 'pile-zone turned-zone', 'data-zone': 'turned', 'data-pile': pile.id },
          cards.length ? el('span', { class: 'card-row' }, cards.map((c, i) =>
            cardElement(c, { className: i === cards.length - 1 && arrive ? 'card-arrive' : '' })))
            : el('span', { class: 'card card-empty', text: t('none') }),
          el('span', { class: 'pile-label', text: t('Cards turned this deal') }));
      }
    },
  };
}

/**
 * With no pool the dealer banks with his own chips (Red and Black): his stack is the bank.
 * @param {Schema} schema
 * @param {RenderContext} rctx
 */
function bankZone(schema, rctx) {
  if (schema.dealer === null) return null;
  const banker = rctx.players.find((p) => p.seat === schema.dealer);
  if (!banker || typeof banker.chips !== 'number') return null;
  return poolZone([{ label: t('Bank'), amount: banker.chips }]);
}

/**
 * @param {Schema} schema
 * @param {RenderContext} rctx
 */
function facts(schema, rctx) {
  // This layout is drawn for its own layout's views (index.js picks it by the view's `layout`).
  const view = /** @type {import('../../types/wire').BettingView} */ (schema.view);
  const banks = schema.pools.length === 0;
  return el('div', { class: 'facts' },
    fact(t('Deal'), schema.deal),
    schema.dealer !== null ? fact(banks ? t('Bank') : t('Dealer'), seatName(rctx, schema.dealer)) : null,
    typeof view.ante === 'number' ? fact(t('Ante'), view.ante) : null,
    typeof view.stake === 'number' ? fact(t('Counter worth'), tn(view.stake, '{n} chip', '{n} chips')) : null,
    typeof view.limit === 'number' && view.limit > 0 ? fact(t('Limit'), view.limit) : null,
    Number.isInteger(view.winner) ? fact(t('Winner'), seatName(rctx, view.winner)) : null);
}

/**
 * @param {Schema} schema
 * @param {LegalAction[]} legal
 * @returns {string | null}
 */
function hintText(schema, legal) {
  if (!legal.length) return null;
  const bet = legal.find((a) => a.type === 'bet' && a.amount && typeof a.amount === 'object');
  if (bet) {
    if (typeof bet.colour === 'string') return t('Name red or black and your bet below: most of your five cards in that colour wins.');
    if (schema.pile('turned')) return t('Bet that one of your cards beats the next card turned (same suit, higher rank). Set the amount below.');
    return t('Set your bet below.');
  }
  if (legal.some((a) => a.type === 'exchange')) return t('Keep your card (stand) or exchange it with the player on your left.');
  if (legal.some((a) => a.type === 'draw')) return t('Stand, or put your card back and draw another.');
  return null;
}
