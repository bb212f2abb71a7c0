// @ts-check
// Entry point: owns the connection, the signed-in identity, the header bar and
// the hash router, and hands each page a small context object:
//   {conn, banner, me, states, navigate, setChips, setTitle, loadGames, gameName}

import { Connection, defaultSocketUrl } from './connection.js';
import { Banner } from './banner.js';
import { el, formatChips, humanise, isPlainObject, replaceChildren, sameName } from './dom.js';
import { parseRoute, routeKey, href } from './router.js';
import { forgetIdentity, loadIdentity, saveIdentity } from './store.js';
import { createRecoveryCodePage, createSignInPage } from './signin.js';
import { createLobbyPage } from './lobby.js';
import { createTablePage } from './table.js';
import { createLedgerPage } from './ledger.js';
import { createReplayPage } from './replay.js';
import { LANGUAGES, language, setLanguage, t, tWord } from './i18n.js';

/** @typedef {import('../types/wire').Game} Game */
/** @typedef {import('../types/wire').State} State */
/** @typedef {import('../types/wire').Welcome} Welcome */
/**
 * A mounted page: its element, title, and what the app calls as things happen.
 * @typedef {object} Page
 * @property {HTMLElement} element
 * @property {string} [title]
 * @property {() => unknown} [start]
 * @property {() => unknown} [resume] after a reconnect, the page's requests again
 * @property {(state: State) => void} [onState]
 * @property {() => void} [destroy]
 */

// Request failures that only mean "the connection dropped"; reconnecting fixes them.
const NETWORK_CODES = ['disconnected', 'offline', 'timeout'];

// index.html holds these; without them there is no page to draw.
const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const banner = new Banner(/** @type {HTMLElement} */ (document.getElementById('banners')));
const conn = new Connection(defaultSocketUrl());

/**
 * What every page is given.
 * @typedef {typeof ctx} AppContext
 */
const ctx = {
  conn,
  banner,
  /** @type {{name: string, chips?: number} | null} */
  me: null, // {name, chips} once `welcome` arrives
  /** @type {Map<string, State>} */
  states: new Map(), // table id → latest state push, so a page opened late can draw at once
  /** @type {Game[] | null} */
  games: null,
  /** @type {Promise<Game[]> | null} */
  gamesPromise: null,
  /** @type {string | null} */
  node: null, // several nodes: the one that answered `welcome`
  /** @param {string} hash */
  navigate(hash) {
    if (window.location.hash === hash) route();
    else window.location.hash = hash;
  },
  /** @param {unknown} chips */
  setChips(chips) {
    if (!ctx.me || typeof chips !== 'number') return;
    ctx.me.chips = chips;
    renderUser();
  },
  /** @param {string | undefined} text */
  setTitle(text) {
    document.title = text ? `${text} · Parlour` : 'Parlour';
  },
  /**
   * The game catalogue, fetched once per connection.
   * @returns {Promise<Game[]>}
   */
  loadGames() {
    if (ctx.games) return Promise.resolve(ctx.games);
    if (!ctx.gamesPromise) {
      const promise = conn.request('games')
        .then((reply) => {
          ctx.games = Array.isArray(reply.games) ? reply.games.filter(isPlainObject) : [];
          return ctx.games;
        })
        .finally(() => {
          if (ctx.gamesPromise === promise) ctx.gamesPromise = null;
        });
      ctx.gamesPromise = promise;
    }
    return ctx.gamesPromise;
  },
  /**
   * Change the address without rebuilding the page (an invite link became a table).
   * @param {string} hash
   */
  replaceRoute(hash) {
    history.replaceState(null, '', hash);
    current.key = routeKey(parseRoute(hash));
  },
  /**
   * @param {string | undefined | null} id
   * @returns {string}
   */
  gameName(id) {
    const game = ctx.games?.find((g) => g.id === id);
    return tWord(game?.name || humanise(id ?? 'game')) || t('Game');
  },
};

// -- header ---------------------------------------------------------------

const statusDot = el('span', { class: 'conn-dot' });
const statusText = el('span', { class: 'conn-text', text: t('connecting') });
const statusBox = el('button', {
  type: 'button', class: 'conn conn-connecting', title: t('Connection to the server'),
  'data-zone': 'connection', 'data-state': 'reconnecting', 'aria-live': 'polite',
  onclick: () => conn.retryNow(),
}, statusDot, statusText);
const userBox = el('div', { class: 'user' });
const lookupInput = el('input', {
  type: 'search', class: 'lookup-input', placeholder: t('Player…'), maxlength: 24,
  'aria-label': t('Look up a player\'s ledger'),
});
const lookupForm = el('form', {
  class: 'lookup',
  onsubmit: (event) => {
    event.preventDefault();
    const name = lookupInput.value.trim();
    if (name) ctx.navigate(href.ledger(name));
    lookupInput.value = '';
  },
}, lookupInput, el('button', { type: 'submit', class: 'btn btn-small', text: t('Ledger') }));

