// @ts-check
/** @typedef {import('../types/dom').Attrs} Attrs */
/** @typedef {import('../types/dom').Child} Child */

// Tiny DOM helpers: the client builds every element through `el` so that
// text always goes through textContent (server strings are never parsed as HTML).

/**
 * Create an element.
 * attrs: plain attributes, plus `class`, `text`, `dataset`, `style` (object)
 * and `on*` keys for event listeners (e.g. onclick).
 * children: nodes, strings, numbers, arrays of those; null/undefined/false are skipped.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  // Attributes are set by name at run time, so the node is indexed by any key here.
  const anyNode = /** @type {any} */ (node);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = String(value);
    else if (key === 'text') node.textContent = String(value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'style' && typeof value === 'object') {
      // Custom properties ("--i") need setProperty; plain ones can be assigned.
      for (const [name, v] of Object.entries(value)) {
        if (name.startsWith('--')) node.style.setProperty(name, String(v));
        else anyNode.style[name] = v;
      }
    }
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (key in node && typeof value !== 'string') anyNode[key] = value; // e.g. checked, disabled, value
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

/**
 * Append children (see `el`) to a node.
 * @template {ParentNode} N
 * @param {N} node
 * @param {Child} children
 * @returns {N}
 */
export function append(node, children) {
  // The children nest to any depth: flattened as plain values, each checked below.
  for (const child of /** @type {unknown[]} */ ([children]).flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(/** @type {Node | string} */ (child instanceof Node ? child : String(child)));
  }
  return node;
}

/**
 * Remove every child of a node.
 * @template {Node} N
 * @param {N} node
 * @returns {N}
 */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/**
 * Replace a node's children.
 * @template {ParentNode & Node} N
 * @param {N} node
 * @param {...Child} children
 * @returns {N}
 */
export function replaceChildren(node, ...children) {
  clear(node);
  return append(node, children);
}

/**
 * "hand_size" → "Hand size", "layOff" → "Lay off".
 * @param {unknown} key
 * @returns {string}
 */
export function humanise(key) {
  const words = String(key ?? '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : '';
}

/**
 * Case-insensitive name comparison: names are case-insensitively unique (PROTOCOL.md).
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
export function sameName(a, b) {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}

/**
 * A JSON object (not null, not an array). It narrows only to a record of unknown
 * values: what the server sent is checked where it is read.
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
export function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Format a chip count with thousands separators; non-numbers pass through.
 * @param {unknown} value
 * @returns {string}
 */
export function formatChips(value) {
  return typeof value === 'number' && Number.isFinite(value) ? value.toLocaleString() : String(value ?? '—');
}
