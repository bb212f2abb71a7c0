// Validates a frame log (tests/support/ws_client.cpp writes one when PARLOUR_FRAME_LOG is
// set; record_corpus.mjs writes the same format) against protocol/schema/parlour.schema.json.
//
//   node validate_frames.mjs [--allow-missing] FILE…
//
// Each line: a frame as received, or {"http": PATH, "status": N, "body": …}. Stops at the
// first frame that does not match, printing it and ajv's errors, and exits 1. It also
// fails when the committed schema files are not what protocol/schema/build.mjs writes.
// Needs ajv: PARLOUR_SCHEMA_MODULES names the node_modules (tests/schema/run.sh sets it).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { WireChecker } from './validator.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const args = process.argv.slice(2);
const allowMissing = args.includes('--allow-missing');
// For writing the schema: report every distinct failure instead of stopping at the first.
const keepGoing = args.includes('--keep-going');
const failures = new Map();
const files = args.filter((arg) => !arg.startsWith('--'));
if (files.length === 0) {
  console.error('usage: validate_frames.mjs [--allow-missing] FILE…');
  process.exit(2);
}

try {
  execFileSync(process.execPath, [path.join(here, '..', '..', 'protocol', 'schema', 'build.mjs'), '--check'], { stdio: 'inherit' });
} catch {
  process.exit(1);
}

const started = Date.now();
const checker = new WireChecker(process.env.PARLOUR_SCHEMA_MODULES || path.join(here, 'node_modules'));
for (const file of files) {
  if (!fs.existsSync(file)) {
    if (allowMissing) continue;
    console.error(`validate_frames: ${file} does not exist (did the suite that writes it run, with PARLOUR_FRAME_LOG set?)`);
    process.exit(1);
  }
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]) continue;
    let record;
    try {
      record = JSON.parse(lines[i]);
    } catch (error) {
      // The writer caps the file; a cut last line is not a frame.
      if (i >= lines.length - 2) continue;
      console.error(`validate_frames: ${file}:${i + 1} is not JSON: ${error.message}`);
      process.exit(1);
    }
    try {
      checker.line(record);
    } catch (error) {
      if (!keepGoing) {
        console.error(`validate_frames: ${file}:${i + 1}: ${error.message}`);
        process.exit(1);
      }
      const signature = error.message.split('\n').slice(0, 2).join(' ').replace(/\(table [^)]*\)|seq \d+/g, '');
      if (!failures.has(signature)) failures.set(signature, `${file}:${i + 1}: ${error.message}`);
    }
  }
}
for (const failure of failures.values()) console.error(failure);
if (failures.size) process.exit(1);
const c = checker.counts;
console.log(`validate_frames: ${c.frames} frames (${c.states} state pushes: ${c.views} views, ${c.legal} legal entries, ` +
  `${c.results} results; ${c.unknownGame} of tables whose game was not seen) and ${c.http} HTTP bodies valid ` +
  `in ${Date.now() - started} ms`);
if (c.frames + c.http === 0 && !allowMissing) {
  console.error('validate_frames: nothing to check');
  process.exit(1);
}
