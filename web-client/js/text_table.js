// @ts-check
// The text table: a way to play every game with a screen reader or the
// keyboard alone, as lichess's blind mode does. In place of the felt the table
// is written out as headed lists of words (whose turn, the players, your hand,
// what lies on the table), read from the common view schema, so it serves every
// layout; the moves are the move panel's, numbered, with a "Move number" box:
// type a number and Enter plays it (a move with an amount takes you to its
// amount box). A polite live region says when your turn starts and how many
// moves you have. On or off with "Text table" or the key T; remembered.

import { el, formatChips, humanise } from './dom.js';
import { describeCard, isFace } from './cards.js';
import { SEAT_KEY, seatName } from './render.js';
import { pileInWords } from './actions.js';
import { ownFields, ownHand, readSchema, seatCards } from './layouts/schema.js';
import { statusWords } from './layouts/common.js';
import { t, tn, tWord } from './i18n.js';

/** @typedef {import('./render.js').RenderContext} RenderContext */
/** @typedef {import('./layouts/schema.js').Schema} Schema */
/** @typedef {import('../types/wire').Pile} Pile */
/** @typedef {import('../types/wire').State} State */

import { setSwitch, switchOn } from './store.js';

const KEY = 'parlour.text';

export function textModeOn() {
  return switchOn(KEY);
}

/** @param {boolean} on */
export function setTextMode(on) {
  setSwitch(KEY, on);
}

/**
 * "seven of hearts, king of spades" (a hidden card is "a hidden card").
 * @param {unknown[]} cards
 */
function cardsInWords(cards) {
  return cards.length ? cards.map((card) => (isFace(card) ? describeCard(card) : t('a hidden card'))).join(', ') : t('none');
}

/**
 * A building game's pile as its moves name it ("Your discard pile", "Layout
 * pile 4"); any other by its id ("Stock", "Discard"), with its owner ("bob's captured").
 * @param {Pile} pile
 * @param {RenderContext} rctx
 */
function pileName(pile, rctx) {
  const words = pileInWords(pile.id, rctx);
  if (words) return words[0].toUpperCase() + words.slice(1);
  const name = tWord(humanise(pile.id.replace(/-\d+$/, '')));
  if (!Number.isInteger(pile.owner)) return name;
  return pile.owner === rctx.mySeat ? t('Your {pile}', { pile: name.toLowerCase() })
    : t("{who}'s {pile}", { who: seatName(rctx, Number(pile.owner)), pile: name.toLowerCase() });
}

/**
 * One pile in words: its name, how many cards, and what shows.
 * @param {Pile} pile
 * @param {RenderContext} rctx
 */
function pileLine(pile, rctx) {
  const count = Number.isInteger(pile.count) ? pile.count : 0;
  const name = pileName(pile, rctx);
  const cards = tn(count, '{n} card', '{n} cards');
  if (Array.isArray(pile.cards) && pile.cards.some(isFace)) return t('{pile}: {cards}: {faces}.', { pile: name, cards, faces: cardsInWords(pile.cards) });
  if (isFace(pile.top)) return t('{pile}: {cards}, {card} on top.', { pile: name, cards, card: describeCard(pile.top) });
  return count ? t('{pile}: {cards}, face down.', { pile: name, cards }) : t('{pile}: empty.', { pile: name });
}

/**
 * A value of the view's own fields in words, or null for what is not worth reading out.
 * @param {unknown} value
 * @param {RenderContext} rctx
 * @param {string} key
 * @returns {string | null}
 */
function valueWords(value, rctx, key) {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return value ? t('yes') : t('no');
  if (typeof value === 'number') return SEAT_KEY.test(key) && Number.isInteger(value) ? seatName(rctx, value) : formatChips(value);
  if (typeof value === 'string') {
    const text = value;
    // isFace narrows to a card: the other branch is still a string, of words.
    return isFace(text) ? describeCard(text) : tWord(String(text).replace(/_/g, ' '));
  }
  if (Array.isArray(value)) {
    if (value.length && value.every(isFace)) return cardsInWords(value);
    if (value.every((item) => ['string', 'number'].includes(typeof item))) return value.length ? value.join(', ') : null;
  }
  return null; // nested objects: the felt draws them; the log and the moves say what matters
}

/**
 * A section: a heading and a list of lines.
 * @param {string} title
 * @param {string[]} lines
 * @param {string} zone
 */
function section(title, lines, zone) {
  return el('section', { class: 'text-section', 'data-text-zone': zone },
    el('h3', { class: 'text-heading', text: title }),
    el('ul', { class: 'text-lines' }, lines.map((line) => el('li', { text: line }))));
}

/**
 * The table in words, for the viewer: whose turn, the players, the viewer's
 * hand, and what lies on the table.
 * @param {State} state
 * @param {RenderContext} rctx
 * @param {{game: string, turn: string}} words the game's name and the turn line the page shows
 */
