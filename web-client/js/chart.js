// @ts-check
// A small inline-SVG line chart of a balance over the ledger entries loaded.

import { el, formatChips } from './dom.js';
import { t } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 140;
const PAD = { left: 48, right: 8, top: 10, bottom: 18 };

/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {string} [text]
 */
function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * entries: newest first, each with a numeric `balance`. Returns a <figure> or null.
 * @param {{balance: unknown}[]} entries
 * @returns {HTMLElement | null}
 */
export function balanceChart(entries) {
  const points = entries.filter((e) => Number.isFinite(Number(e.balance))).slice().reverse().map((e) => Number(e.balance));
  if (points.length < 2) return null;
  const min = Math.min(...points);
  const max = Math.max(...points);
  const span = max - min || 1;
  /** @param {number} i */
  const x = (i) => PAD.left + (i / (points.length - 1)) * (W - PAD.left - PAD.right);
  /** @param {number} v */
  const y = (v) => PAD.top + (1 - (v - min) / span) * (H - PAD.top - PAD.bottom);
  const line = points.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const area = `${x(0).toFixed(1)},${H - PAD.bottom} ${line} ${x(points.length - 1).toFixed(1)},${H - PAD.bottom}`;
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart-svg', role: 'img',
    'aria-label': t('Balance over the last {n} entries: from {first} to {last} chips, lowest {min}, highest {max}.', {
      n: points.length, first: points[0], last: points[points.length - 1], min, max,
    }) });
  chart.append(
    svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(max), y2: y(max), class: 'chart-grid' }),
    svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(min), y2: y(min), class: 'chart-grid' }),
    svg('text', { x: PAD.left - 6, y: y(max) + 4, 'text-anchor': 'end', class: 'chart-label' }, formatChips(max)),
    svg('text', { x: PAD.left - 6, y: y(min) + 4, 'text-anchor': 'end', class: 'chart-label' }, formatChips(min)),
    svg('polygon', { points: area, class: 'chart-area' }),
    svg('polyline', { points: line, class: 'chart-line' }),
    svg('circle', { cx: x(points.length - 1), cy: y(points[points.length - 1]), r: 3.5, class: 'chart-dot' }),
    svg('text', { x: PAD.left, y: H - 3, class: 'chart-label' }, t('older')),
    svg('text', { x: W - PAD.right, y: H - 3, 'text-anchor': 'end', class: 'chart-label' }, t('now')));
  return el('figure', { class: 'chart' }, chart,
    el('figcaption', { class: 'muted small', text: t('Balance over the last {n} entries', { n: points.length }) }));
}
