// boardgame.io's own Server (Koa + socket.io, state in memory) serving Red Dog
// (red-dog.mjs): the peer parlour_bench measures Parlour against. driver.mjs
// starts it; it can be run alone too:
//
//   PARLOUR_NODE_MODULES=DIR node server.mjs [--port N] [--delta-state]
//
// --port 0 (the default) takes a free port. Once listening it prints one line,
// {"port":N}, on stdout. --delta-state sends each player a JSON patch of his
// view after a move (boardgame.io's `deltaState`) instead of the whole view.
// The packages come from PARLOUR_NODE_MODULES (the bench installs them into the
// build tree), else from node_modules beside this file.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { RedDog } from './red-dog.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(process.env.PARLOUR_NODE_MODULES || path.join(here, 'node_modules'), 'noop.js'));

function parseArgs(argv) {
  const options = { port: 0, deltaState: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port') options.port = Number(argv[++i]);
    else if (argv[i] === '--delta-state') options.deltaState = true;
    else throw new Error(`server.mjs: unknown option ${argv[i]} (expected --port N or --delta-state)`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)
    throw new Error(`server.mjs: --port expects 0-65535, got ${options.port}`);
  return options;
}

const options = parseArgs(process.argv.slice(2));
// No FLATFILE_DIR: boardgame.io then keeps every match in memory (its InMemory store).
delete process.env.FLATFILE_DIR;
const { Server } = require('boardgame.io/server');
// origins: no browser origin may connect (the driver's clients send none).
const server = Server({ games: [{ ...RedDog, deltaState: options.deltaState }], origins: [] });
const { appServer } = await server.run({ port: options.port });
process.stdout.write(JSON.stringify({ port: appServer.address().port }) + '\n');

for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
