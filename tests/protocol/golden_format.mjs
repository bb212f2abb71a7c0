// The golden frames' storage format and what a comparison compares (README.md in
// golden-frames/); tests/protocol/test_golden_frames.cpp does the same in C++.

import { isDeepStrictEqual } from 'node:util';

export { isDeepStrictEqual };

/**
 * A stored whole frame as the server sent it: its `log`, stored as
 * `{"$lines": FROM, "count": N}`, is lines FROM… of the sequence's `log_lines`.
 */
export function expandWhole(sequence, stored) {
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
