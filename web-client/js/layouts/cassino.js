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
import { andList, dealFacts, fact, handZone, meldsZone, pileZone, schemaTable } from './common.js';
import { ownHand, readSchema } from './schema.js';
import { t, tParts } from '../i18n.js';

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
        stock ? pileZone(stock, { label: t('Stock') }) : null,
        captured.map((pile) => pileZone(pile, { label: t('Captured by {side}', { side: sideName(schema, pile, rctx) }) }))));

      const table = schema.pile('table');
      const loose = table ? listOf(table.cards).filter(isFace) : [];
      center.push(el('div', { class: 'pile-zone cassino-table-cards', 'data-zone': 'pile', 'data-pile': 'table', 'data-count': String(loose.length) },
        el('span', { class: 'zone-title', text: t('Loose cards on the table') }),
        el('div', { class: 'cassino-loose' }, loose.length ? loose.map((card) => {
          const offered = offeredLoose.has(card);
          const picked = sel.loose.includes(card);
          if (!offered) return cardElement(card, { className: 'table-card' });
          return el('button', {
            type: 'button', class: `table-card${picked ? ' is-selected' : ''}`,
            'aria-pressed': String(picked), 'aria-label': picked ? t('{card}, picked', { card: describeCard(card) }) : describeCard(card),
            onclick: () => { sel.loose = toggle(sel.loose, card); ui.rerender(); },
          }, cardElement(card));
        }) : el('span', { class: 'muted small', text: t('No loose cards.') }))));

      center.push(meldsZone(schema.melds, rctx, {
        title: t('Builds'), empty: t('No builds.'),
        describe: (build) => (build.multiple ? t('building {value}’s', { value: build.value }) : t('build of {value}', { value: build.value })),
        isSelected: (build) => sel.builds.includes(build.id),
        targetLabel: t('pick this build'),
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
        }, capture ? tParts('Take with {card}', { card: cardText(sel.card) }) : t('Take (pick the cards it takes)'));
        tools.push(take);
        // Written out, not only in a tooltip: nothing hovers on a phone.
        if (why) reasons.push(el('p', { class: 'hint-strip', id: 'cassino-take-why', 'data-testid': 'take-why', text: why }));
        if (!ofCard.some((a) => a.type === 'trail') && owns.length)
          reasons.push(el('p', { class: 'hint-strip', 'data-testid': 'trail-why', text: t('No Trail: You own {builds}, and an owner may not trail.', { builds: ownedBuilds(owns, schema) }) }));
        for (const build of picked ? ofCard.filter((a) => a.type === 'build' && matches(a)) : []) {
          tools.push(el('button', { type: 'button', class: 'btn btn-primary', 'data-tool': 'build', 'data-value': String(build.value), onclick: () => ui.act(build) },
            t('Build {value}', { value: build.value })));
        }
        const trail = ofCard.find((a) => a.type === 'trail');
        if (trail) tools.push(el('button', { type: 'button', class: 'btn', 'data-tool': 'trail', onclick: () => ui.act(trail) }, tParts('Trail {card}', { card: cardText(sel.card) })));
        tools.push(el('button', { type: 'button', class: 'btn btn-ghost', 'data-tool': 'clear', text: t('Clear'), onclick: () => pickCard(sel.card) }));
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
            Number.isInteger(s?.captured) ? fact(t('Captured'), String(s.captured), { 'data-captured': String(s.captured) }) : null,
            Number.isInteger(s?.sweeps) && s.sweeps > 0 ? fact(t('Sweeps'), String(s.sweeps), { 'data-sweeps': String(s.sweeps) }) : null,
            listOf(s?.owns).length ? fact(t('Owns'), listOf(s?.owns).map((id) => buildValue(schema, id)).join(', ')) : null,
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
  return build ? t('build of {value}', { value: build.value }) : t('a build');
}

/**
 * @param {Schema} schema
 * @param {Pile} pile
 * @param {RenderContext} rctx
 */
function sideName(schema, pile, rctx) {
  const side = schema.view.sides?.find?.((/** @type {{side?: unknown, seats?: unknown}} */ s) => `captured-${s.side}` === pile.id);
  const seats = Array.isArray(side?.seats) ? side.seats : Number.isInteger(pile.owner) ? [pile.owner] : [];
  return seats.map((/** @type {number} */ seat) => seatName(rctx, seat)).join(' & ') || t('nobody');
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
    Number.isInteger(view.round) ? fact(t('Round'), Number.isInteger(view.rounds) ? t('{n} of {total}', { n: view.round, total: view.rounds }) : view.round) : null,
    view.last ? fact(t('Last'), t('the final round')) : null,
    Number.isInteger(view.target) ? fact(t('Game'), t('{n} points', { n: view.target })) : null,
    Number.isInteger(view.max_build) ? fact(t('Largest build'), view.max_build) : null,
    Number.isInteger(view.last_capture) ? fact(t('Last capture'), seatName(rctx, view.last_capture)) : null);
}

/**
 * "the build of 9 and the build of 6" (what "You own …" names).
 * @param {unknown[]} owns
 * @param {Schema} schema
 */
function ownedBuilds(owns, schema) {
  return andList(owns.map((id) => t('the {build}', { build: buildValue(schema, id) })));
}

/**
 * Why a card of the hand has no play now (it is dimmed), in the game's words.
 * @param {string} card
 * @param {unknown[]} owns
 * @param {Schema} schema
 */
function cardHasNoPlay(card, owns, schema) {
  if (owns.length)
    return t('You own {builds}: you may not trail, and you must keep a card that takes it; {card} has no capture or build that keeps one.',
      { builds: ownedBuilds(owns, schema), card: cardSymbol(card) });
  return t('{card} has no play now.', { card: cardSymbol(card) });
}

/**
 * What a capture takes, in words: "4♥ and 2♣", "the build of 9".
 * @param {LegalAction} capture
 * @param {Schema} schema
 */
function takesText(capture, schema) {
  return andList([...listOf(capture.take).map((card) => cardSymbol(String(card))),
    ...listOf(capture.builds).map((id) => t('the {build}', { build: buildValue(schema, id) }))]);
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
  if (!captures.length) return t('{card} takes nothing on the table now: no loose card or build there is one it may take.', { card: name });
  const listed = captures.slice(0, 4).map((a) => takesText(a, schema)).reduce((a, b) => t('{a}; or {b}', { a, b }));
  const ways = captures.length > 4 ? t('{ways}; or more', { ways: listed }) : listed;
  if (!picked) return t('Pick what {card} takes first: {ways}.', { card: name, ways });
  return t('{card} does not take exactly what is picked. It takes {ways}.', { card: name, ways });
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
  if (sel.refused) return t('{reason} Pick another card.', { reason: cardHasNoPlay(String(sel.refused), owns, schema) });
  if (!sel.card) return t('Click a card of your hand to play it.');
  if (!sel.loose.length && !sel.builds.length) return t('Click the table cards and builds it takes (or builds with), then Take or Build — or Trail it.');
  return t('Pick more cards, or press Take or a Build button.');
}
