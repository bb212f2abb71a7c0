// @ts-check
// One WebSocket to the server with request/reply matching and automatic reconnect.
//
// Requests carry an increasing `id`; the server's direct reply carries `re`
// (PROTOCOL.md), which settles that request's promise: `error` replies reject
// with {code, message}, anything else resolves with the message. Messages with
// no pending `re` (e.g. `state` pushes) are handed to `on(type, fn)` listeners.

import { completeState } from './state_merge.js';
import { t } from './i18n.js';

const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000];
const REQUEST_TIMEOUT_MS = 20000;
// A ping now and then lets us notice a connection that died silently
// (laptop sleep, NAT timeout) instead of waiting forever for the next push.
const PING_EVERY_MS = 25000;

/** @typedef {import('../types/wire').RequestMap} RequestMap */
/** @typedef {import('../types/wire').ReplyMap} ReplyMap */
/** @typedef {import('../types/wire').PushMap} PushMap */
/** @typedef {import('../types/wire').StatePush} StatePush */
/** @typedef {import('../types/wire').State} State */
/** @typedef {import('../types/wire').Player} Player */
/** @typedef {import('../types/wire').Result} Result */
/** @typedef {import('../types/wire').ChatLine} ChatLine */
/** @typedef {'connecting' | 'online' | 'offline'} ConnectionStatus */
/**
 * What a connection's listeners are given, by event: pushed messages by their type
 * (a `state` push filled in to the whole state), and the pseudo-events 'open' and 'status'.
 * @typedef {Omit<PushMap, 'state'> & {state: State, open: undefined, status: {status: ConnectionStatus, retryAt: number}}} EventMap
 */
/**
 * @typedef {object} PendingRequest
 * @property {(reply: any) => void} resolve
 * @property {(error: RequestError) => void} reject
 * @property {ReturnType<typeof setTimeout>} timer
 */

