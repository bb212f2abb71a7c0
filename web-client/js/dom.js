// Tiny DOM helpers: the client builds every element through `el` so that
// text always goes through textContent (server strings are never parsed as HTML).

/**
 * Create an element.
 * attrs: plain attributes, plus `class`, `text`, `dataset`, `style` (object)
 * and `on*` keys for event listeners (e.g. onclick).
 * children: nodes, strings, numbers, arrays of those; null/undefined/false are skipped.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = String(value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'style' && typeof value === 'object') {
      // Custom properties ("--i") need setProperty; plain ones can be assigned.
      for (const [name, v] of Object.entries(value)) {
        if (name.startsWith('--')) node.style.setProperty(name, v);
        else node.style[name] = v;
      }
    }
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key in node && typeof value !== 'string') node[key] = value; // e.g. checked, disabled, value
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

/** Append children (see `el`) to a node. */
export function append(node, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Remove every child of a node. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** Replace a node's children. */
export function replaceChildren(node, ...children) {
  clear(node);
  return append(node, children);
}

/** "hand_size" → "Hand size", "layOff" → "Lay off". */
export function humanise(key) {
  const words = String(key ?? '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : '';
}

/** Case-insensitive name comparison: names are case-insensitively unique (PROTOCOL.md). */
export function sameName(a, b) {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}

export function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Format a chip count with thousands separators; non-numbers pass through. */
export function formatChips(value) {
  return typeof value === 'number' && Number.isFinite(value) ? value.toLocaleString() : String(value ?? '—');
}
