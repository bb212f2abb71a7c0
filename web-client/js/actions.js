// @ts-check
// Turning the `legal` list of a state into buttons.
//
// Every entry is an action object the server promised to accept verbatim
// (PROTOCOL.md "Play"). The client only fills in numbers: a field given as
// {"min":a,"max":b} becomes a number input, and the chosen number replaces it.
// Every other field is sent back exactly as it came.

import { el, humanise, isPlainObject } from './dom.js';
import { isCard, isCardList, cardText } from './cards.js';
import { SEAT_KEY, seatName } from './render.js';
import { layoutDiff } from './layouts/tablediff.js';
import { actionHint } from './help.js';
import { t, tn, tWord } from './i18n.js';

/** @typedef {import('./render.js').RenderContext} RenderContext */
/** @typedef {import('../types/dom').Child} Child */
/** @typedef {import('../types/wire').LegalAction} LegalAction */
/** @typedef {import('../types/wire').Action} Action */
/** @typedef {import('../types/wire').Range} Range */

// Numbers under these keys read naturally without their key: "Bet 5", not "Bet amount 5".
const BARE_NUMBER_KEYS = new Set(['amount', 'value', 'count', 'n', 'number']);

// "JK=TH": a wild card and what it stands for (Carousel's layout).
/**
 * @param {unknown} value
 * @returns {value is string}
 */
function isCardish(value) {
  return isCard(value) || (typeof value === 'string' && /^(JK|[A2-9TJQK][SHDC])=([A2-9TJQK][SHDC])$/.test(value));
}

/** @param {string} value */
function cardishText(value) {
  if (isCard(value)) return cardText(value);
  const [wild, stands] = /** @type {string} */ (value).split('='); // a wild: isCardish said so
  return el('span', { class: 'card-wild' }, cardText(wild), '→', cardText(stands));
}

/**
 * @param {unknown} value
 * @returns {value is Range}
 */
function isRange(value) {
  return isPlainObject(value) && Number.isFinite(value.min) && Number.isFinite(value.max);
}

// A building game's pile id ("layout:4", "discard:1:2"; docs/protocol.md "Building games") in words.
const PILE_ID = /^(stock|hand|supply|turned|discard|centre|layout):(\d+)(?::(\d+))?$/;
/** @type {Record<string, string>} */
const PILE_WORDS = {
  stock: t('stock'), hand: t('hand'), supply: t('supply'), turned: t('turned card'), discard: t('discard pile'), centre: t('centre pile'), layout: t('layout pile'),
};

/**
 * @param {string} id a pile id that PILE_ID matched
 * @param {RenderContext | null | undefined} ctx
 */
function pileWords(id, ctx) {
  const [, kind, first, second] = /** @type {RegExpExecArray} */ (PILE_ID.exec(id));
  if (kind === 'centre' || kind === 'layout') return t('{pile} {n}', { pile: PILE_WORDS[kind], n: Number(first) + 1 });
  const seat = Number(first);
  const pile = second !== undefined ? t('{pile} {n}', { pile: PILE_WORDS[kind], n: Number(second) + 1 }) : PILE_WORDS[kind];
  if (ctx && seat === ctx.mySeat) return t('your {pile}', { pile });
  return ctx ? t("{who}'s {pile}", { who: seatName(ctx, seat), pile }) : t("seat {seat}'s {pile}", { seat, pile });
}

/**
 * A building game's pile in words ("your discard pile", "layout pile 4"), or
 * null for an id that is not one.
 * @param {string} id
 * @param {RenderContext | null | undefined} ctx
 * @returns {string | null}
 */
export function pileInWords(id, ctx) {
  return PILE_ID.test(id) ? pileWords(id, ctx) : null;
}

/**
 * A table meld by its cards ("3♥ 4♥ 5♥"), found by its view id; null when it is not on the table.
 * @param {unknown} id
 * @param {RenderContext | null | undefined} ctx
 * @returns {HTMLElement | null}
 */
export function meldText(id, ctx) {
  const meld = (Array.isArray(ctx?.view?.melds) ? ctx.view.melds : []).find((/** @type {unknown} */ m) => isPlainObject(m) && m.id === id && Array.isArray(m.cards));
  if (!meld) return null;
  return el('span', { class: 'card-text-list' }, meld.cards.filter(isCardish).map(cardishText));
}

/** @type {Record<string, string>} */
const FROM_WORDS = {
  stock: t('from the stock'), discard: t('from the discard pile'), two_discards: t('the top two discards'), widow: t('from the widow'),
};

/**
 * The builds an action names by id, as their cards: "the build 7♠ 4♣", "the builds 7♠ 4♣ and 5♦ 6♣".
 * @param {number[]} ids
 * @param {RenderContext | null | undefined} ctx
 * @returns {Child[]}
 */
