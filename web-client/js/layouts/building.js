// @ts-check
// Layout `building` (Russian Bank, Rabouge): races to get rid of one's cards
// onto shared piles. Drawn from the schema's piles alone: the shared ones (the
// centre, Russian Bank's layout) in the middle, each player's own (stock, hand
// or supply, turned card, discards) in a row of their own — the viewer's at the
// bottom. Every card lies face up for everyone or face down for everyone.
//
// Acting: click a card that `legal` lets move (the top of its pile), then one
// of the highlighted piles it may go to; or drag it there. Only the targets of
// listed moves are highlighted; a card clicked or dropped onto another pile is
// sent all the same, so that the server's refusal says which rule forbids it. The face-down stock, hand and supply turn or draw
// when clicked; `stop` is a big button while it can be called; the rest
// (ending a turn, passing, demands) are buttons too.

import { el } from '../dom.js';
import { cardElement, describeCard, isFace } from '../cards.js';
import { seatName } from '../render.js';
import { andList, fact, schemaTable } from './common.js';
import { readSchema } from './schema.js';
import { t, tn, tWord } from '../i18n.js';

/** @typedef {import('../../types/dom').Child} Child */
/** @typedef {import('./index.js').Layout} Layout */
/** @typedef {import('./index.js').LayoutUi} LayoutUi */
/** @typedef {import('./schema.js').Schema} Schema */
/** @typedef {import('../render.js').RenderContext} RenderContext */
/** @typedef {import('../../types/wire').LegalAction} LegalAction */
/** @typedef {import('../../types/wire').Pile} Pile */
/** @typedef {import('../../types/wire').Meld} Meld */
/** @typedef {LegalAction & {from: string, to: string}} Move a listed `move`: from a pile to a pile */
/** @typedef {'from' | 'to' | 'turned'} Moved what a step did to a pile: a card left it, went to it, or its top card was turned up */
/**
 * What `drawPile` is told of a pile: whether its top card may move or is picked up,
 * the move that brings the picked-up card here, and how to send a move.
 * @typedef {object} PileRole
 * @property {boolean} selected
 * @property {string | null} picked the pile whose card is picked up, if any
 * @property {boolean} source
 * @property {Move | null} target
 * @property {() => void} onSelect
 * @property {LegalAction | null} onPile
 * @property {(action: LegalAction) => void} act
 * @property {(from: string, to: string) => Move | null} moveTo
 * @property {((from: string) => void) | null} attempt sends an unlisted move of the card from `from` to this pile
 * @property {Moved | null} moved another player's last step took a card from this pile, put one on it, or turned its top card up
 */

// Single actions made by clicking one of the viewer's own face-down piles.
/** @type {Record<string, string>} */
const PILE_ACTIONS = { stock: 'turn_stock', hand: 'turn_hand', supply: 'draw' };
/** @type {Record<string, string>} */
const TOOL_WORDS = { turn_stock: t('Turn the stock card'), turn_hand: t('Turn the hand'), draw: t('Draw'), end_turn: t('End the turn'), pass: t('Pass') };
/** @type {Record<string, string>} */
const KIND_WORDS = { stock: t('Stock'), hand: t('Hand'), supply: t('Supply'), turned: t('Turned'), discard: t('Discard'), centre: t('Centre'), layout: t('Layout') };

/** @param {string} id */
function kindOf(id) {
  return id.split(':')[0];
}

/**
 * "Discard 2" for Rabouge's second discard pile, "Stock" for a stock, "Layout 3" for a layout pile.
 * @param {Pile} pile
 */
function pileLabel(pile) {
  const [kind, first, second] = pile.id.split(':');
  const word = KIND_WORDS[kind] || tWord(kind);
  if (second !== undefined) return `${word} ${Number(second) + 1}`;
  if (kind === 'layout' || kind === 'centre') return `${word} ${Number(first) + 1}`;
  return word;
}

/**
 * What a pile shows, to tell whether a step changed it.
 * @param {Pile} pile
 */
function pileSignature(pile) {
  return JSON.stringify([pile.count, pile.top, pile.cards]);
}

