// The browser's wire types (web-client/types/wire.d.ts) checked against real
// frames: a sample of the frames test_integration received (its frame log, every
// one of them valid under the JSON Schema: schema_frames checks the same file) is
// written as typed object literals and given to tsc. An object literal must match
// its type exactly, an unknown key included, so a type that no longer describes
// the wire fails here, as the schema does for the frames themselves.
//
//   node check_frames.mjs FRAME_LOG OUT_DIR     writes OUT_DIR/frames_check.ts and
//   OUT_DIR/tsconfig.json (run.sh then runs tsc -p OUT_DIR)
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const WIRE = path.resolve(here, '..', '..', 'web-client', 'types', 'wire');
const [frameLog, outDir] = process.argv.slice(2);
if (!frameLog || !outDir) {
  console.error('usage: check_frames.mjs FRAME_LOG OUT_DIR');
  process.exit(2);
}

// The TypeScript type of each frame type (PushMap and ReplyMap in wire.d.ts).
const TYPE_OF = {
  welcome: 'Welcome',
  error: 'ErrorMessage',
  ok: 'OkReply',
  games: 'GamesReply',
  tables: 'TablesReply',
  created: 'Created',
  joined: 'Joined',
  watching: 'Watching',
  left: 'Left',
  ledger: 'LedgerReply',
  settled: 'Settled',
  history: 'History',
  devices: 'DevicesReply',
  device_link: 'DeviceLinkReply',
  signup_link: 'SignupLinkReply',
  pong: "ReplyMap['ping']",
  back: 'BackReply',
};
const PER_BUCKET = 3;

const buckets = new Map();
const unknown = new Map();
let read = 0;
for (const line of fs.readFileSync(frameLog, 'utf8').split('\n')) {
  if (!line) continue;
  let frame;
  try {
    frame = JSON.parse(line);
  } catch {
    continue;  // the writer caps the file: a cut last line
  }
  if (!frame || typeof frame !== 'object' || 'http' in frame) continue;
  ++read;
  const type = frame.type;
  let key;
  if (type === 'state') key = `state ${frame.game ?? '-'} ${frame.status} ${'game' in frame ? 'whole' : 'delta'} ${'result' in frame}`;
  else if (TYPE_OF[type]) key = type === 'error' ? `error ${frame.code}` : type;
  else {
    unknown.set(type, (unknown.get(type) ?? 0) + 1);
    continue;
  }
  const list = buckets.get(key) ?? [];
  if (list.length < PER_BUCKET) list.push(frame);
  buckets.set(key, list);
}

const lines = [
  '// Written by tests/types/check_frames.mjs from a frame log; checked by tsc, never run.',
  `import type * as W from ${JSON.stringify(WIRE)};`,
  '',
];
let n = 0;
let results = 0;
for (const frames of buckets.values()) {
  for (const frame of frames) {
    const name = `f${n++}`;
    if (frame.type === 'state') {
      lines.push(`export const ${name}: W.${'game' in frame ? 'WholeStatePush' : 'StatePush'} = ${JSON.stringify(frame)};`);
      if (frame.result && frame.game) {
        ++results;
        lines.push(`export const ${name}r: W.ResultByGame[${JSON.stringify(frame.game)}] = ${JSON.stringify(frame.result)};`);
      }
    } else {
      const type = `W.${TYPE_OF[frame.type]}`;
      lines.push(`export const ${name}: ${type} = ${JSON.stringify(frame)};`);
    }
  }
}
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'frames_check.ts'), lines.join('\n') + '\n');
fs.writeFileSync(path.join(outDir, 'tsconfig.json'), JSON.stringify({
  compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', skipLibCheck: true, types: [] },
  files: ['frames_check.ts'],
}, null, 2) + '\n');
console.log(`check_frames: ${n} frames (${results} results) of ${read} read, in ${buckets.size} kinds` +
  (unknown.size ? `; frame types with no type to check against: ${[...unknown].map(([t, c]) => `${t} (${c})`).join(', ')}` : ''));
if (unknown.size) process.exit(1);
