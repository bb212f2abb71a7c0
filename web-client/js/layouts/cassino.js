// @ts-check
// Layout `cassino` (Royal Cassino): the table's loose cards (the `table` pile)
// and its builds (the schema's melds, each with its value and owner), the stock,
// each side's captured cards and sweeps, and the viewer's hand.
//
// Acting: click a card of your hand, then the loose cards and builds it takes
// (only those some listed capture or build of that card uses are offered), then
// "Take" — or "Build N" to build with them (a build is raised by picking the
// build alone). "Trail" lays the picked card on the table. Every move is also a
// button in the action bar.

import { el } from '../dom.js';
import { cardElement, cardSymbol, cardText, describeCard, isFace } from '../cards.js';
import { seatName } from '../render.js';
import { dealFacts, fact, handZone, meldsZone, pileZone, schemaTable } from './common.js';
import { ownHand, readSchema } from './schema.js';

/** @typedef {import('../../types/dom').Child} Child */
/** @typedef {import('./index.js').Layout} Layout */
/** @typedef {import('./index.js').LayoutUi} LayoutUi */
/** @typedef {import('./schema.js').Schema} Schema */
/** @typedef {import('../render.js').RenderContext} RenderContext */
/** @typedef {import('../../types/wire').LegalAction} LegalAction */
/** @typedef {import('../../types/wire').Pile} Pile */
/** @typedef {import('../../types/wire').Meld} Meld */

/**
 * Same multiset of strings (or numbers).
 * @param {unknown[]} a
 * @param {unknown[]} b
 * @returns {boolean}
 */
function sameItems(a, b) {
  if (a.length !== b.length) return false;
  const x = a.map(String).sort();
  const y = b.map(String).sort();
  return x.every((item, i) => item === y[i]);
}

/**
 * @param {unknown} value
 * @returns {any[]} the list, its items checked where they are read
 */
function listOf(value) {
  return Array.isArray(value) ? value : [];
}