/**
 * The piles the last step of another player changed: each the pile a card left
 * ("from") or the one it went to ("to"). The bot's turn is many steps, each its
 * own push; marking each step's piles as it lands shows its moves one by one.
 * @param {Map<string, {count: number, sign: string}>} before
 * @param {Pile[]} piles
 * @returns {Map<string, Moved>}
 */
function movedPiles(before, piles) {
  /** @type {Map<string, Moved>} */
  const moved = new Map();
  for (const pile of piles) {
    const was = before.get(pile.id);
    if (!was || was.sign === pileSignature(pile)) continue;
    const count = Number.isInteger(pile.count) ? Number(pile.count) : 0;
    moved.set(pile.id, count < was.count ? 'from' : count > was.count ? 'to' : 'turned');
  }
  return moved;
}

/** @returns {Layout} */
export function createBuildingLayout() {
  // The last step this page drew: its seq, its piles, the seat that was to move,
  // and the piles another player's step changed (kept through redraws of the same step).
  /** @type {{seq: number, piles: Map<string, {count: number, sign: string}>, mover: unknown, moved: Map<string, Moved>, by: unknown} | null} */
  let last = null;
  return {
    family: 'building',
    render(state, rctx, ui) {
      const schema = readSchema(state.view);
      // This layout is drawn for its own layout's views (index.js picks it by the view's `layout`).
      const view = /** @type {import('../../types/wire').BuildingView} */ (schema.view);
      const seq = Number(state.seq);
      if (!last || last.seq !== seq) {
        // Only a step by someone else is marked: one's own move is seen as it is made.
        const theirs = last !== null && seq === last.seq + 1 && last.mover !== rctx.mySeat && last.mover !== undefined;
        const moved = theirs && last ? movedPiles(last.piles, schema.piles) : new Map();
        last = {
          seq,
          piles: new Map(schema.piles.map((p) => [p.id, { count: Number.isInteger(p.count) ? Number(p.count) : 0, sign: pileSignature(p) }])),
          mover: view.mover,
          moved,
          by: theirs && last ? last.mover : null,
        };
      }
      const moved = last.moved;
      const sel = ui.selection;
      const moves = ui.legal.filter(/** @returns {a is Move} */ (a) => a.type === 'move' && typeof a.from === 'string' && typeof a.to === 'string');
      const sources = new Set(moves.map((m) => m.from));
      if (sel.from && !sources.has(sel.from)) sel.from = null;
      /** @type {(from: string, to: string) => Move | null} */
      const moveTo = (from, to) => moves.find((m) => m.from === from && m.to === to) || null;
      /** @param {string} type */
      const single = (type) => ui.legal.find((a) => a.type === type && Object.keys(a).length === 1) || null;
      /** @param {string} from */
      const select = (from) => { sel.from = sel.from === from ? null : from; ui.rerender(); };

      /** @param {Pile} pile */
      const draw = (pile) => drawPile(pile, {
        selected: sel.from === pile.id,
        picked: sel.from ?? null,
        source: sources.has(pile.id),
        target: sel.from ? moveTo(sel.from, pile.id) : null,
        onSelect: () => select(pile.id),
        onPile: pile.owner === rctx.mySeat ? single(PILE_ACTIONS[kindOf(pile.id)]) : null,
        act: ui.act,
        moveTo,
        attempt: (from) => ui.act({ type: 'move', from, to: pile.id }),
        moved: moved.get(pile.id) ?? null,
      });

      const shared = schema.piles.filter((p) => p.owner === null);
      const centre = shared.filter((p) => kindOf(p.id) === 'centre');
      const layout = shared.filter((p) => kindOf(p.id) === 'layout');
      const others = shared.filter((p) => !['centre', 'layout'].includes(kindOf(p.id)));
      /** @param {number} seat */
      const reserve = (seat) => reserveRow(seat, schema.piles.filter((p) => p.owner === seat).map(draw), rctx);

      /** @type {Child[]} */
      const center = [facts(schema, rctx)];
      center.push(lastMoveLine(moved, schema, last.by, rctx));
      const stop = ui.legal.find((a) => a.type === 'stop');
      if (stop) {
        center.push(el('button', {
          type: 'button', class: 'btn btn-stop', 'data-tool': 'stop', onclick: () => ui.act(stop),
          title: typeof view.infraction === 'string' ? tWord(view.infraction) : '',
        }, t('Stop!'), typeof view.infraction === 'string' ? el('span', { class: 'stop-why', text: tWord(view.infraction) }) : null));
      }
      for (const seat of [...schema.seats.keys()].filter((s) => s !== rctx.mySeat)) center.push(reserve(seat));
      center.push(row(t('Centre'), 'centre', centre.map(draw), centre.length ? null : t('No centre piles yet.')));
      if (layout.length) center.push(row(t('Layout'), 'layout', layout.map(draw)));
      if (others.length) center.push(row(t('Table'), 'table', others.map(draw)));

      /** @type {Child[]} */
      const tools = [];
      for (const type of ['turn_stock', 'turn_hand', 'draw', 'end_turn', 'pass']) {
        const action = single(type);
        if (action) tools.push(el('button', { type: 'button', class: 'btn', 'data-tool': type, onclick: () => ui.act(action), text: TOOL_WORDS[type] }));
      }
      if (sel.from) tools.push(el('button', { type: 'button', class: 'btn btn-ghost', 'data-tool': 'clear', text: t('Put the card back'), onclick: () => select(sel.from) }));
      /** @type {Child[]} */
      const below = [];
      const hint = hintText(ui.legal, moves, sel.from);
      if (hint) below.push(el('p', { class: 'hint-strip', text: hint }));
      if (tools.length) below.push(el('div', { class: 'hand-tools' }, tools));

      const node = schemaTable(state, rctx, schema, {
        seatInfo: (seat, s) => ({
          extras: [
            typeof s?.role === 'string' ? fact(t('Plays'), s.role === 'X' ? t('first') : t('second')) : null,
            Number.isInteger(s?.cards_left) ? fact(t('Cards left'), String(s.cards_left), { 'data-cards-left': String(s.cards_left) }) : null,
            Number.isInteger(s?.rabouges) && s.rabouges > 0 ? fact(t('Rabouges'), String(s.rabouges)) : null,
          ].filter(Boolean),
        }),
        center,
        hand: rctx.mySeat !== null ? reserve(rctx.mySeat) : null,
        below,
      });
      node.classList.add('building-table');
      // Every move is made on the felt (its piles and tools): bringing a turn into view need not show the move list.
      node.dataset.movesOnFelt = 'true';
      return node;
    },
  };
}