// The language picker: each language named in itself; a choice is remembered
// and the page shown again in it (i18n.js).
const languageSelect = el('select', {
  class: 'lang-select', 'aria-label': t('Language'), title: t('Language'), 'data-zone': 'language',
  // Where the choice cannot be remembered the page stays as it is, and so does the picker.
  onchange: () => { setLanguage(languageSelect.value); languageSelect.value = language(); },
}, ...LANGUAGES.map(({ code, name }) => el('option', { value: code, lang: code, text: name, selected: code === language() })));

replaceChildren(/** @type {HTMLElement} */ (document.getElementById('header')),
  el('a', { class: 'brand', href: href.lobby() }, el('span', { class: 'brand-mark', text: '♠' }), 'Parlour'),
  el('nav', { class: 'nav' },
    el('a', { href: href.lobby(), text: t('Lobby') }),
    el('a', { href: href.ledger(null), text: t('My ledger') })),
  lookupForm,
  el('span', { class: 'spacer' }),
  languageSelect,
  statusBox,
  userBox);

function renderUser() {
  // Navigation only makes sense once signed in.
  document.body.classList.toggle('signed-out', !ctx.me);
  if (!ctx.me) {
    replaceChildren(userBox);
    return;
  }
  replaceChildren(userBox,
    el('a', { class: 'user-name', href: href.ledger(ctx.me.name), title: t('Your ledger'), text: ctx.me.name }),
    el('span', { class: 'user-chips', title: t('Your chip balance') }, el('span', { class: 'chip-icon' }), formatChips(ctx.me.chips)),
    el('button', { type: 'button', class: 'btn btn-small btn-ghost', text: t('Sign out'), onclick: signOut }));
}

/** @type {ReturnType<typeof setInterval> | undefined} */
let countdown;
conn.on('status', ({ status, retryAt }) => {
  statusBox.className = `conn conn-${status}`;
  statusBox.dataset.state = { online: 'connected', connecting: 'reconnecting', offline: 'offline' }[status] || 'offline';
  // Until the next `welcome`, requests would fail: hold route changes till then.
  if (status !== 'online') signedIn = false;
  clearInterval(countdown);
  const labels = { online: t('online'), connecting: t('connecting…') };
  if (status === 'offline') {
    // Count down to the next attempt so a long wait doesn't look like a hang.
    const tick = () => {
      const seconds = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
      statusText.textContent = t('offline · retry in {seconds}s', { seconds });
    };
    tick();
    countdown = setInterval(tick, 500);
    statusBox.title = t('Disconnected — click to retry now');
  } else {
    statusText.textContent = labels[status] || status;
    statusBox.title = t('Connection to the server');
  }
});

// -- identity -------------------------------------------------------------

let signedIn = false;

conn.on('open', () => {
  signedIn = false;
  ctx.games = null; // the server may have been upgraded while we were away
  ctx.gamesPromise = null;
  const identity = loadIdentity();
  if (!identity) {
    if (current.key !== 'signin') showSignIn(); // keep a half-typed name across reconnects
    return;
  }
  hello(identity.name, identity.token).catch((error) => {
    if (error.code === 'unauthorized' || error.code === 'name_taken' || error.code === 'bad_request') {
      // The stored name is not ours (any more): forget it and let the user pick another.
      forgetIdentity();
      ctx.me = null;
      renderUser();
      showSignIn(t('The server did not accept this browser\'s key for "{name}": it was revoked ' +
        '(the name was recovered with its recovery code) or the name belongs to someone else now. ' +
        'If it is yours, use "Lost your key?" below; otherwise choose another name.', { name: identity.name }));
    } else if (!NETWORK_CODES.includes(error.code)) {
      // Some other refusal (rate limit, server trouble): let the user retry by hand.
      showSignIn(t('Could not sign in as "{name}": {code}: {message}', { name: identity.name, code: error.code, message: error.message }));
    }
  });
});