export class RequestError extends Error {
  /**
   * @param {string} code
   * @param {string} [message]
   */
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

export class Connection {
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.nextId = 1;
    /** @type {Map<number, PendingRequest>} */
    this.pending = new Map(); // id → {resolve, reject, timer}
    /** @type {Map<string, Set<(payload: any) => void>>} */
    this.listeners = new Map(); // type → Set<fn>
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined | null} */
    this.retryTimer = null;
    /** @type {ReturnType<typeof setInterval> | undefined | null} */
    this.pingTimer = null;
    /** @type {ConnectionStatus} */
    this.status = 'connecting';
    this.retryAt = 0;
    /** @type {Map<string, import('./state_merge.js').TableMemory>} */
    this.tables = new Map(); // table id → {log, logEnd, chat, chatEnd, players, result, fixed, constants}: what state pushes leave out
  }

  /** Listen for pushed messages of a type ('state', 'error', …) or for
   *  the pseudo-events 'open' and 'status'. Returns an unsubscribe function.
   * @template {keyof EventMap} T
   * @param {T} type
   * @param {(payload: EventMap[T]) => void} fn
   * @returns {() => void}
   */
  on(type, fn) {
    let listeners = this.listeners.get(type);
    if (!listeners) this.listeners.set(type, listeners = new Set());
    listeners.add(fn);
    return () => this.listeners.get(type)?.delete(fn);
  }

  /**
   * @param {string} type
   * @param {unknown} [payload]
   */
  emit(type, payload) {
    for (const fn of [...(this.listeners.get(type) || [])]) {
      try {
        fn(payload);
      } catch (err) {
        console.error(`listener for "${type}" failed`, err);
      }
    }
  }

  /** @param {ConnectionStatus} status */
  setStatus(status) {
    this.status = status;
    this.emit('status', { status, retryAt: this.retryAt });
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  connect() {
    clearTimeout(this.retryTimer ?? undefined);
    this.retryTimer = null;
    this.setStatus('connecting');
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (err) {
      console.error('cannot open WebSocket', err);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    // A new connection is a new member everywhere: the server sends whole logs again.
    this.tables.clear();
    socket.addEventListener('open', () => {
      if (socket !== this.socket) return;
      this.attempt = 0;
      this.setStatus('online');
      this.startPings();
      this.emit('open');
    });
    socket.addEventListener('message', (event) => {
      if (socket === this.socket) this.handleFrame(event.data);
    });
    socket.addEventListener('close', () => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.stopPings();
      this.failPending('disconnected', t('Connection lost; reconnecting…'));
      this.scheduleReconnect();
    });
    // 'error' is always followed by 'close', which does the work.
  }

  /**
   * Forget the current socket at once; its late 'close' event is ignored.
   * @param {string} reason
   */
  abandon(reason) {
    const old = this.socket;
    this.socket = null;
    this.stopPings();
    this.failPending('disconnected', reason);
    if (old) {
      try {
        old.close();
      } catch {
        /* already closing */
      }
    }
  }

  /** Connect again at once with a fresh socket (used when switching identity). */
  restart() {
    this.abandon('Reconnecting…');
    this.attempt = 0;
    this.connect();
  }

  scheduleReconnect() {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.retryAt = Date.now() + delay;
    this.setStatus('offline');
    clearTimeout(this.retryTimer ?? undefined);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Skip the remaining backoff wait (e.g. the user clicked the status indicator). */
  retryNow() {
    if (this.status === 'offline') this.connect();
  }

  /** @param {unknown} data a frame's text */
  handleFrame(data) {
    let message;
    try {
      message = JSON.parse(String(data));
    } catch {
      console.warn('ignoring a frame that is not JSON', data);
      return;
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return;
    if (message.type === 'state') this.completeState(message);
    const request = Number.isInteger(message.re) ? this.pending.get(message.re) : undefined;
    if (request) {
      this.pending.delete(message.re);
      clearTimeout(request.timer);
      if (message.type === 'error') request.reject(new RequestError(String(message.code ?? 'error'), message.message));
      else request.resolve(message);
      // A state is news for the table view even if a server sends it as a reply.
      if (message.type !== 'state') return;
    }
    this.emit(String(message.type ?? 'unknown'), message);
  }

  /**
   * Fills a state push in from what this connection kept of its table (state_merge.js).
   * @param {StatePush} state filled in where it lies: it is the whole `State` afterwards
   */
  completeState(state) {
    completeState(this.tables, state);
  }

  /**
   * Send a request; resolves with the reply, rejects with a RequestError.
   * @template {keyof RequestMap} T
   * @param {T} type
   * @param {RequestMap[T]} [fields]
   * @returns {Promise<ReplyMap[T]>}
   */
  request(type, fields = /** @type {RequestMap[T]} */ ({})) {
    if (!this.isOpen) return Promise.reject(new RequestError('offline', t('Not connected to the server.')));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) reject(new RequestError('timeout', t('The server did not answer in time.')));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      try {
        /** @type {WebSocket} */ (this.socket).send(JSON.stringify({ ...fields, type, id })); // isOpen said so
      } catch (err) {
        this.pending.delete(id);
        clearTimeout(timer);
        reject(new RequestError('offline', String(/** @type {Error} */ (err)?.message || err)));
      }
    });
  }

  /**
   * @param {string} code
   * @param {string} message
   */
  failPending(code, message) {
    const requests = [...this.pending.values()];
    this.pending.clear();
    for (const request of requests) {
      clearTimeout(request.timer);
      request.reject(new RequestError(code, message));
    }
  }

  startPings() {
    this.stopPings();
    this.pingTimer = setInterval(() => {
      const socket = this.socket;
      this.request('ping').catch((err) => {
        // No pong: the socket is dead even if the browser has not noticed yet,
        // and its close handshake could take minutes, so drop it now.
        if (err.code === 'timeout' && socket && socket === this.socket) {
          this.abandon(t('Connection lost; reconnecting…'));
          this.scheduleReconnect();
        }
      });
    }, PING_EVERY_MS);
  }

  stopPings() {
    clearInterval(this.pingTimer ?? undefined);
    this.pingTimer = null;
  }
}

/** The WebSocket URL on the same host the page came from. On a table's page
 *  it names the table (/ws?table=ID): where several servers share the work, the
 *  proxy sends every client of a table to the server that serves it.
 * @param {Location} [loc]
 * @param {string | null} [table]
 * @returns {string}
 */
export function defaultSocketUrl(loc = window.location, table = tableOfHash(loc.hash)) {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}/ws` + (table ? `?table=${encodeURIComponent(table)}` : '');
}

/**
 * The table a #/table/ID hash shows, or null.
 * @param {string} hash
 * @returns {string | null}
 */
export function tableOfHash(hash) {
  const match = /^#\/table\/([^/?]+)/.exec(hash || '');
  return match ? decodeURIComponent(match[1]) : null;
}
