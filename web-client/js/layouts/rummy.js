// @ts-check
// Layout `rummy` (every Rummy game and Carousel): the common blocks (seats with
// card counts and scores, the stock, the discard pile — squared, or spread in
// the Michigan family — the melds grouped by owner, or common when they have
// none, as in Carousel) and the viewer's hand.
//
// Acting: click the stock or the upcard to draw; click a spread-pile card to take
// down to it; select cards in the hand, then "Meld", or click a meld to lay them
// off; click a card (or drag it onto the pile, or select it and click the pile) to
// discard. Only moves that `legal` lists are offered; the action buttons below the
// table still list every legal entry.

import { el, isPlainObject } from '../dom.js';
import { cardText, isCard, isFace } from '../cards.js';
import { seatName } from '../render.js';
import { layoutDiff, plainCard } from './tablediff.js';
import { dropTarget, fact, handZone, meldsZone, pileZone, poolsZone, schemaTable } from './common.js';
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

/**
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
function sameCards(a, b) {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((card, i) => card === y[i]);
}

/** @param {string[]} cards */
function cardsList(cards) {
  return el('span', { class: 'card-text-list' }, cards.map(cardText));
}

/** @returns {Layout} */
export function createRummyLayout() {
  /** @type {string | null} */
  let lastTop = null;

  return {
    family: 'rummy',
    render(state, rctx, ui) {
      const schema = readSchema(state.view);
      // This layout is drawn for its own layout's views (index.js picks it by the view's `layout`).
      const view = /** @type {import('../../types/wire').RummyView} */ (schema.view);
      const legal = ui.legal;
      const sel = ui.selection;
      /** @type {number[]} */
      const kept = Array.isArray(sel.cards) ? sel.cards : [];
      sel.cards = kept;
      const myHand = ownHand(schema, rctx);
      const cards = myHand || [];
      const selected = kept.filter((i) => i < cards.length);
      const selectedCards = selected.map((i) => cards[i]);
      /** @param {(action: LegalAction) => boolean} pred */
      const find = (pred) => legal.find((a) => isPlainObject(a) && pred(a)) || null;
      // The selection lives until the legal list changes (a new selection object),
      // so a refused move keeps what the player had picked.
      /** @param {import('../../types/wire').Action} action */
      const send = (action) => ui.act(action);
      /** @param {number} index */
      const toggle = (index) => {
        const now = /** @type {number[]} */ (sel.cards).filter((i) => i < cards.length);
        sel.cards = now.includes(index) ? now.filter((i) => i !== index) : [...now, index];
        ui.rerender();
      };

      const drawStock = find((a) => a.type === 'draw' && a.from === 'stock');
      const drawUp = find((a) => a.type === 'draw' && a.from === 'discard');
      const discards = legal.filter(/** @returns {a is LegalAction & {card: string}} */ (a) => a.type === 'discard' && isCard(a.card));
      /** @param {unknown} card */
      const discardOf = (card) => discards.find((a) => a.card === card) || null;
      const layOffs = legal.filter((a) => a.type === 'lay_off' && Number.isInteger(a.meld));
      const melds = legal.filter(/** @returns {a is LegalAction & {cards: string[]}} */ (a) => a.type === 'meld' && Array.isArray(a.cards));
      const composite = legal.filter((a) => ['go_rummy', 'go_down'].includes(a.type));
      // Carousel: every change is a whole new table; each listed one is read as a meld or a lay-off.
      const layouts = legal.filter((a) => a.type === 'layout' && Array.isArray(a.melds)).map((a) => ({ action: a, diff: layoutDiff(a, schema.melds) }));
      const selecting = melds.length > 0 || layOffs.length > 0 || layouts.length > 0;

      // Hand: a click selects (or unselects) a card, in every phase; the move is
      // then confirmed with a tool, the pile, a meld, or Enter.
      const onCard = cards.length && (discards.length || selecting) ? (/** @type {string} */ card, /** @type {number} */ index) => toggle(index) : null;
      const playable = new Set([...discards.map((a) => a.card), ...layOffs.flatMap((a) => a.cards || []), ...melds.flatMap((a) => a.cards),
        ...layouts.flatMap((l) => l.diff.added)]);
      const hand = myHand ? handZone(cards, {
        onCard, selectable: Boolean(onCard), selected, playable, draggable: discards.length > 0, arrange: ui.arrange,
      }) : null;

      // Piles: the stock, and the discard pile unless the game has none (Carousel).
      /** @type {Child[]} */
      const center = [facts(schema, rctx)];
      const stock = schema.pile('stock') || { id: 'stock', owner: null, count: 0, top: null };
      center.push(pileZone(stock, { label: t('Stock'), onClick: drawStock ? () => send(drawStock) : null }));
      const discard = schema.pile('discard');
      let pile = null;
      if (discard && Array.isArray(discard.cards)) {
        const spread = discard.cards.filter(isFace);
        const takes = legal.filter((a) => a.type === 'take' && Number.isInteger(a.depth));
        pile = pileZone(discard, {
          label: t('Spread pile'),
          onSpreadCard: (card, depth) => {
            const take = takes.find((a) => a.depth === depth && (a.card === undefined || a.card === card));
            if (take) return () => send(take);
            if (depth === 0 && drawUp) return () => send(drawUp);
            return null;
          },
          arrive: spread[spread.length - 1] !== lastTop && lastTop !== null,
        });
        lastTop = spread[spread.length - 1] ?? null;
      } else if (discard) {
        const top = isFace(discard.top) ? discard.top : null;
        pile = pileZone(discard, {
          label: t('Discard pile'),
          onClick: drawUp ? () => send(drawUp) : selectedCards.length === 1 && discardOf(selectedCards[0]) ? () => send(/** @type {LegalAction} */ (discardOf(selectedCards[0]))) : null,
          arrive: top !== lastTop && lastTop !== null && top !== null,
        });
        lastTop = top;
      }
      if (pile && discards.length) dropTarget(pile, (drag) => { const a = discardOf(drag.card); if (a) send(a); });
      if (pile) center.push(pile);
      center.push(poolsZone(schema));

      // Melds: a meld is a target when every selected card may be laid off on it.
      /** @param {Meld} meld */
      const targetFor = (meld) => {
        if (!selectedCards.length) return null;
        const viaLayout = layouts.find(({ diff }) => !diff.rearranged && !diff.newMelds.length && diff.layoffs.length === 1 &&
          diff.layoffs[0].meld === meld.id && sameCards(diff.layoffs[0].cards, selectedCards.map(plainCard)));
        if (viaLayout) return () => send(viaLayout.action);
        const onMeld = layOffs.filter((a) => a.meld === meld.id);
        if (!onMeld.length) return null;
        const exact = onMeld.find((a) => sameCards(a.cards, selectedCards));
        if (exact) return () => send(exact);
        const listed = new Set(onMeld.flatMap((a) => a.cards || []));
        if (selectedCards.every((c) => listed.has(c))) return () => send({ type: 'lay_off', meld: meld.id, cards: selectedCards });
        return null;
      };
      center.push(meldsZone(schema.melds, rctx, {
        commonLabel: t('The table'),
        onMeld: targetFor,
        onDropMeld: (meld, drag) => {
          const a = layOffs.find((x) => x.meld === meld.id && sameCards(x.cards, [drag.card]));
          if (a) send(a);
        },
      }));

      // Tools for the selection and the composite moves.
      /** @type {Child[]} */
      const tools = [];
      if (onCard && cards.length) {
        const meldAction = !selectedCards.length ? null : melds.find((a) => sameCards(a.cards, selectedCards)) ||
          layouts.find(({ diff }) => !diff.rearranged && !diff.layoffs.length && diff.newMelds.length === 1 &&
            sameCards(diff.newMelds[0], selectedCards.map(plainCard)))?.action || null;
        const single = selectedCards.length === 1 ? discardOf(selectedCards[0]) : null;
        // Enter confirms the one move the selection makes: a meld first, else the discard.
        const confirm = meldAction ? 'meld' : single ? 'discard' : null;
        if (selecting) {
          tools.push(el('button', {
            type: 'button', class: 'btn btn-primary', disabled: !meldAction, 'data-tool': 'meld', 'data-confirm': confirm === 'meld' ? 'true' : null,
            title: t('Lay the selected cards down as a set or a run'), onclick: () => meldAction && send(meldAction),
          }, meldAction ? tParts('Meld {cards}', { cards: cardsList(selectedCards) }) : t('Meld (select the cards)')));
        }
        if (discards.length) tools.push(el('button', {
          type: 'button', class: 'btn', disabled: !single, 'data-tool': 'discard', 'data-confirm': confirm === 'discard' ? 'true' : null,
          title: t('Put the selected card face up on the discard pile: your turn ends'), onclick: () => single && send(single),
        }, single ? tParts('Discard {card}', { card: cardText(single.card) }) : t('Discard (select one card)')));
        tools.push(el('button', {
          type: 'button', class: 'btn btn-felt', text: t('Clear selection'), 'data-tool': 'clear', disabled: !selected.length,
          title: t('Unselect every card (Esc)'), onclick: () => { sel.cards = []; ui.rerender(); },
        }));
      }
      for (const action of composite) {
        const groups = Array.isArray(action.melds) ? action.melds.filter(Array.isArray) : [];
        tools.push(el('button', { type: 'button', class: 'btn btn-primary', onclick: () => send(action), 'data-tool': action.type },
          action.type === 'go_down' ? t('Go down') : t('Go rummy'),
          groups.length ? [' ', el('span', { class: 'card-text-list' }, groups.map((g) => el('span', { class: 'card-text-group' }, g.map(cardText))))] : null,
          isCard(action.discard) ? tParts(' · discard {card}', { card: cardText(action.discard) }) : null));
      }
      const hint = hintText(schema, legal, { selecting, selected: selectedCards.length, discards: discards.length, layOffs: layOffs.length });
      /** @type {Child[]} */
      const below = [];
      if (hint) below.push(el('p', { class: 'hint-strip', text: hint }));
      if (tools.length) below.push(el('div', { class: 'hand-tools' }, tools));

      return schemaTable(state, rctx, schema, {
        seatInfo: (seat, s) => ({
          extras: s?.melded ? [el('span', { class: 'seat-status', text: t('melded') })] : [],
        }),
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
  const view = /** @type {import('../../types/wire').RummyView} */ (schema.view);
  const items = [
    fact(t('Deal'), schema.deal),
    schema.dealer !== null ? fact(t('Dealer'), seatName(rctx, schema.dealer)) : null,
    fact(t('Target'), view.target),
    isCard(view.must_use) ? fact(t('Must use'), cardText(view.must_use)) : null,
    view.stock_gone ? fact(t('Stock'), t('gone')) : null,
    isPlainObject(view.break) ? fact(t('Break'), tn(turnCount(view.break.turns_left), '{who} broke · {n} turns left', '{who} broke · {n} turns left',
      { who: seatName(rctx, view.break.breaker), n: view.break.turns_left ?? '?' })) : null,
    Number.isInteger(view.knocker) ? fact(t('Knocked'), seatName(rctx, view.knocker)) : null,
    Number.isInteger(view.knock_max) ? fact(t('Knock at'), t('{n} or less', { n: view.knock_max })) : null,
    drawsFact(view, rctx),
    isPlainObject(view.final_round) ? fact(t('Final meld round'), tn(turnCount(view.final_round.turns_left), '{n} turns left', '{n} turns left',
      { n: view.final_round.turns_left ?? '?' })) : null,
  ];
  return el('div', { class: 'facts' }, items);
}

/**
 * A count of turns left, for its plural (NaN, "other", when the view lacks it).
 * @param {unknown} turns
 * @returns {number}
 */
function turnCount(turns) {
  return typeof turns === 'number' ? turns : NaN;
}

/**
 * Carousel: how many of the turn's draws the player to move has used, said only while that turn runs.
 * @param {Record<string, any>} view
 * @param {RenderContext} rctx
 */
function drawsFact(view, rctx) {
  if (!Number.isInteger(view.draws_per_turn) || !rctx.toAct.length) return null;
  const drawn = Number.isInteger(view.drawn) ? view.drawn : 0;
  const who = rctx.mySeat !== null && rctx.toAct.includes(rctx.mySeat) ? t('Your draws') : t('{who}\'s draws', { who: seatName(rctx, rctx.toAct[0]) });
  return fact(who, t('{drawn} of {total} drawn', { drawn, total: view.draws_per_turn }), { 'data-drawn': String(drawn) });
}

/**
 * @param {Schema} schema
 * @param {LegalAction[]} legal
 * @param {{selecting: boolean, selected: number, discards: number, layOffs: number}} info
 * @returns {string | null}
 */
function hintText(schema, legal, info) {
  if (!legal.length) return null;
  /** @param {string} type */
  const has = (type) => legal.some((a) => a.type === type);
  const onlyDrawing = legal.every((a) => a.type === 'draw' || a.type === 'take' || a.type === 'take_all');
  if (schema.phase === 'draw' || onlyDrawing) {
    const discard = schema.pile('discard');
    if (Array.isArray(discard?.cards)) return t('Draw: click the stock, or a card of the spread pile to take it and every card above it.');
    return discard ? t('Draw: click the stock or the discard pile.') : t('Draw: click the stock.');
  }
  if (has('call')) return t('A discard could be laid off: call it or pass.');
  const extra = [has('knock') ? t('Knock when your count is low enough.') : '', has('draw') ? t('You may draw again from the stock.') : ''].filter(Boolean).join(' ');
  const how = info.discards ? t('To discard, select one card and press Discard (or click the pile, or drag the card there).') : '';
  /** @param {string[]} sentences */
  const say = (...sentences) => sentences.filter(Boolean).join(' ');
  if (info.selecting) {
    if (info.selected) return say(t('Press "Meld", or click a highlighted meld to lay off the selected cards.'), how, extra);
    return say(t('Select cards to meld or lay off.'), how, extra);
  }
  if (info.discards) return say(t('Select a card, then press Discard (or click the pile, or drag the card there).'), extra);
  return extra || null;
}
