// Russian Bank and Rabouge, each played to its end by clicking against a
// careful (level-1) bot: a card is moved by clicking it and then one of the
// piles offered for it (once by drag and drop); the face-down piles turn or
// draw when clicked. Russian Bank ends by its `max_turns` option (the game's
// own draw rule), so that the test stays short.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withFixture, assertInWords } from './harness.mjs';
import { playBuildingGame } from './building_play.mjs';

async function playAgainstBot(fixture, name, { game, seed, options, maxSteps }) {
  const player = await fixture.player(name);
  const tableId = await player.createTable({ game, seed, seats: 2, options });
  await player.joinFromLobby(tableId);
  await player.addBot();
  await player.start();
  const started = Date.now();
  const done = await playBuildingGame(player, { maxSteps });
  const deltas = await player.resultDeltas();
  const seat = await player.seatNumber();
  await player.screenshot(`result-${game}.png`);
  console.log(`${game}: ${JSON.stringify(done)} in ${Date.now() - started} ms; result ${JSON.stringify(deltas)}`);
  assert.deepEqual(Object.keys(deltas).sort(), ['0', '1'], 'a result row for both seats');
  assert.equal(deltas[0] + deltas[1], 0, 'what one seat wins the other pays');
  assert.ok(done.moves > 0, 'cards were moved by clicking');
  assert.equal(done.dragged, 1, 'one move was made by drag and drop');
  assert.ok(await assertInWords(player.page, '[data-zone="log"] li', `${game}'s log`) > 0, 'the log has lines');
  await assertInWords(player.page, '[data-zone="result"]', `${game}'s result`);
  const ledger = await player.ledger();
  assert.equal(ledger.balance, 1000 + deltas[seat], 'the ledger agrees with the result');
  return done;
}

test('Russian Bank: a game against the bot, played by clicking to its end', { timeout: 60_000 }, async () => {
  await withFixture('russian-bank', async (fixture) => {
    const done = await playAgainstBot(fixture, 'ivan', { game: 'russian_bank', seed: 7, options: { max_turns: 10 }, maxSteps: 300 });
    assert.ok(done.tools.turn_stock || done.tools.turn_hand, 'the stock or the hand was turned by clicking it');
  });
});

test('Rabouge: a game against the bot, played by clicking to its end', { timeout: 60_000 }, async () => {
  await withFixture('rabouge', async (fixture) => {
    const done = await playAgainstBot(fixture, 'rosa', { game: 'rabouge', seed: 7, options: {}, maxSteps: 400 });
    assert.ok(done.tools.draw, 'cards were drawn by clicking the supply');
  });
});
