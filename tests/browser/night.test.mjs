// A night that never confuses anyone (the items, one test each):
// - Start is disabled, with its reason in view, until the game's fewest players
//   are seated, and the lobby counts a table's seats as the table has them;
// - the secret key on the page a host shows round the room is hidden until
//   "Show", and readable in dark mode.
// At the laptop size (1366×800) and the phone size (390×844).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withFixture, assertEventually, assertCleanPage, LAPTOP, PHONE } from './harness.mjs';

/** WCAG contrast ratio of two computed `rgb(...)` colours. */
function contrast(foreground, background) {
  const luminance = (css) => {
    const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [luminance(foreground), luminance(background)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

for (const [size, viewport] of [['laptop', LAPTOP], ['phone', PHONE]]) {
  test(`Start waits for enough players and says why (${size})`, { timeout: 120_000 }, async () => {
    await withFixture(`night-start-${size}`, async (fixture) => {
      const alice = await fixture.player('alice', undefined, { viewport });
      const bob = await fixture.player('bob', undefined, { viewport });
      const tableId = await alice.createTable({ game: 'red_dog', seats: 4 });
      await alice.joinFromLobby(tableId);

      const start = alice.page.locator('[data-testid="start"]');
      await start.waitFor();
      assert.equal(await start.isDisabled(), true, 'Start is disabled with one player seated');
      const reason = alice.page.locator('[data-testid="start-reason"]');
      assert.equal((await reason.textContent()).trim(), 'Seat 1 more player or bot to start: 1 of 4 seats taken, 2 needed.');
      assert.equal(await reason.isVisible(), true, 'the reason is on screen, not only in a tooltip');
      await assertCleanPage(alice, `waiting table with Start disabled (${size})`);

      // The lobby counts the table's own seats (four here), not the game's range.
      await bob.gotoLobby();
      const row = bob.page.locator(`[data-testid="table-row"][data-table="${tableId}"]`);
      await assertEventually(async () => (await row.locator('[data-testid="seats-taken"]').textContent()).startsWith('1 of 4 seats taken'),
        'the lobby row says 1 of 4 seats taken');

      await alice.addBot();
      await assertEventually(async () => !(await start.isDisabled()), 'Start is enabled once a bot makes two');
      assert.equal(await reason.count(), 0, 'no reason is shown once Start can be pressed');
      await alice.start();
      assert.equal(await alice.page.locator('[data-zone="error"]').count(), 0, 'no error is left once play starts');
    });
  });
}

test('The secret key is hidden until Show, and readable in light and dark mode', { timeout: 120_000 }, async () => {
  await withFixture('night-key', async (fixture) => {
    const alice = await fixture.player('alice', undefined, { viewport: PHONE });
    for (const scheme of ['light', 'dark']) {
      await alice.page.emulateMedia({ colorScheme: scheme });
      await alice.page.goto(`${fixture.server.url}#/ledger/alice`);
      await alice.page.reload(); // drawn afresh in the scheme, not caught mid-transition from the last one
      const key = alice.page.locator('[data-testid="token"]');
      await key.waitFor();
      assert.match((await key.textContent()).trim(), /^•+$/, `${scheme}: the key shows only dots until asked for`);
      await alice.page.locator('[data-testid="token-show"]').click();
      const shown = (await key.textContent()).trim();
      assert.ok(shown.length >= 16 && !shown.includes('•'), `${scheme}: Show reveals the key`);
      const colours = await key.evaluate((node) => ({ fg: getComputedStyle(node).color, bg: getComputedStyle(node).backgroundColor }));
      const ratio = contrast(colours.fg, colours.bg);
      assert.ok(ratio >= 4.5, `${scheme}: the key reads at ${ratio.toFixed(2)}:1 (${colours.fg} on ${colours.bg}), at least 4.5:1`);
      await assertCleanPage(alice, `ledger page with the key shown (${scheme})`);
      await alice.page.locator('[data-testid="token-show"]').click();
      assert.match((await key.textContent()).trim(), /^•+$/, `${scheme}: Hide hides it again`);
    }
  });
});
