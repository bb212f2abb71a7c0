// @ts-check
// Layout `tricks` (Rams, Rounce, Reversi): the common blocks (seats with the
// tricks they won, the trick or the last one, the widow pile, the pool) plus
// the turned trump card. Clicking a card plays it (or exchanges or discards it,
// when that is what `legal` offers for it); declarations are the action buttons.

import { el } from '../dom.js';
import { SUITS, cardElement, cardText, isFace } from '../cards.js';
import { seatName } from '../render.js';
import { fact, handZone, pileZone, poolsZone, schemaTable, trickBlock } from './common.js';
import { ownHand, readSchema } from './schema.js';
import { t, tn, tParts } from '../i18n.js';

/** @typedef {import('../../types/dom').Child} Child */
/** @typedef {import('./index.js').Layout} Layout */
/** @typedef {import('./index.js').LayoutUi} LayoutUi */
/** @typedef {import('./schema.js').Schema} Schema */
/** @typedef {import('../render.js').RenderContext} RenderContext */
/** @typedef {import('../../types/wire').LegalAction} LegalAction */
/** @typedef {import('../../types/wire').Pile} Pile */
/** @typedef {import('../../types/wire').Meld} Meld */

const CARD_ACTIONS = ['card', 'play_card', 'exchange', 'discard'];

/** @returns {Layout} */
export function createTricksLayout() {
  /** @type {string | null} */
  let lastPlayed = null;
  /** @type {string | null} */
  let lastCollected = null;

  return {
    family: 'tricks',
    render(state, rctx, ui) {
      const schema = readSchema(state.view);
      // This layout is drawn for its own layout's views (index.js picks it by the view's `layout`).
      const view = /** @type {import('../../types/wire').TricksView} */ (schema.view);
      const cards = ownHand(schema, rctx);
      const cardActions = ui.legal.filter(/** @returns {a is LegalAction & {card: string}} */ (a) => CARD_ACTIONS.includes(a.type) && isFace(a.card));
      /** @param {string} card */
      const actionFor = (card) => CARD_ACTIONS.map((t) => cardActions.find((a) => a.type === t && a.card === card)).find(Boolean) || null;
      const playable = new Set(cardActions.map((a) => a.card));
      // Select a card, then confirm: the Play button, Enter, or a second click on the same card.
      const sel = ui.selection;
      if (sel.card && !playable.has(sel.card)) sel.card = null;
      const chosen = sel.card ? actionFor(sel.card) : null;
      const hand = cards ? handZone(cards, {
        playable, disableUnplayable: true, selectable: cardActions.length > 0, arrange: ui.arrange,
        selected: sel.card ? [cards.indexOf(sel.card)] : [],
        onCard: cardActions.length ? (card) => {
          if (sel.card === card && chosen) return ui.act(chosen);
          sel.card = card;
          ui.rerender();
        } : null,
      }) : null;

      const plays = schema.trick ? schema.trick.plays : [];
      const top = plays.length ? JSON.stringify(plays[plays.length - 1]) : null;
      const arrive = top !== null && top !== lastPlayed;
      lastPlayed = top;

      /** @type {Child[]} */
      const center = [facts(schema, rctx)];
      const side = [];
      if (isFace(view.turned)) {
        side.push(el('div', { class: 'pile-zone', 'data-zone': 'trump' },
          cardElement(view.turned, { className: view.turned_taken ? 'is-taken' : '' }),
          el('span', { class: 'pile-label' }, view.turned_taken ? t('Turned trump (taken up)') : t('Turned trump'))));
      }
      const widow = schema.pile('widow');
      if (widow) {
        side.push(pileZone(widow, { label: view.widow_taken ? t('Widow (taken)') : t('Widow'), zone: 'widow' }));
      }
      if (side.length) center.push(el('div', { class: 'trump-widow' }, side));
      const lastKey = Array.isArray(view.last_trick) && view.last_trick.length ? JSON.stringify(view.last_trick) : null;
      const collected = lastKey !== null && lastKey !== lastCollected && !plays.length;
      lastCollected = lastKey;
      center.push(trickBlock(schema, rctx, {
        last: view.last_trick, arrive, collected,
        empty: schema.phase === 'declare' ? t('Declaring…') : t('No cards played yet.'),
      }));
      center.push(poolsZone(schema));
      if (typeof view.pool_at_play === 'number' && view.pool_at_play > 0 && view.general === null) {
        center.push(el('p', { class: 'hint-strip', text: tn(Math.floor(view.pool_at_play / 5), 'Each trick takes {n} chip from the pool.', 'Each trick takes {n} chips from the pool.') }));
      }

      const below = [];
      const hint = hintText(ui.legal, cardActions);
      if (hint) below.push(el('p', { class: 'hint-strip', text: hint }));
      if (cardActions.length) {
        below.push(el('div', { class: 'hand-tools' },
          el('button', {
            type: 'button', class: 'btn btn-primary', 'data-tool': 'play', 'data-confirm': chosen ? 'true' : null, disabled: !chosen,
            onclick: () => chosen && ui.act(chosen),
          }, chosen ? confirmWords(chosen) : t('Play (select a card)')),
          el('button', {
            type: 'button', class: 'btn btn-felt', 'data-tool': 'clear', text: t('Clear selection'), disabled: !sel.card,
            title: t('Unselect the card (Esc)'), onclick: () => { sel.card = null; ui.rerender(); },
          })));
      }

      return schemaTable(state, rctx, schema, {
        seatInfo: (seat, s) => {
          const extras = [];
          if (Number.isInteger(s?.tricks)) extras.push(fact(t('Tricks'), String(s.tricks), { 'data-tricks': String(s.tricks) }));
          if (s?.took_widow) extras.push(el('span', { class: 'seat-status', text: t('took the widow') }));
          if (view.general === seat) extras.push(el('span', { class: 'seat-status', text: t('General!') }));
          return { out: s?.left === true || s?.in_deal === false || s?.status === 'out', extras };
        },
        center,
        hand,
        below,
      });
    },
  };
}