/**
 * One pile: its label and count, its cards (a layout pile fanned, any other
 * pile its top card or a back). A movable top card is a button that selects
 * it; with a card selected, a pile it may go to is a button that sends the
 * move; a pile also takes a dragged card it may receive.
 * @param {Pile} pile
 * @param {PileRole} o
 */
function drawPile(pile, o) {
  const kind = kindOf(pile.id);
  const count = Number.isInteger(pile.count) ? pile.count : 0;
  const fanned = kind === 'layout' && Array.isArray(pile.cards);
  const shown = fanned ? (pile.cards ?? []).filter(isFace) : isFace(pile.top) ? [pile.top] : [];
  const label = pileLabel(pile);
  const cards = shown.map((card, index) => {
    const isTop = index === shown.length - 1;
    if (isTop && o.source && !o.target) {
      const node = cardElement(card, {
        tag: 'button', type: 'button', className: `pile-card is-movable${o.selected ? ' is-selected' : ''}`,
        'aria-pressed': String(o.selected), 'aria-label': o.selected ? t('{card} on {pile}, picked up', { card: describeCard(card), pile: label }) : t('{card} on {pile}', { card: describeCard(card), pile: label }),
        draggable: 'true', onclick: o.onSelect,
      });
      node.addEventListener('dragstart', (event) => {
        event.dataTransfer?.setData('text/plain', JSON.stringify({ from: pile.id, card }));
        if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
        // Offer the piles this card may go to, without redrawing under the drag.
        for (const target of node.closest('.felt-table')?.querySelectorAll('[data-zone="pile"][data-pile]') || []) {
          if (o.moveTo(pile.id, /** @type {HTMLElement} */ (target).dataset.pile ?? '')) target.classList.add('is-drag-target');
        }
      });
      node.addEventListener('dragend', () => {
        for (const target of document.querySelectorAll('.is-drag-target')) target.classList.remove('is-drag-target');
      });
      return node;
    }
    return cardElement(card, { className: 'pile-card' });
  });
  const onPile = o.onPile;
  /** @type {HTMLElement} */
  let body;
  if (cards.length) body = el('div', { class: fanned ? 'pile-fan' : 'pile-top' }, cards);
  else if (count > 0) {
    body = onPile && !o.target
      ? el('button', { type: 'button', class: 'pile-button', 'data-tool': onPile.type, onclick: () => o.act(onPile), 'aria-label': faceDownLabel(label, count, onPile.type) }, cardElement('??'))
      : cardElement('??');
  } else body = el('span', { class: 'card card-empty', text: t('empty') });

  const attrs = {
    class: `bpile bpile-${kind}${o.target ? ' is-target' : ''}${o.source ? ' is-source' : ''}${o.moved ? ` is-moved-${o.moved}` : ''}`,
    'data-zone': 'pile', 'data-pile': pile.id, 'data-count': String(count),
    'data-target': o.target ? 'true' : null,
    'data-moved': o.moved,
  };
  const parts = [body, el('span', { class: 'pile-label' }, `${label} `, el('strong', { text: String(count) }),
    typeof pile.next === 'string' ? el('span', { class: 'pile-next', text: ` ${t('next {rank}', { rank: pile.next })}` }) : null)];
  // With a card picked up, a pile it may not go to still takes the click: the refusal says why.
  const tried = !o.target && !o.source && o.picked ? o.picked : null;
  const attempt = o.attempt;
  /** @type {HTMLElement} */
  const node = o.target
    ? el('button', { ...attrs, type: 'button', onclick: () => o.act(/** @type {Move} */ (o.target)), 'aria-label': t('Move it to {pile}', { pile: label }) }, parts)
    : el('div', { ...attrs, onclick: tried && attempt ? () => attempt(tried) : undefined }, parts);
  node.addEventListener('dragover', (event) => { event.preventDefault(); });
  node.addEventListener('drop', (event) => {
    event.preventDefault();
    let drag = null;
    try {
      drag = JSON.parse(event.dataTransfer?.getData('text/plain') ?? '');
    } catch {
      return; // not one of our cards
    }
    if (!drag || typeof drag.from !== 'string' || drag.from === pile.id) return;
    const move = o.moveTo(drag.from, pile.id);
    if (move) o.act(move);
    else o.attempt?.(drag.from);
  });
  return node;
}

