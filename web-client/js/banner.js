// Dismissible messages under the header. Errors from the server are shown as
// "code: message" so a player can report exactly what went wrong.

import { el } from './dom.js';

const MAX_MESSAGES = 4;
const NOTICE_MS = 6000; // plain notices fade on their own; errors wait to be dismissed

export class Banner {
  constructor(container) {
    this.container = container;
  }

  /** Show an error; `error` may be a RequestError, {code, message}, or a string. */
  error(error) {
    if (typeof error === 'string') return this.show(error, 'error');
    const code = error?.code ? String(error.code) : '';
    const message = error?.message ? String(error.message) : 'Something went wrong.';
    return this.show(code && code !== message ? `${code}: ${message}` : message, 'error');
  }

  notice(text) {
    const item = this.show(text, 'notice');
    setTimeout(() => item.remove(), NOTICE_MS);
    return item;
  }

  show(text, kind) {
    // The same message twice in a row (e.g. repeated clicks) is shown once.
    const last = this.container.lastElementChild;
    if (last && last.dataset.text === text) last.remove();
    const item = el('div', { class: `banner banner-${kind}`, role: kind === 'error' ? 'alert' : 'status', dataset: { text } },
      el('span', { class: 'banner-text', text }),
      el('button', { type: 'button', class: 'banner-close', 'aria-label': 'Dismiss', text: '×', onclick: () => item.remove() }));
    this.container.append(item);
    while (this.container.children.length > MAX_MESSAGES) this.container.firstElementChild.remove();
    return item;
  }

  clear() {
    this.container.replaceChildren();
  }
}