/** @returns {Layout} */
export function createCassinoLayout() {
  return {
    family: 'cassino',
    render(state, rctx, ui) {
      const schema = readSchema(state.view);
      const sel = ui.selection;
      const cards = ownHand(schema, rctx);
      const plays = ui.legal.filter(/** @returns {a is LegalAction & {card: string}} */ (a) => ['capture', 'build', 'trail'].includes(a.type) && isFace(a.card));
      if (sel.card && !plays.some((a) => a.card === sel.card)) sel.card = null;
      sel.loose = sel.card ? listOf(sel.loose) : [];
      sel.builds = sel.card ? listOf(sel.builds) : [];
      const ofCard = plays.filter((a) => a.card === sel.card);
      /** @param {LegalAction} a */
      const looseOf = (a) => listOf(a.type === 'capture' ? a.take : a.with);
      const offeredLoose = new Set(ofCard.flatMap(looseOf));
      const offeredBuilds = new Set(ofCard.flatMap((a) => listOf(a.builds)));
      /** @param {LegalAction} a */
      const matches = (a) => sameItems(looseOf(a), sel.loose) && sameItems(listOf(a.builds), sel.builds);
      /** @type {(list: unknown[], item: unknown) => unknown[]} */
      const toggle = (list, item) => (list.includes(item) ? list.filter((x) => x !== item) : [...list, item]);
      const owns = listOf(rctx.mySeat === null ? null : schema.seats.get(rctx.mySeat)?.owns);
      /** @param {string} card */
      const mutedReason = (card) => (plays.some((a) => a.card === card) ? null : cardHasNoPlay(card, owns, schema));
      /** @param {string} card */
      const pickCard = (card) => {
        // A dimmed card is not picked; the strip says why it cannot be played.
        sel.refused = plays.some((a) => a.card === card) ? null : card;
        if (sel.card === card || sel.refused) sel.card = null;
        else Object.assign(sel, { card, loose: [], builds: [] });
        ui.rerender();
      };
      if (sel.refused && (!cards?.includes(String(sel.refused)) || !plays.length)) sel.refused = null;

      const hand = cards ? handZone(cards, {
        playable: new Set(plays.map((a) => a.card)),
        selectable: plays.length > 0,
        selected: sel.card ? [cards.indexOf(sel.card)] : [],
        onCard: plays.length ? (card) => pickCard(card) : null,
        mutedReason,
        arrange: ui.arrange,
      }) : null;

      /** @type {Child[]} */
      const center = [facts(schema, rctx)];
      const stock = schema.pile('stock');
      const captured = schema.piles.filter((p) => p.id.startsWith('captured-'));
      center.push(el('div', { class: 'cassino-sides' },
        stock ? pileZone(stock, { label: 'Stock' }) : null,
        captured.map((pile) => pileZone(pile, { label: `Captured by ${sideName(schema, pile, rctx)}` }))));

      const table = schema.pile('table');
      const loose = table ? listOf(table.cards).filter(isFace) : [];
      center.push(el('div', { class: 'pile-zone cassino-table-cards', 'data-zone': 'pile', 'data-pile': 'table', 'data-count': String(loose.length) },
        el('span', { class: 'zone-title', text: 'Loose cards on the table' }),
        el('div', { class: 'cassino-loose' }, loose.length ? loose.map((card) => {
          const offered = offeredLoose.has(card);
          const picked = sel.loose.includes(card);
          if (!offered) return cardElement(card, { className: 'table-card' });
          return el('button', {
            type: 'button', class: `table-card${picked ? ' is-selected' : ''}`,
            'aria-pressed': String(picked), 'aria-label': `${describeCard(card)}${picked ? ', picked' : ''}`,
            onclick: () => { sel.loose = toggle(sel.loose, card); ui.rerender(); },
          }, cardElement(card));
        }) : el('span', { class: 'muted small', text: 'No loose cards.' }))));

      center.push(meldsZone(schema.melds, rctx, {
        title: 'Builds', empty: 'No builds.',
        describe: (build) => `${build.multiple ? 'building' : 'build of'} ${build.value}${build.multiple ? '’s' : ''}`,
        isSelected: (build) => sel.builds.includes(build.id),
        targetLabel: 'pick this build',
        onMeld: (build) => (offeredBuilds.has(build.id) ? () => { sel.builds = toggle(sel.builds, build.id); ui.rerender(); } : null),
      }));

      const tools = [];
      /** @type {Child[]} */
      const reasons = [];
      if (sel.card) {
        const picked = sel.loose.length + sel.builds.length > 0;
        const capture = picked ? ofCard.find((a) => a.type === 'capture' && matches(a)) : null;
        const why = capture ? null : takeRefused(sel.card, ofCard, picked, schema);
        const take = el('button', {
          type: 'button', class: 'btn btn-primary', 'data-tool': 'capture', disabled: !capture,
          title: why, 'aria-describedby': why ? 'cassino-take-why' : null,
          onclick: () => capture && ui.act(capture),
        }, capture ? ['Take with ', cardText(sel.card)] : 'Take (pick the cards it takes)');
        tools.push(take);
        // Written out, not only in a tooltip: nothing hovers on a phone.
        if (why) reasons.push(el('p', { class: 'hint-strip', id: 'cassino-take-why', 'data-testid': 'take-why', text: why }));
        if (!ofCard.some((a) => a.type === 'trail') && owns.length)
          reasons.push(el('p', { class: 'hint-strip', 'data-testid': 'trail-why', text: `No Trail: ${ownsText(owns, schema)}, and an owner may not trail.` }));
        for (const build of picked ? ofCard.filter((a) => a.type === 'build' && matches(a)) : []) {
          tools.push(el('button', { type: 'button', class: 'btn btn-primary', 'data-tool': 'build', 'data-value': String(build.value), onclick: () => ui.act(build) },
            `Build ${build.value}`));
        }
        const trail = ofCard.find((a) => a.type === 'trail');
        if (trail) tools.push(el('button', { type: 'button', class: 'btn', 'data-tool': 'trail', onclick: () => ui.act(trail) }, 'Trail ', cardText(sel.card)));
        tools.push(el('button', { type: 'button', class: 'btn btn-ghost', 'data-tool': 'clear', text: 'Clear', onclick: () => pickCard(sel.card) }));
      }
      /** @type {Child[]} */
      const below = [];
      const hint = hintText(plays, sel, owns, schema);
      if (hint) below.push(el('p', { class: 'hint-strip', 'data-testid': 'cassino-hint', text: hint }));
      if (tools.length) below.push(el('div', { class: 'hand-tools' }, tools));
      below.push(...reasons);

      const node = schemaTable(state, rctx, schema, {
        seatInfo: (seat, s) => ({
          extras: [
            Number.isInteger(s?.captured) ? fact('Captured', String(s.captured), { 'data-captured': String(s.captured) }) : null,
            Number.isInteger(s?.sweeps) && s.sweeps > 0 ? fact('Sweeps', String(s.sweeps), { 'data-sweeps': String(s.sweeps) }) : null,
            listOf(s?.owns).length ? fact('Owns', listOf(s?.owns).map((id) => buildValue(schema, id)).join(', ')) : null,
          ].filter(Boolean),
        }),
        center,
        hand,
        below,
      });
      node.classList.add('cassino-table');
      return node;
    },
  };
}

