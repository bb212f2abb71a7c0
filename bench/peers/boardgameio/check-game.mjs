// A check of red-dog.mjs by hand (not part of any suite): plays MOVES random
// bets through boardgame.io's own local Client (the same reducer the server
// runs) and fails on the first broken rule. Exits 0 and prints a summary when
// all hold:
//
//   PARLOUR_NODE_MODULES=DIR node check-game.mjs [MOVES]
//
// - every valid bet is applied, a bet above the most allowed and a bet by a
//   seat whose turn it is not are refused (the state does not change);
// - chips are conserved: the seats' chips and the pot always add up to what
//   they started with, and the pot is never empty between moves;
// - each player's view holds his own hand and only the sizes of the others'
//   hands and of the deck.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { RedDog } from './red-dog.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(process.env.PARLOUR_NODE_MODULES || path.join(here, 'node_modules'), 'noop.js'));
const { Client } = require('boardgame.io/client');

const moves = Number(process.argv[2] || 1500);
const client = Client({ game: RedDog, numPlayers: 4 });
client.start();
// boardgame.io logs each refused move on stderr; the refusals here are on purpose.
console.error = () => {};

// The server's whole state: the local client keeps it in its store.
const whole = () => client.store.getState();
const chipsInPlay = (G) => G.chips.reduce((sum, chips) => sum + chips, 0) + G.pot;
const startingChips = chipsInPlay(whole().G);

function expectRefused(seat, amount, what) {
  const before = whole()._stateID;
  client.updatePlayerID(String(seat));
  client.moves.bet(amount);
  assert.equal(whole()._stateID, before, `${what} was applied`);
}

for (let i = 0; i < moves; i++) {
  const { G, ctx } = whole();
  const seat = Number(ctx.currentPlayer);
  assert.equal(G.order[G.turn], seat, 'the turn order and the bettor to act disagree');
  const most = Math.min(G.pot, G.chips[seat]);
  expectRefused(seat, most + 1, `a bet of ${most + 1} above the most allowed, ${most},`);
  expectRefused(seat, 0, 'a bet of 0');
  expectRefused((seat + 1) % 4, 1, 'a bet by a seat whose turn it is not');
  const before = whole()._stateID;
  client.updatePlayerID(String(seat));
  client.moves.bet(1 + Math.floor(Math.random() * most));
  const after = whole();
  assert.ok(after._stateID > before, 'a valid bet was refused');
  assert.equal(chipsInPlay(after.G), startingChips, 'chips were made or lost');
  assert.ok(after.G.pot >= 1, 'the pot is empty after a move');
}

const { G, ctx } = whole();
for (let viewer = 0; viewer < 4; viewer++) {
  const view = RedDog.playerView({ G, ctx, playerID: String(viewer) });
  assert.equal(view.deck, G.deck.length, 'the deck is shown');
  G.hands.forEach((hand, seat) =>
    assert.deepEqual(view.hands[seat], seat === viewer ? hand : hand.length, `seat ${seat}'s hand as seat ${viewer} sees it`));
}
console.log(`red-dog.mjs: ${moves} bets over ${G.deals} deals, every rule held`);
