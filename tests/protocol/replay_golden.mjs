#!/usr/bin/env node
// Replays the golden frame sequences (golden-frames/*.json, README there) through
// the browser's decoder of state pushes (web-client/js/state_merge.js, the module
// connection.js runs): each sequence's delta frames are merged in order, and after
// every frame that has a whole frame beside it the merged state must equal it.
// Registered in CTest as test_golden_frames_js; the C++ state keeper replays the
// same files in test_golden_frames.cpp.
//
//   node tests/protocol/replay_golden.mjs [CORPUS_DIR]

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { completeState } from '../../web-client/js/state_merge.js';
import { framesAsSent, isDeepStrictEqual, normalizeForComparison } from './golden_format.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpus = process.argv[2] || path.join(here, 'golden-frames');

/** The first key path where `a` and `b` differ, for the failure message. */
function firstDifference(a, b, at = '') {
  if (isDeepStrictEqual(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(a[key], b[key], `${at}/${key}`);
      if (found) return found;
    }
  }
  return `${at || '/'}: decoded ${JSON.stringify(a)?.slice(0, 300)}, whole frame ${JSON.stringify(b)?.slice(0, 300)}`;
}

const files = fs.readdirSync(corpus).filter((f) => f.endsWith('.json')).sort();
if (files.length === 0) {
  console.error(`replay_golden: no sequences in ${corpus}`);
  process.exit(1);
}
let failures = 0;
for (const file of files) {
  const sequence = JSON.parse(fs.readFileSync(path.join(corpus, file), 'utf8'));
  let tables = new Map(); // one connection's memory; a reconnect is a new connection
  let compared = 0;
  let failure = null;
  const frames = framesAsSent(sequence);
  for (const [i, step] of sequence.steps.entries()) {
    if (step.reconnect) tables = new Map();
    const { delta, whole } = frames[i];
    const merged = completeState(tables, delta);
    if (!whole) continue;
    const difference = firstDifference(normalizeForComparison(merged, whole), normalizeForComparison(whole, whole));
    compared += 1;
    if (difference) {
      failure = `step ${i} (seq ${delta.seq}): ${difference}`;
      break;
    }
  }
  if (compared === 0) failure ??= 'no step has a whole frame to compare with';
  if (failure) {
    failures += 1;
    console.error(`FAIL ${file}: ${failure}`);
  } else {
    console.log(`ok   ${file}: ${sequence.steps.length} delta frames merged, ${compared} equal to their whole frames`);
  }
}
if (failures) {
  console.error(`replay_golden: ${failures} of ${files.length} sequences decode differently from their whole frames`);
  process.exit(1);
}
console.log(`replay_golden: ${files.length} sequences decoded as their whole frames say`);
