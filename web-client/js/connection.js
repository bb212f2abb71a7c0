// One WebSocket to the server with request/reply matching and automatic reconnect.
//
// Requests carry an increasing `id`; the server's direct reply carries `re`
// (PROTOCOL.md), which settles that request's promise: `error` replies reject
// with {code, message}, anything else resolves with the message. Messages with
// no pending `re` (e.g. `state` pushes) are handed to `on(type, fn)` listeners.

import { completeState } from './state_merge.js';

const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000];
const REQUEST_TIMEOUT_MS = 20000;
// A ping now and then lets us notice a connection that died silently
// (laptop sleep, NAT timeout) instead of waiting forever for the next push.
const PING_EVERY_MS = 25000;

export class RequestError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

export class Connection {
  constructor(url) {
    this.url = url;
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map(); // id → {resolve, reject, timer}
    this.listeners = new Map(); // type → Set<fn>
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.status = 'connecting';
    this.retryAt = 0;
    this.tables = new Map(); // table id → {log, logEnd, chat, chatEnd, players, result, fixed, constants}: what state pushes leave out
  }

  /** Listen for pushed messages of a type ('state', 'error', …) or for
   *  the pseudo-events 'open' and 'status'. Returns an unsubscribe function. */
  on(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type).add(fn);
    return () => this.listeners.get(type)?.delete(fn);
  }

  emit(type, payload) {
    for (const fn of [...(this.listeners.get(type) || [])]) {
      try {
        fn(payload);
      } catch (err) {
        console.error(`listener for "${type}" failed`, err);
      }
    }
  }

  setStatus(status) {
    this.status = status;
    this.emit('status', { status, retryAt: this.retryAt });
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  connect() {
    clearTimeout(this.retryTimer);
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
      this.failPending('disconnected', 'Connection lost; reconnecting…');
      this.scheduleReconnect();
    });
    // 'error' is always followed by 'close', which does the work.
  }

  /** Forget the current socket at once; its late 'close' event is ignored. */
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
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Skip the remaining backoff wait (e.g. the user clicked the status indicator). */
  retryNow() {
    if (this.status === 'offline') this.connect();
  }

  handleFrame(data) {
    let message;
    try {
      message = JSON.parse(data);
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

  /** Fills a state push in from what this connection kept of its table (state_merge.js). */
  completeState(state) {
    completeState(this.tables, state);
  }

  /** Send a request; resolves with the reply, rejects with a RequestError. */
  request(type, fields = {}) {
    if (!this.isOpen) return Promise.reject(new RequestError('offline', 'Not connected to the server.'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) reject(new RequestError('timeout', 'The server did not answer in time.'));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      try {
        this.socket.send(JSON.stringify({ ...fields, type, id }));
      } catch (err) {
        this.pending.delete(id);
        clearTimeout(timer);
        reject(new RequestError('offline', String(err?.message || err)));
      }
    });
  }

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
          this.abandon('Connection lost; reconnecting…');
          this.scheduleReconnect();
        }
      });
    }, PING_EVERY_MS);
  }

  stopPings() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
  }
}

/** The WebSocket URL on the same host the page came from. On a table's page
 *  it names the table (/ws?table=ID): where several servers share the work, the
 *  proxy sends every client of a table to the server that serves it. */
export function defaultSocketUrl(loc = window.location, table = tableOfHash(loc.hash)) {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}/ws` + (table ? `?table=${encodeURIComponent(table)}` : '');
}

/** The table a #/table/ID hash shows, or null. */
export function tableOfHash(hash) {
  const match = /^#\/table\/([^/?]+)/.exec(hash || '');
  return match ? decodeURIComponent(match[1]) : null;
}