/**
 * @param {Schema} schema
 * @param {RenderContext} rctx
 */
function facts(schema, rctx) {
  // This layout is drawn for its own layout's views (index.js picks it by the view's `layout`).
  const view = /** @type {import('../../types/wire').TricksView} */ (schema.view);
  const suit = schema.trick?.trump ? SUITS[schema.trick.trump] : null;
  return el('div', { class: 'facts' },
    fact(t('Deal'), schema.deal),
    schema.dealer !== null ? fact(t('Dealer'), seatName(rctx, schema.dealer)) : null,
    suit ? fact(t('Trump'), el('span', { class: suit.red ? 'card-text card-text-red' : 'card-text' }, `${suit.symbol} ${suit.name}`)) : null,
    schema.phase === 'play' ? trickLeaderFact(schema, rctx) : null,
    Number.isInteger(view.general) ? fact(t('General'), seatName(rctx, view.general)) : null,
    Number.isInteger(view.stake) ? fact(t('Stake'), t('{stake} per trick', { stake: view.stake })) : null,
    Number.isInteger(view.tricks_per_deal) ? fact(t('Tricks this deal'), view.tricks_per_deal) : null,
    Array.isArray(view.could_not_deal) && view.could_not_deal.length ? fact(t('Could not deal'), view.could_not_deal.map((s) => seatName(rctx, s)).join(', ')) : null);
}

/**
 * Who led the trick on the table: the player of its first card. The view's
 * `leader` is who led the deal's first trick, so it is not read here. Before
 * anyone has played to a trick, the one player to act is to lead it.
 * @param {Schema} schema
 * @param {RenderContext} rctx
 */
function trickLeaderFact(schema, rctx) {
  const first = schema.trick?.plays[0];
  if (first && Number.isInteger(first.seat)) {
    return fact(t('Led by'), seatName(rctx, first.seat), { 'data-fact': 'leader', 'data-seat': String(first.seat) });
  }
  const toAct = schema.turn.seats;
  return toAct.length === 1 ? fact(t('To lead'), seatName(rctx, toAct[0]), { 'data-fact': 'to-lead', 'data-seat': String(toAct[0]) }) : null;
}

/**
 * @param {LegalAction[]} legal
 * @param {LegalAction[]} cardActions
 * @returns {string | null}
 */
function hintText(legal, cardActions) {
  if (!legal.length) return null;
  if (cardActions.some((a) => a.type === 'card' || a.type === 'play_card')) return t('Select a card, then press Play (or click it again). Cards you may not play are dimmed.');
  if (cardActions.some((a) => a.type === 'exchange')) return t('Select a card to lay aside for the turned trump and press Exchange, or keep your hand.');
  if (cardActions.some((a) => a.type === 'discard')) return t('Select a card to discard face down, then press Discard.');
  return t('Declare with the buttons below.');
}

/**
 * The confirm button's words for the chosen card's move: "Play 7♥", "Exchange 7♥", "Discard 7♥".
 * @param {LegalAction & {card: string}} chosen
 * @returns {Array<Node | string>}
 */
function confirmWords(chosen) {
  const card = cardText(chosen.card);
  if (chosen.type === 'exchange') return tParts('Exchange {card}', { card });
  if (chosen.type === 'discard') return tParts('Discard {card}', { card });
  return tParts('Play {card}', { card });
}