function buildsText(ids, ctx) {
  /** @type {Child[]} */
  const parts = [ids.length === 1 ? t('the build ') : t('the builds ')];
  ids.forEach((id, index) => {
    if (index > 0) parts.push(index === ids.length - 1 ? t(' and ') : t(', '));
    parts.push(meldText(id, ctx) ?? t('a build'));
  });
  return parts;
}

/**
 * Short label fragments for one non-range field of an action.
 * @param {string} key
 * @param {unknown} value
 * @param {RenderContext | null | undefined} ctx
 * @param {string} [type] the action's type
 * @returns {Child}
 */
function labelPart(key, value, ctx, type = '') {
  if (value === null || value === undefined) return null;
  // Royal Cassino: "Capture J♠ taking 5♦ 6♣ and the build 7♠ 4♣", "Build 7♠ with 4♣ to make 11".
  if (key === 'builds' && Array.isArray(value) && value.every(Number.isInteger)) {
    return value.length ? [t('and '), ...buildsText(value, ctx)] : null;
  }
  if ((key === 'take' || key === 'with') && isCardList(value)) {
    return value.length ? [key === 'take' ? t('taking ') : t('with '), el('span', { class: 'card-text-list' }, value.map(cardText))] : null;
  }
  if (key === 'value' && type === 'build' && Number.isInteger(value)) return t('to make {n}', { n: value });
  if (key === 'meld' && Number.isInteger(value)) {
    const cards = meldText(value, ctx);
    return cards ? [t('on '), cards] : t('on a meld');
  }
  if (key === 'depth' && Number.isInteger(value)) {
    return value === 0 ? null : tn(value, 'and the card above it', 'and the {n} cards above it');
  }
  if (key === 'from' && typeof value === 'string' && FROM_WORDS[value]) return FROM_WORDS[value];
  if (key === 'wilds' && isCardList(value)) return [t('(wild as '), el('span', { class: 'card-text-list' }, value.map(cardText)), ')'];
  if (key === 'shift' && isCard(value)) return [t('(moving the wild card to '), cardText(value), ')'];
  if (key === 'widow' && typeof value === 'boolean') return value ? t('with the widow') : null;
  if ((key === 'from' || key === 'to') && typeof value === 'string' && PILE_ID.test(value)) {
    return key === 'from' ? t('from {pile}', { pile: pileWords(value, ctx) }) : t('to {pile}', { pile: pileWords(value, ctx) });
  }
  if (Array.isArray(value) && value.length === 0) return null; // e.g. a capture that takes no build
  if (isCard(value)) return cardText(value);
  if (isCardList(value)) return el('span', { class: 'card-text-list' }, value.map(cardText));
  if (Array.isArray(value) && value.length > 0 && value.every((g) => Array.isArray(g) && g.every(isCardish))) {
    // e.g. melds: [["7H","8H","9H"],["KS","KD","KC"]]
    return el('span', { class: 'card-text-list' },
      value.map((/** @type {string[]} */ group) => el('span', { class: 'card-text-group' }, group.map(cardishText))));
  }
  if (typeof value === 'string') {
    // Enum-like tokens ("discard_pile") read better with spaces; names are left alone.
    return /^[a-z]+(_[a-z]+)+$/.test(value) ? tWord(value.replace(/_/g, ' ')) : value;
  }
  if (typeof value === 'number') {
    if (Number.isInteger(value) && SEAT_KEY.test(key) && ctx) {
      // {"type":"call","seat":2} → "Call bob"; other seat fields keep their name.
      return key === 'seat' ? seatName(ctx, value) : `${tWord(humanise(key)).toLowerCase()} ${seatName(ctx, value)}`;
    }
    return BARE_NUMBER_KEYS.has(key) ? String(value) : `${tWord(humanise(key)).toLowerCase()} ${value}`;
  }
  if (typeof value === 'boolean') return value ? tWord(humanise(key)).toLowerCase() : t('no {what}', { what: tWord(humanise(key)).toLowerCase() });
  const json = JSON.stringify(value);
  return `${tWord(humanise(key)).toLowerCase()} ${json.length > 40 ? json.slice(0, 37) + '…' : json}`;
}