export function renderTextTable(state, rctx, words) {
  const schema = readSchema(state.view);
  const status = [`${words.game}.`, words.turn];
  if (schema.deal !== null) {
    status.push(schema.dealer !== null ? t('Deal {deal}, dealt by {dealer}.', { deal: schema.deal, dealer: seatName(rctx, schema.dealer) })
      : t('Deal {deal}.', { deal: schema.deal }));
  }
  if (schema.phase) status.push(t('Phase: {phase}.', { phase: tWord(schema.phase.replace(/_/g, ' ')) }));

  const players = rctx.players.map((player) => {
    const seat = Number(player.seat);
    const entry = schema.seats.get(seat);
    const parts = [seat === rctx.mySeat ? t('{name} (you)', { name: seatName(rctx, seat) }) : seatName(rctx, seat)];
    // English says "chips" for one chip too; the plural is for languages that say it otherwise.
    if (typeof player.chips === 'number') parts.push(tn(player.chips, '{n} chips', '{n} chips', { n: formatChips(player.chips) }));
    if (entry && Number.isInteger(entry.count) && seat !== rctx.mySeat) parts.push(tn(Number(entry.count), '{n} card in hand', '{n} cards in hand'));
    const faces = entry && seat !== rctx.mySeat ? seatCards(entry).filter(isFace) : [];
    if (faces.length) parts.push(t('showing {cards}', { cards: cardsInWords(faces) }));
    const score = schema.scores?.[seat];
    if (typeof score === 'number') parts.push(t('score {score}', { score }));
    const said = entry?.left ? t('left') : statusWords(entry?.status);
    if (said) parts.push(said);
    if (rctx.toAct.includes(seat)) parts.push(t('to act'));
    if (player.away) parts.push(t('away, a bot plays'));
    else if (player.connected === false && !player.bot) parts.push(t('disconnected'));
    return `${parts.join(', ')}.`;
  });

  const hand = ownHand(schema, rctx);
  const table = [];
  for (const pool of schema.pools) {
    table.push(tn(pool.amount, '{pool}: {n} chips.', '{pool}: {n} chips.', { pool: tWord(humanise(pool.name)), n: formatChips(pool.amount) }));
  }
  for (const pile of schema.piles) if (pile.owner !== rctx.mySeat || !Number.isInteger(pile.owner)) table.push(pileLine(pile, rctx));
  for (const meld of schema.melds) {
    table.push(Number.isInteger(meld.owner)
      ? t('Meld ({owner}): {cards}.', { owner: seatName(rctx, Number(meld.owner)), cards: cardsInWords(meld.cards) })
      : t('Meld: {cards}.', { cards: cardsInWords(meld.cards) }));
  }
  if (schema.trick) {
    const plays = schema.trick.plays.map((play) => t('{who} played {card}', { who: seatName(rctx, play.seat), card: describeCard(play.card) }));
    const trick = plays.length ? t('Trick: {plays}.', { plays: plays.join(', ') }) : t('Trick: no card played yet.');
    table.push(schema.trick.trump ? `${trick} ${t('Trumps: {trump}.', { trump: tWord(schema.trick.trump) })}` : trick);
  }
  for (const [key, value] of Object.entries(ownFields(state.view))) {
    const said = valueWords(value, rctx, key);
    if (said !== null) table.push(t('{field}: {value}.', { field: tWord(humanise(key)), value: said }));
  }
  const mine = schema.piles.filter((pile) => pile.owner === rctx.mySeat && Number.isInteger(pile.owner)).map((pile) => pileLine(pile, rctx));

  return el('div', { class: 'text-table panel', 'data-zone': 'text-table', role: 'region', 'aria-label': t('The table in words') },
    section(t('Status'), status, 'status'),
    section(t('Players'), players, 'players'),
    hand ? section(tn(hand.length, 'Your hand, {n} card', 'Your hand, {n} cards'), hand.length ? hand.map((card, i) => `${i + 1}. ${describeCard(card)}`) : [t('No cards.')], 'hand') : null,
    mine.length ? section(t('Your piles'), mine, 'mine') : null,
    section(t('On the table'), table.length ? table : [t('Nothing yet.')], 'table'));
}

/**
 * Numbers the move panel's moves ("1. Bet …") and adds the "Move number" box:
 * a number and Enter press that move's button, or, for a move with an amount,
 * take the focus to its amount box. Returns the box, to focus when a turn starts.
 * @param {HTMLElement} panel the move panel's element (renderActions)
 * @param {(text: string) => void} say a refusal, read out
 * @returns {HTMLInputElement | null}
 */
export function numberMoves(panel, say) {
  const buttons = /** @type {HTMLButtonElement[]} */ ([...panel.querySelectorAll('button.btn-action')]);
  if (!buttons.length) return null;
  buttons.forEach((button, index) => {
    button.dataset.number = String(index + 1);
    button.prepend(el('span', { class: 'move-number', text: `${index + 1}. ` }));
  });
  const box = /** @type {HTMLInputElement} */ (el('input', {
    type: 'text', inputmode: 'numeric', class: 'move-number-input', 'data-testid': 'move-number', autocomplete: 'off',
    'aria-label': t('Move number, 1 to {n}', { n: buttons.length }), size: '4',
  }));
  const play = () => {
    const n = Number(box.value.trim());
    const button = Number.isInteger(n) ? buttons[n - 1] : undefined;
    if (!button) {
      const typed = box.value.trim();
      say(typed ? t('There is no move {typed}: type a number from 1 to {n}.', { typed, n: buttons.length })
        : t('There is no move without a number: type a number from 1 to {n}.', { n: buttons.length }));
      box.select();
      return;
    }
    box.value = '';
    const amount = /** @type {HTMLInputElement | null} */ (button.parentElement?.querySelector('input.action-number') ?? null);
    if (amount && !button.dataset.action) {
      amount.focus();
      amount.select();
      say(t('{amount}: type it, then Enter.', { amount: amount.getAttribute('aria-label') ?? t('Amount') }));
      return;
    }
    button.click();
  };
  box.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    event.stopPropagation();
    play();
  });
  const form = el('div', { class: 'move-number-form' },
    el('label', { class: 'move-number-label' }, `${t('Move number (1 to {n})', { n: buttons.length })} `, box),
    el('button', { type: 'button', class: 'btn btn-small', onclick: play, text: t('Play') }));
  panel.prepend(form);
  return box;
}
