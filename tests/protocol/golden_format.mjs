// The golden frames' storage format and what a comparison compares (README.md in
// golden-frames/); tests/protocol/test_golden_frames.cpp does the same in C++.

import { isDeepStrictEqual } from 'node:util';

export { isDeepStrictEqual };

/**
 * A whole frame with its `log`, stored as
 * `{"$lines": FROM, "count": N}`, is lines FROM… of the sequence's `log_lines`.
 */
function expandWhole(sequence, stored) {
  const whole = structuredClone(stored);
  const ref = whole.log;
  if (ref && typeof ref === 'object' && !Array.isArray(ref) && Number.isInteger(ref.$lines))
    whole.log = sequence.log_lines.slice(ref.$lines, ref.$lines + ref.count);
  return whole;
}

// Parts of a push that say how it was sent, not what the table is: the numbering of
// the log and chat tails, the bare chips of a delta push, the names of the view's
// constants. A decoder drops or keeps them as it likes.
const TRANSPORT_PARTS = ['log_from', 'chat_from', 'chips', 'view_constants'];

/**
 * `state` reduced to what must be equal to the whole frame `whole`: without the
 * transport parts, and with `log` and `chat` cut to as many last lines as `whole`
 * carries (a v1 push carries the last 50 lines; a decoder may hold more).
 */
export function normalizeForComparison(state, whole) {
  const copy = structuredClone(state);
  for (const part of TRANSPORT_PARTS) delete copy[part];
  for (const tail of ['log', 'chat']) {
    const keep = Array.isArray(whole[tail]) ? whole[tail].length : 0;
    const lines = Array.isArray(copy[tail]) ? copy[tail] : [];
    copy[tail] = keep === 0 ? [] : lines.slice(-keep);
  }
  return copy;
}

// -- storage: "$same" --------------------------------------------------------------
// A frame repeats most of the one before it (a whole frame its players, result, fair
// and most of the view; a delta frame most of the view), so the corpus stores each
// delta frame against the previous delta frame of its sequence, and each whole frame
// against the previous whole frame: any object or array equal to the one at the same
// place there is stored as the string "$same" (no value of the wire is that string).

export const SAME = '$same';

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `current` with every object or array equal to `previous`'s at the same place as "$same". */
export function storeAgainst(current, previous) {
  if (current !== null && typeof current === 'object' && isDeepStrictEqual(current, previous)) return SAME;
  if (isPlainObject(current) && isPlainObject(previous))
    return Object.fromEntries(Object.entries(current).map(([k, v]) => [k, storeAgainst(v, previous[k])]));
  if (Array.isArray(current) && Array.isArray(previous) && current.length === previous.length)
    return current.map((v, i) => storeAgainst(v, previous[i]));
  return current;
}

/** The inverse of storeAgainst: "$same" replaced by the value at the same place of `previous`. */
export function readAgainst(stored, previous) {
  if (stored === SAME) return structuredClone(previous);
  if (isPlainObject(stored))
    return Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, readAgainst(v, isPlainObject(previous) ? previous[k] : undefined)]));
  if (Array.isArray(stored)) return stored.map((v, i) => readAgainst(v, Array.isArray(previous) ? previous[i] : undefined));
  return stored;
}

/**
 * Every step of a stored sequence as the server sent it: `{delta, whole}` (whole null
 * where the step has none), each "$same" read against the previous frame of its kind
 * in the sequence, and the whole frames' logs expanded.
 */
export function framesAsSent(sequence) {
  let previousDelta;
  let previousWhole;
  return sequence.steps.map((step) => {
    previousDelta = readAgainst(step.delta, previousDelta);
    if (!step.whole) return { delta: structuredClone(previousDelta), whole: null };
    previousWhole = readAgainst(step.whole, previousWhole);
    return { delta: structuredClone(previousDelta), whole: expandWhole(sequence, previousWhole) };
  });
}