// Verbs for types whose name alone reads oddly on a button.
/** @type {Record<string, string>} */
const VERBS = {
  card: t('Play'), play_card: t('Play'), lay_off: t('Lay off'), go_rummy: t('Go rummy'), go_down: t('Go down'), take_widow: t('Take the widow'),
  pay_dealer: t('Pay the dealer'), general: t('General Rams'), take_all: t('Take the whole pile'), end_turn: t('End turn'), turn_stock: t('Turn your stock'),
  turn_hand: t('Turn your hand'), call: t('Call the discard'),
  // The others read as their names do (humanised), in the page's language.
  bet: t('Bet'), build: t('Build'), capture: t('Capture'), continue: t('Continue'), decline: t('Decline'), demand: t('Demand'),
  discard: t('Discard'), draw: t('Draw'), exchange: t('Exchange'), finish: t('Finish'), keep: t('Keep'), knock: t('Knock'),
  meld: t('Meld'), move: t('Move'), pass: t('Pass'), play: t('Play'), skip: t('Skip'), stand: t('Stand'), stop: t('Stop'),
  take: t('Take'), trail: t('Trail'), withdraw: t('Withdraw'),
};

let hintIds = 0;

const CASSINO_ORDER = ['type', 'card', 'take', 'with', 'builds', 'value'];

/**
 * A whole-table layout said as what it changes: "Meld 7♥ 8♥ 9♥", "Lay off 9♠ on meld 2".
 * @param {LegalAction & {melds: unknown[]}} entry
 * @param {RenderContext | null | undefined} ctx
 * @param {boolean} [detailed]
 */
function layoutLabel(entry, ctx, detailed = false) {
  const diff = layoutDiff(entry, ctx?.view?.melds);
  const label = el('span', { class: 'action-label' });
  /** @type {Child[]} */
  const parts = [];
  for (const cards of diff.newMelds) parts.push([t('Meld '), el('span', { class: 'card-text-list' }, cards.map(cardText))]);
  for (const l of diff.layoffs) parts.push([t('Lay off '), el('span', { class: 'card-text-list' }, l.cards.map(cardText)), t(' on '), meldText(l.meld, ctx) ?? t('a meld')]);
  if (diff.rearranged || !parts.length) parts.push([t('Rearrange the table'), diff.added.length ? [t(' with '), el('span', { class: 'card-text-list' }, diff.added.map(cardText))] : '']);
  parts.forEach((part, i) => label.append(...(i ? [t('; ')] : []), .../** @type {(Node | string)[]} */ ([part].flat(2))));
  if (detailed) {
    // Two layouts that read the same differ in how wild cards stand or melds are split: show the table they make.
    label.append(' → ', el('span', { class: 'card-text-list' }, entry.melds.filter(Array.isArray)
      .map((/** @type {unknown[]} */ group) => el('span', { class: 'card-text-group' }, group.filter(isCardish).map(cardishText)))));
  }
  return label;
}

/**
 * @param {LegalAction} entry
 * @param {RenderContext | null | undefined} ctx
 * @param {boolean} [detailed]
 */
function actionLabel(entry, ctx, detailed) {
  const type = typeof entry.type === 'string' ? entry.type : 'action';
  if (type === 'layout' && Array.isArray(entry.melds)) return layoutLabel(/** @type {LegalAction & {melds: unknown[]}} */ (entry), ctx, detailed);
  /** @type {Child[]} */
  const parts = [VERBS[type] || tWord(humanise(type)) || t('Act')];
  // The wire sorts an action's fields by name; a capture or build reads in its own order.
  const order = type === 'capture' || type === 'build' ? CASSINO_ORDER : null;
  const fields = Object.entries(entry);
  if (order) fields.sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
  for (const [key, value] of fields) {
    if (key === 'type' || isRange(value)) continue;
    const part = labelPart(key, value, ctx, type);
    if (part !== null && part !== '') parts.push(part);
  }
  const label = el('span', { class: 'action-label' });
  parts.forEach((part, index) => {
    if (index > 0) label.append(' ');
    label.append(.../** @type {(Node | string)[]} */ ([part].flat()));
  });
  return label;
}

/**
 * @param {string} key
 * @param {Range} range
 * @param {string} type
 * @param {() => void} submit
 */
function rangeControls(key, range, type, submit) {
  const min = Math.ceil(range.min);
  const max = Math.floor(range.max);
  const number = el('input', {
    type: 'number', class: 'action-number', name: key, min, max, step: 1, value: String(min),
    'data-action-type': type,
    'aria-label': t('{what} ({min} to {max})', { what: tWord(humanise(key)), min, max }), title: t('{what}: {min}–{max}', { what: tWord(humanise(key)), min, max }),
    onkeydown: (event) => { if (event.key === 'Enter') submit(); },
    oninput: () => { number.setCustomValidity(''); slider.value = number.value; },
  });
  const slider = el('input', {
    type: 'range', class: 'action-slider', min, max, step: 1, value: String(min),
    'data-action-type': type,
    'aria-label': t('{what} slider ({min} to {max})', { what: tWord(humanise(key)), min, max }),
    oninput: () => { number.value = slider.value; number.setCustomValidity(''); },
  });
  const label = el('label', { class: 'action-range' },
    el('span', { class: 'action-range-key', text: tWord(humanise(key)) }),
    el('span', { class: 'action-range-bounds', text: String(min) }),
    slider,
    el('span', { class: 'action-range-bounds', text: String(max) }),
    number);
  return { label, number };
}