/**
 * A face-down pile of the viewer's that a click turns or draws from: "Stock: 12 cards face down — click to turn stock".
 * @param {string} pile
 * @param {number} count
 * @param {string} type the action the click sends (PILE_ACTIONS)
 * @returns {string}
 */
function faceDownLabel(pile, count, type) {
  if (type === 'turn_stock') return tn(count, '{pile}: {n} card face down — click to turn stock', '{pile}: {n} cards face down — click to turn stock', { pile });
  if (type === 'turn_hand') return tn(count, '{pile}: {n} card face down — click to turn hand', '{pile}: {n} cards face down — click to turn hand', { pile });
  if (type === 'draw') return tn(count, '{pile}: {n} card face down — click to draw', '{pile}: {n} cards face down — click to draw', { pile });
  return tn(count, '{pile}: {n} card face down — click to {action}', '{pile}: {n} cards face down — click to {action}', { pile, action: tWord(type.replace(/_/g, ' ')) });
}

/**
 * "Basil's move: from Layout 2 to Centre 1", of the step just marked on the piles;
 * a polite live region, so a screen reader hears each move of the bot's turn.
 * @param {Map<string, Moved>} moved
 * @param {Schema} schema
 * @param {unknown} mover the seat that made the step (the one to move before it)
 * @param {RenderContext} rctx
 */
