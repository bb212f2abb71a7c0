// A screenshot of every game's table, for a person to look at: for each id in
// the server's `games` list, create a table, sit down, seat bots in the other
// seats, start, and save the page once it is the viewer's move (or the deal is
// over) as BUILD_DIR/browser-shots/table-GAME-laptop.png and table-GAME-phone.png,
// checking each for internal ids on screen and axe-core's serious violations.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LAPTOP, PHONE, assertCleanPage, withFixture } from './harness.mjs';

/** The server's game catalogue, asked over the page's own WebSocket with a throwaway name. */
async function serverGames(page) {
  return page.evaluate(() => new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${location.host}/ws`);
    const timer = setTimeout(() => reject(new Error('no games reply')), 10_000);
    socket.onopen = () => socket.send(JSON.stringify({ type: 'hello', id: 1, name: 'catalogue' }));
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'welcome') socket.send(JSON.stringify({ type: 'games', id: 2 }));
      else if (message.type === 'games') {
        clearTimeout(timer);
        socket.close();
        resolve(message.games.map((game) => ({ id: game.id, min: game.min_players, layout: game.layout })));
      } else if (message.type === 'error') reject(new Error(JSON.stringify(message)));
    };
    socket.onerror = () => reject(new Error('websocket error'));
  }));
}

test('a screenshot of every game\'s table', { timeout: 300_000 }, async () => {
  await withFixture('screenshots', async (fixture) => {
    const host = await fixture.player('shooter');
    const { page } = host;
    const games = await serverGames(page);
    assert.ok(games.length >= 15, `the server lists its games: ${games.map((g) => g.id)}`);

    // The create form offers exactly the server's games.
    const offered = await page.locator('form[data-testid="create-table"] select[name="game"] option')
      .evaluateAll((nodes) => nodes.map((node) => node.value).filter(Boolean));
    assert.deepEqual([...offered].sort(), games.map((g) => g.id).sort(), 'the create form lists every game');

    const seen = [];
    for (const game of games) {
      await host.gotoLobby();
      const tableId = await host.createTable({ game: game.id, seed: 11, seats: game.min });
      await host.joinFromLobby(tableId);
      for (let bots = 1; bots < game.min; ++bots) await host.addBot();
      await host.start();
      const root = page.locator(`[data-table="${tableId}"][data-game="${game.id}"]`);
      await root.and(page.locator('[data-your-turn="true"]'))
        .or(page.locator('[data-zone="result"] [data-chips-delta]').first())
        .first().waitFor();
      // The catalogue's layout draws it (a layout that throws falls back to the generic one).
      assert.equal(await page.locator('[data-family]').getAttribute('data-family'), game.layout, `${game.id}: drawn by its layout`);
      const cards = await page.locator('[data-card]').count();
      assert.ok(cards > 0, `${game.id}: cards are drawn on the table`);
      // Every game at both sizes; no internal id on screen, no serious axe-core violation.
      for (const [size, viewport] of [['laptop', LAPTOP], ['phone', PHONE]]) {
        await page.setViewportSize(viewport);
        await host.screenshot(`table-${game.id}-${size}.png`);
        await assertCleanPage(host, `${game.id} on a ${size}`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      seen.push(`${game.id} (${cards} cards, phase ${await root.getAttribute('data-phase')})`);
      // A host may keep only so many tables open (--max-open-tables).
      await host.endTable();
    }
    console.log(`screenshots: ${seen.join('; ')}`);
  });
});