/**
 * Read a range input; reports the problem on the input and returns null if invalid.
 * @param {HTMLInputElement} input
 * @param {string} key
 * @param {Range} range
 * @returns {number | null}
 */
function readRange(input, key, range) {
  const number = Number(input.value);
  const min = Math.ceil(range.min);
  const max = Math.floor(range.max);
  if (input.value.trim() === '' || !Number.isInteger(number) || number < min || number > max) {
    input.setCustomValidity(t('{what} must be a whole number from {min} to {max}.', { what: tWord(humanise(key)), min, max }));
    input.reportValidity();
    return null;
  }
  return number;
}

/**
 * @param {LegalAction} entry
 * @param {RenderContext} ctx
 * @param {(action: Action) => void} onAct
 * @param {boolean} detailed
 */
function actionControl(entry, ctx, onAct, detailed) {
  const type = typeof entry.type === 'string' ? entry.type : 'action';
  const ranges = Object.entries(entry).filter(([key, value]) => key !== 'type' && isRange(value));
  /** @type {Map<string, HTMLInputElement>} */
  const inputs = new Map();
  const submit = () => {
    if (button.disabled) return;
    /** @type {Record<string, unknown>} */
    const action = {};
    for (const [key, value] of Object.entries(entry)) {
      const input = inputs.get(key);
      if (input) {
        const number = readRange(input, key, /** @type {Range} */ (value)); // an input is made for each range
        if (number === null) return;
        action[key] = number;
      } else {
        action[key] = value;
      }
    }
    onAct(/** @type {Action} */ (action)); // the entry's fields, `type` among them
  };
  const hint = actionHint(entry);
  const button = el('button', {
    type: 'button', class: 'btn btn-action', onclick: submit,
    'data-action-type': type,
    'data-action': ranges.length ? null : JSON.stringify(entry),
    title: hint, 'data-hint': hint,
  }, actionLabel(entry, ctx, detailed));
  // Where nothing hovers (a phone), the hint is written beside the button: a tap plays at once.
  const shownHint = hint ? el('span', { class: 'action-hint', id: `hint-${++hintIds}`, text: hint }) : null;
  if (shownHint) button.setAttribute('aria-describedby', shownHint.id);
  if (!ranges.length) return shownHint ? el('span', { class: 'action-with-hint' }, button, shownHint) : button;
  const wrapper = el('span', { class: 'action-with-input' });
  for (const [key, range] of ranges) {
    const { label, number } = rangeControls(key, /** @type {Range} */ (range), type, submit);
    inputs.set(key, number);
    wrapper.append(label);
  }
  wrapper.append(button);
  if (shownHint) wrapper.append(shownHint);
  return wrapper;
}

/**
 * Build the controls for a `legal` list.
 * onAct(action) is called with the action to send.
 * Returns {element, setBusy(bool)}; busy disables everything while a request is in flight.
 * @param {unknown} legal
 * @param {RenderContext} ctx
 * @param {(action: Action) => void} onAct
 * @returns {{element: HTMLElement, setBusy: (busy: boolean) => void, count: number}}
 */
export function renderActions(legal, ctx, onAct) {
  // Objects, as PROTOCOL.md says each entry is; their `type` is still checked where it is read.
  const entries = /** @type {LegalAction[]} */ (Array.isArray(legal) ? legal.filter(isPlainObject) : []);
  /** @type {Map<string, HTMLElement[]>} */
  const groups = new Map(); // type → controls, in the server's order
  // Labels that read alike (Carousel's layouts) say what differs.
  const plain = entries.map((entry) => actionLabel(entry, ctx).textContent);
  for (const [index, entry] of entries.entries()) {
    const type = typeof entry.type === 'string' ? entry.type : 'action';
    let group = groups.get(type);
    if (!group) groups.set(type, group = []);
    const twin = plain.some((text, other) => other !== index && text === plain[index]);
    group.push(actionControl(entry, ctx, onAct, twin));
  }
  const element = el('div', { class: 'actions' },
    [...groups.values()].map((controls) => el('div', { class: 'action-group' }, controls)));
  /** @param {boolean} busy */
  const setBusy = (busy) => {
    element.classList.toggle('is-busy', busy);
    for (const control of element.querySelectorAll('button, input')) /** @type {HTMLButtonElement | HTMLInputElement} */ (control).disabled = busy;
  };
  return { element, setBusy, count: entries.length };
}
