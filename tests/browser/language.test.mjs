// The client's words in a second language (web-client/js/i18n.js):
// - a browser that prefers French is shown the lobby and the table in French,
//   the table's log included, with the page's lang set for screen readers;
// - the language picker in the header switches the page, and the choice is
//   remembered across reloads even against the browser's preference;
// - every layout (rummy, betting, tricks, cassino, building) reads in French
//   on the felt, in the moves and in the log.
// At the laptop size (1366×800) and the phone size (390×844).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withFixture, assertEventually, assertCleanPage, LAPTOP, PHONE } from './harness.mjs';

const SEED = 20261128;

// Words of the English interface that a French page must not show. Player and
// bot names are chosen so that they contain none of them.
const ENGLISH = /\b(Your turn|Lobby|[Pp]laying|PLAYING|[Ww]aiting|WAITING|[Ff]inished|FINISHED|[Pp]ool|POOL|My ledger|Sign out|Leave|Start|Open tables|Players|Deal \d+|chips?|Waiting|Continue|Discard|Draw|Stock|Seat \d+|Add a bot|Invite|Log|Chat|Send|Sound (?:on|off)|Text table|How to play|deals|draws|discards|takes|is dealt|committed deck|bets|wins|loses|turned|the pot|the pool|plays|leads|captures|trails|builds|moves a card|from their|to the)\b/;

/** The page's visible words, names left out. */
async function visibleWords(page, selector = 'body', names = []) {
  let text = await page.locator(selector).first().innerText();
  for (const name of names) text = text.split(name).join(' ');
  return text;
}

function assertFrench(text, where) {
  const english = text.match(ENGLISH);
  const at = english ? text.slice(Math.max(0, english.index - 60), english.index + 60).replace(/\s+/g, ' ') : '';
  assert.equal(english, null, `${where}: English "${english?.[0]}" in "${at}"`);
}

/** The names on the page (players and bots), read from the seats. */
async function seatNames(page) {
  return page.locator('[data-zone="seat"] .seat-name').allInnerTexts();
}

for (const [size, viewport] of [['laptop', LAPTOP], ['phone', PHONE]]) {
  test(`A French browser gets French; the header's picker switches to English and the choice is remembered (${size})`, { timeout: 150_000 }, async () => {
    await withFixture(`language-${size}`, async (fixture) => {
      const lea = await fixture.player('lea', undefined, { viewport, locale: 'fr-FR' });
      const { page } = lea;
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr', 'the page says it is in French');
      assert.equal(await page.locator('[data-zone="language"]').inputValue(), 'fr', 'the picker shows French');
      // A game's other names are names (High-Card Pool), as the players' are.
      const aliases = (await page.locator('[data-zone="game-aliases"]').allInnerTexts()).flatMap((line) => line.split(/[:,]/).map((name) => name.trim()));
      const lobbyText = await visibleWords(page, 'body', ['lea', ...aliases.filter((name) => name.length > 2)]);
      assertFrench(lobbyText, `the lobby (${size})`);
      await assertCleanPage(lea, `the lobby in French (${size})`);
      await lea.screenshot(`french-lobby-${size}.png`);

      await lea.createTable({ game: 'rummy', seed: SEED, seats: 2 });
      await lea.addBot();
      await lea.start();
      await assertEventually(async () => (await page.locator('[data-zone="log"] li').count()) >= 2, 'the log has lines');
      await lea.waitForTurn();
      const names = ['lea', ...await seatNames(page)];
      assertFrench(await visibleWords(page, '[data-zone="log"]', names), `the log (${size})`);
      assertFrench(await visibleWords(page, 'main', names), `the table (${size})`);
      await assertCleanPage(lea, `a Rummy table in French (${size})`);
      await lea.screenshot(`french-rummy-${size}.png`);

      // English from the picker: the page is shown again in it, and stays so.
      await Promise.all([page.waitForEvent('load'), page.locator('[data-zone="language"]').selectOption('en')]);
      await assertEventually(async () => (await page.evaluate(() => document.documentElement.lang)) === 'en', 'the page is in English');
      await page.locator('[data-zone="actions"], [data-zone="turn"]').first().waitFor();
      await assertEventually(async () => /\bLog\b/i.test(await page.locator('[data-zone="log"]').innerText()), 'the log is headed in English');
      assert.match(await page.locator('[data-zone="log"]').innerText(), /deals|dealt/, 'the log lines are in English');
      await page.reload();
      await page.locator('[data-zone="log"]').waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en', 'English is remembered across a reload, against the browser\'s French');
      assert.equal(await page.locator('[data-zone="language"]').inputValue(), 'en');

      // And back to French.
      await Promise.all([page.waitForEvent('load'), page.locator('[data-zone="language"]').selectOption('fr')]);
      await page.locator('[data-zone="log"]').waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
    });
  });
}

test('Every layout reads in French: the felt, the moves and the log', { timeout: 240_000 }, async () => {
  await withFixture('language-layouts', async (fixture) => {
    for (const [game, seats] of [['red_dog', 3], ['rams', 3], ['royal_cassino', 2], ['russian_bank', 2], ['carousel', 2]]) {
      const player = await fixture.player(`lea_${game.slice(0, 5)}`, undefined, { viewport: LAPTOP, locale: 'fr-FR' });
      const { page } = player;
      await player.createTable({ game, seed: SEED, seats });
      for (let bot = 1; bot < seats; bot++) await player.addBot();
      await player.start();
      await assertEventually(async () => (await page.locator('[data-zone="log"] li').count()) >= 2, `${game}: the log has lines`);
      await page.locator(`[data-zone="actions"] button, [data-zone="result"]`).first().waitFor({ timeout: 30_000 });
      const names = [player.name, ...await seatNames(page)];
      assertFrench(await visibleWords(page, 'main', names), game);
      await assertCleanPage(player, `${game} in French`);
      await player.screenshot(`french-${game}.png`);
    }
  });
});