function lastMoveLine(moved, schema, mover, rctx) {
  /** @param {Pile} pile "your Stock", "their Discard" (the mover's), "Basil's Stock", "Centre 3" */
  const owned = (pile) => {
    if (!Number.isInteger(pile.owner)) return pileLabel(pile);
    const name = pileLabel(pile);
    if (pile.owner === rctx.mySeat) return t('your {pile}', { pile: name });
    if (pile.owner === mover) return t('their {pile}', { pile: name });
    return t('{who}\'s {pile}', { who: seatName(rctx, Number(pile.owner)), pile: name });
  };
  /** @param {Moved} side */
  const named = (side) => andList(schema.piles.filter((p) => moved.get(p.id) === side).map(owned));
  const [from, to, turned] = [named('from'), named('to'), named('turned')];
  const who = Number.isInteger(mover) ? seatName(rctx, Number(mover)) : t('The other player');
  const parts = [from && to ? t('moves a card from {from} to {to}', { from, to }) : from ? t('takes a card from {from}', { from }) : to ? t('puts a card on {to}', { to }) : '',
    turned ? t('turns up the top card of {pile}', { pile: turned }) : ''].filter(Boolean);
  const text = parts.length ? t('{who} {did}.', { who, did: andList(parts) }) : '';
  return el('p', { class: 'last-move', 'data-testid': 'last-move', role: 'status', 'aria-live': 'polite', text });
}

/**
 * @param {string} title
 * @param {string} name
 * @param {HTMLElement[]} piles
 * @param {string | null} [empty]
 */
function row(title, name, piles, empty = null) {
  return el('div', { class: 'building-row', 'data-row': name },
    el('span', { class: 'zone-title', text: title }),
    el('div', { class: 'building-piles' }, piles.length ? piles : el('span', { class: 'muted small', text: empty || '' })));
}

/**
 * @param {number} seat
 * @param {HTMLElement[]} piles
 * @param {RenderContext} rctx
 */
function reserveRow(seat, piles, rctx) {
  const mine = seat === rctx.mySeat;
  return el('div', { class: `building-row reserve${mine ? ' is-mine' : ''}`, 'data-row': 'reserve', 'data-seat': String(seat) },
    el('span', { class: 'zone-title', text: mine ? t('Your cards') : t('{who}\'s cards', { who: seatName(rctx, seat) }) }),
    el('div', { class: 'building-piles' }, piles));
}

/**
 * @param {Schema} schema
 * @param {RenderContext} rctx
 */
function facts(schema, rctx) {
  // This layout is drawn for its own layout's views (index.js picks it by the view's `layout`).
  const view = /** @type {import('../../types/wire').BuildingView} */ (schema.view);
  return el('div', { class: 'facts' },
    Number.isInteger(view.mover) ? fact(t('To move'), seatName(rctx, view.mover)) : null,
    Number.isInteger(view.turn_number) ? fact(t('Turn'), Number.isInteger(view.max_turns) ? t('{n} of {total}', { n: view.turn_number, total: view.max_turns }) : view.turn_number) : null,
    typeof view.starter_rank === 'string' ? fact(t('Centre piles start at'), view.starter_rank === 'T' ? '10' : view.starter_rank) : null,
    Number.isInteger(view.draws_left) && view.draws_left > 0 ? fact(t('Opening draws left'), view.draws_left) : null,
    typeof view.stop_rule === 'string' ? fact(t('Stop rule'), view.stop_rule === 'call' ? t('opponent may call stop') : t('out-of-order moves refused')) : null,
    view.demanded_space ? fact(t('Owed'), t('a space filled from your stock')) : null);
}

/**
 * @param {LegalAction[]} legal
 * @param {Move[]} moves
 * @param {unknown} selected
 * @returns {string | null}
 */
function hintText(legal, moves, selected) {
  if (!legal.length) return null;
  if (selected) return t('Now click a highlighted pile to move the card there (or click it again to put it back).');
  if (legal.some((a) => a.type === 'stop')) return t('Your opponent broke the order of play: call Stop!');
  if (moves.length) return t('Click a card you may move, then the pile it goes to — or drag it there.');
  if (legal.some((a) => a.type === 'draw')) return t('Click your supply to draw its top card.');
  return null;
}