/**
 * @param {Schema} schema
 * @param {unknown} id
 */
function buildValue(schema, id) {
  const build = schema.melds.find((m) => m.id === id);
  return build ? `build of ${build.value}` : 'a build';
}

/**
 * @param {Schema} schema
 * @param {Pile} pile
 * @param {RenderContext} rctx
 */
function sideName(schema, pile, rctx) {
  const side = schema.view.sides?.find?.((/** @type {{side?: unknown, seats?: unknown}} */ s) => `captured-${s.side}` === pile.id);
  const seats = Array.isArray(side?.seats) ? side.seats : Number.isInteger(pile.owner) ? [pile.owner] : [];
  return seats.map((/** @type {number} */ seat) => seatName(rctx, seat)).join(' & ') || 'nobody';
}

/**
 * @param {Schema} schema
 * @param {RenderContext} rctx
 */
function facts(schema, rctx) {
  // This layout is drawn for its own layout's views (index.js picks it by the view's `layout`).
  const view = /** @type {import('../../types/wire').CassinoView} */ (schema.view);
  return el('div', { class: 'facts' },
    dealFacts(schema, rctx),
    Number.isInteger(view.round) ? fact('Round', Number.isInteger(view.rounds) ? `${view.round} of ${view.rounds}` : view.round) : null,
    view.last ? fact('Last', 'the final round') : null,
    Number.isInteger(view.target) ? fact('Game', `${view.target} points`) : null,
    Number.isInteger(view.max_build) ? fact('Largest build', view.max_build) : null,
    Number.isInteger(view.last_capture) ? fact('Last capture', seatName(rctx, view.last_capture)) : null);
}

/**
 * "You own the build of 9 and the build of 6".
 * @param {unknown[]} owns
 * @param {Schema} schema
 */
function ownsText(owns, schema) {
  return `You own the ${owns.map((id) => buildValue(schema, id)).join(' and the ')}`;
}

/**
 * Why a card of the hand has no play now (it is dimmed), in the game's words.
 * @param {string} card
 * @param {unknown[]} owns
 * @param {Schema} schema
 */
function cardHasNoPlay(card, owns, schema) {
  if (owns.length)
    return `${ownsText(owns, schema)}: you may not trail, and you must keep a card that takes it; ` +
      `${cardSymbol(card)} has no capture or build that keeps one.`;
  return `${cardSymbol(card)} has no play now.`;
}

/**
 * What a capture takes, in words: "4♥ and 2♣", "the build of 9".
 * @param {LegalAction} capture
 * @param {Schema} schema
 */
function takesText(capture, schema) {
  return [...listOf(capture.take).map((card) => cardSymbol(String(card))),
    ...listOf(capture.builds).map((id) => `the ${buildValue(schema, id)}`)].join(' and ');
}

/**
 * Why Take is greyed for the picked card and table cards.
 * @param {string} card
 * @param {LegalAction[]} ofCard the card's listed plays
 * @param {boolean} picked
 * @param {Schema} schema
 */
function takeRefused(card, ofCard, picked, schema) {
  const captures = ofCard.filter((a) => a.type === 'capture');
  const name = cardSymbol(card);
  if (!captures.length) return `${name} takes nothing on the table now: no loose card or build there is one it may take.`;
  const ways = captures.slice(0, 4).map((a) => takesText(a, schema)).join('; or ') + (captures.length > 4 ? '; or more' : '');
  if (!picked) return `Pick what ${name} takes first: ${ways}.`;
  return `${name} does not take exactly what is picked. It takes ${ways}.`;
}

/**
 * @param {LegalAction[]} plays
 * @param {import('./index.js').Selection} sel
 * @param {unknown[]} owns
 * @param {Schema} schema
 * @returns {string | null}
 */
function hintText(plays, sel, owns, schema) {
  if (!plays.length) return null;
  if (sel.refused) return `${cardHasNoPlay(String(sel.refused), owns, schema)} Pick another card.`;
  if (!sel.card) return 'Click a card of your hand to play it.';
  if (!sel.loose.length && !sel.builds.length) return 'Click the table cards and builds it takes (or builds with), then Take or Build — or Trail it.';
  return 'Pick more cards, or press Take or a Build button.';
}
