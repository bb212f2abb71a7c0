// Prints the texts of the server's games catalogue that the client shows, as
// tests/i18n/games.json keeps them for the catalogue check (test_i18n): every
// game's name, aliases and summary, and its options' labels (humanised as the
// create form shows them), descriptions and text choices. Refresh after a
// change to a game's catalogue entry:
//
//   node tests/i18n/games_texts.mjs build/server/parlour > tests/i18n/games.json
//
// It starts the server on a free loopback port with a scratch database, asks
// `games` over the WebSocket (the `ws` package the reference client's run.sh
// installs under build/reference-client), and stops it.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
// The option labels as the create form makes them, by the client's own humanise.
import { humanise } from '../../web-client/js/dom.js';

const binary = resolve(process.argv[2] || 'build/server/parlour');
const require = createRequire(join(dirname(dirname(binary)), 'reference-client', 'node_modules', 'ws', 'index.js'));
const WebSocket = require('ws');

const port = await new Promise((done) => {
  const probe = createServer().listen(0, '127.0.0.1', () => { const { port: p } = probe.address(); probe.close(() => done(p)); });
});
const scratch = mkdtempSync(join(tmpdir(), 'parlour-games-'));
const server = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--db', join(scratch, 'g.db'), '--log-level', 'warn'], { stdio: 'ignore' });


async function games() {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      return await new Promise((done, fail) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
        ws.on('error', fail);
        ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', id: 1, name: 'catalogue-texts' })));
        ws.on('message', (data) => {
          const message = JSON.parse(String(data));
          if (message.type === 'welcome') ws.send(JSON.stringify({ type: 'games', id: 2 }));
          else if (message.type === 'games') { ws.close(); done(message.games); }
          else if (message.type === 'error') fail(new Error(JSON.stringify(message)));
        });
      });
    } catch {
      await new Promise((wait) => setTimeout(wait, 200));
    }
  }
  throw new Error(`no answer from the server on port ${port}`);
}

try {
  const texts = new Set();
  const add = (text) => { if (typeof text === 'string' && text) texts.add(text); };
  for (const game of await games()) {
    add(game.name);
    add(game.summary);
    for (const alias of game.aliases ?? []) add(alias);
    for (const option of game.options ?? []) {
      add(humanise(option.name));
      add(option.description);
      for (const choice of option.choices ?? []) add(choice);
    }
  }
  const about = 'The texts of the server\'s games catalogue that the client shows (names, aliases, summaries; option labels as '
    + 'humanised, descriptions, text choices). Refresh: node tests/i18n/games_texts.mjs build/server/parlour > tests/i18n/games.json';
  console.log(JSON.stringify({ about, texts: [...texts].sort() }, null, 1));
} finally {
  server.kill();
  rmSync(scratch, { recursive: true, force: true });
}