// Every sign-in asks for state pushes of what changed only (connection.js,
// completeState, fills each push in from the ones before), and for results
// whose melds name no owner where they belong to the table (Carousel's), so a
// result does not give them all to one player (docs/protocol.md "Features").
const FEATURES = ['deltas', 'table_melds'];

/**
 * @param {string} name
 * @param {string} [token]
 */
async function hello(name, token) {
  /** @type {import('../types/wire').HelloRequest} */
  const fields = token ? { name, token, features: FEATURES } : { name, features: FEATURES };
  // A new name on an invite-only server comes in through the link that was opened.
  const opened = parseRoute(window.location.hash);
  if (!token && opened.name === 'invite') fields.invite = opened.code;
  if (!token && opened.name === 'signup') fields.signup = opened.code;
  return welcomed(name, token, await conn.request('hello', fields));
}

/**
 * `recover`: the name back with its recovery code; a new key and a new code come back.
 * @param {string} name
 * @param {string} code
 */
async function recover(name, code) {
  return welcomed(name, undefined, await conn.request('recover', { name, code, features: FEATURES }));
}

/**
 * `device_sign_in`: this browser becomes another device of the name whose code it is.
 * @param {string} code
 * @param {string} [label]
 */
async function deviceSignIn(code, label) {
  return welcomed('', undefined, await conn.request('device_sign_in', label ? { code, label, features: FEATURES } : { code, features: FEATURES }));
}

/**
 * `passphrase_sign_in`: the name's passphrase makes this browser one of its devices.
 * @param {string} name
 * @param {string} passphrase
 */
async function passphraseSignIn(name, passphrase) {
  return welcomed(name, undefined, await conn.request('passphrase_sign_in', { name, passphrase, features: FEATURES }));
}

/**
 * @param {string} name
 * @param {string | undefined} token
 * @param {Welcome} welcome
 */
async function welcomed(name, token, welcome) {
  const player = typeof welcome.player === 'string' && welcome.player ? welcome.player : name;
  saveIdentity(player, typeof welcome.token === 'string' && welcome.token ? welcome.token : token);
  // Same person, same page as before the connection dropped?
  const reconnect = ctx.me !== null && sameName(ctx.me.name, player) && current.real &&
    current.key === routeKey(parseRoute(window.location.hash));
  ctx.me = { name: player, chips: typeof welcome.chips === 'number' ? welcome.chips : ctx.me?.chips };
  ctx.node = typeof welcome.node === 'string' ? welcome.node : null;
  renderUser();
  // The recovery code comes once: shown until the person says it is kept.
  if (typeof welcome.recovery_code === 'string' && welcome.recovery_code) {
    const code = welcome.recovery_code;
    await new Promise((resolve) => {
      mount(createRecoveryCodePage({ name: player, code, onKept: () => resolve(undefined) }), 'recovery-code', false);
    });
  }
  // Pages show game names from the catalogue, so fetch it first (once per connection).
  await ctx.loadGames().catch((error) => {
    if (!NETWORK_CODES.includes(error.code)) banner.error(error);
  });
  if (!conn.isOpen) return; // dropped meanwhile: the next `open` signs in again
  signedIn = true;
  // A used sign-up link or device code leaves the address bar (and the history) for the lobby.
  if (['signup', 'device'].includes(parseRoute(window.location.hash).name)) history.replaceState(null, '', href.lobby());
  // After a reconnect the open page keeps its DOM and just re-subscribes (re-join / re-watch).
  if (reconnect) current.page?.resume?.();
  else route(true);
}

function signOut() {
  const ok = window.confirm(t('Sign out of "{name}"?\n\nThis browser will forget its secret key for the name, ' +
    'and without it you cannot sign in as this name again.', { name: ctx.me?.name }));
  if (!ok) return;
  forgetIdentity();
  ctx.me = null;
  signedIn = false;
  ctx.states.clear();
  renderUser();
  conn.restart(); // a fresh, anonymous connection; `open` shows the sign-in form
}

// -- pages ----------------------------------------------------------------

// The mounted page, its route key, and whether it is a real route page (not the sign-in form).
/** @type {{page: Page | null, key: string | null, real: boolean}} */
const current = { page: null, key: null, real: false };

/**
 * @param {Page} page
 * @param {string} key
 * @param {boolean} real
 */
function mount(page, key, real) {
  try {
    current.page?.destroy?.();
  } catch (error) {
    console.error('page cleanup failed', error);
  }
  current.page = page;
  current.key = key;
  current.real = real;
  replaceChildren(main, page.element);
  ctx.setTitle(page.title);
  window.scrollTo(0, 0);
  page.start?.();
}

/** @param {string} [message] */
function showSignIn(message) {
  const identity = loadIdentity();
  const opened = parseRoute(window.location.hash).name;
  mount(createSignInPage({
    message,
    note: opened === 'invite' ? t('You have been invited to a table: pick a name and you will be seated there.')
      : opened === 'signup' ? t('You have a sign-up link: pick a name to join this Parlour.') : '',
    name: identity?.name || '',
    // A stored token for the same name is offered, so an old name can be reclaimed.
    // A rejection is shown by the form itself.
    onSubmit: (name) => {
      const stored = loadIdentity();
      return hello(name, stored && sameName(stored.name, name) ? stored.token : undefined);
    },
    onTokenSubmit: (name, token) => hello(name, token),
    onRecoverSubmit: (name, code) => recover(name, code),
    deviceCode: parseRoute(window.location.hash).name === 'device' ? parseRoute(window.location.hash).code : '',
    onDeviceSubmit: (code, label) => deviceSignIn(code, label),
    onPassphraseSubmit: (name, passphrase) => passphraseSignIn(name, passphrase),
  }), 'signin', false);
}

function showConnecting() {
  mount({ element: el('section', { class: 'panel placeholder' }, el('p', { class: 'muted', text: t('Connecting to the server…') })), title: t('Connecting') },
    'connecting', false);
}

/**
 * @param {import('./router.js').Route} route
 * @returns {Page}
 */
function pageFor(route) {
  switch (route.name) {
    case 'table': return createTablePage(ctx, { table: route.table });
    case 'invite': return createTablePage(ctx, { invite: route.code });
    case 'ledger': return createLedgerPage(ctx, { player: route.player, table: route.table });
    case 'replay': return createReplayPage(ctx, { table: route.table, deal: route.deal, verify: route.verify });
    default: return createLobbyPage(ctx, { game: route.game });
  }
}

/** Show the page for the current hash. `force` rebuilds it even if it is already shown. */
function route(force = false) {
  if (!signedIn) {
    // The hash is kept, so the page opens once sign-in succeeds (e.g. an invite link).
    if (!current.page) showConnecting();
    return;
  }
  const parsed = parseRoute(window.location.hash);
  const key = routeKey(parsed);
  if (!force && current.real && current.key === key) return;
  // Several servers (`welcome.node`): a table's page talks to the server that
  // serves the table, so the connection is made again through the proxy with
  // the table in its URL; sign-in then shows this page.
  if (ctx.node && parsed.name === 'table') {
    const wanted = defaultSocketUrl(window.location, parsed.table);
    if (conn.url !== wanted) {
      conn.url = wanted;
      signedIn = false;
      conn.restart();
      return;
    }
  }
  mount(pageFor(parsed), key, true);
}

window.addEventListener('hashchange', () => route());

// -- pushes ---------------------------------------------------------------

conn.on('state', (state) => {
  if (!isPlainObject(state) || state.table === undefined) return;
  ctx.states.set(String(state.table), state);
  const mine = Array.isArray(state.players) && state.players.find((p) => isPlainObject(p) && sameName(p.player, ctx.me?.name));
  if (mine && typeof mine.chips === 'number') ctx.setChips(mine.chips);
  try {
    current.page?.onState?.(state);
  } catch (error) {
    // A drawing bug must not take the connection down with it.
    console.error('could not draw the state', error, state);
    banner.error({ code: 'client', message: t('Could not draw the latest table state (see the console).') });
  }
});

// An error that answers no request of ours. One with a `re` is a late answer to
// a request that already timed out (and said so), so only the others are shown.
conn.on('error', (error) => {
  if (Number.isInteger(error.re)) return;
  // This browser's key was revoked (the name was recovered elsewhere): the
  // server closes the connection next; the key is forgotten and sign-in shown.
  if (error.code === 'unauthorized' && ctx.me) {
    const name = ctx.me.name;
    forgetIdentity();
    ctx.me = null;
    signedIn = false;
    ctx.states.clear();
    renderUser();
    showSignIn(t('This browser was signed out of "{name}": {reason}. ' +
      'If that was not you, use "Lost your key?" with your recovery code.', { name, reason: error.message || t('its key was revoked') }));
    return;
  }
  banner.error(error);
});

// `welcome` without a pending hello can't happen normally; keep the header right anyway.
conn.on('welcome', (welcome) => {
  if (typeof welcome.chips === 'number') ctx.setChips(welcome.chips);
});

// -- start ----------------------------------------------------------------

showConnecting();
conn.connect();
