// A night that never confuses anyone (the items, one test each):
// - Start is disabled, with its reason in view, until the game's fewest players
//   are seated, and the lobby counts a table's seats as the table has them;
// - the secret key on the page a host shows round the room is hidden until
//   "Show", and readable in dark mode;
// - a deal's end is not announced as "Your turn": the turn banner says who won
//   and who paid;
// - and the others below, each named for what it shows (tests/browser/README.md).
// At the laptop size (1366×800) and the phone size (390×844).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withFixture, assertEventually, assertCleanPage, outsideViewport, LAPTOP, PHONE } from './harness.mjs';

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

// The seed of red_dog.test.mjs and settle.test.mjs: alice deals; everyone antes
// 1; bob bets 2 and loses, carol bets 1 and wins, alice bets 1 and loses.
const SEED = 20261123;
const BETS = { 1: 2, 2: 1, 0: 1 };

test('A deal\'s end is not "Your turn": the felt says who won and who paid', { timeout: 120_000 }, async () => {
  await withFixture('night-deal-end', async (fixture) => {
    const { players: [alice, bob, carol] } = await fixture.seatedTable(['alice', 'bob', 'carol'], { game: 'red_dog', seed: SEED });
    await alice.start();
    const bySeat = { 0: alice, 1: bob, 2: carol };
    for (const seat of [1, 2, 0]) {
      await bySeat[seat].waitForTurn();
      await bySeat[seat].submitAmount('bet', BETS[seat]);
    }
    for (const [player, expected] of [
      [alice, 'Deal 1: You paid 2 chips, bob paid 3 chips. The pot now holds 5 chips.'],
      [bob, 'Deal 1: Alice paid 2 chips, you paid 3 chips. The pot now holds 5 chips.'],
      [carol, 'Deal 1: Alice paid 2 chips, bob paid 3 chips. The pot now holds 5 chips.'],
    ]) {
      const { page } = player;
      await page.locator('[data-zone="actions"] button[data-action-type="continue"]').waitFor();
      const banner = page.locator('[data-zone="turn"]');
      await assertEventually(async () => (await banner.textContent()).startsWith(expected),
        `${player.name}'s turn banner opens with "${expected}"`);
      const text = await banner.textContent();
      assert.ok(!/your turn/i.test(text), `${player.name}: no "Your turn" at the deal's end: "${text}"`);
      assert.match(text, /press Continue/, `${player.name}: the banner says Continue is for when they are ready`);
      assert.equal(await banner.evaluate((node) => node.classList.contains('is-mine')), false, `${player.name}: the banner is not marked as a turn`);
      assert.ok(!(await page.title()).includes('Your turn'), `${player.name}: the tab title does not say "Your turn"`);
      // The headline and the result table are read from the same rows.
      const deltas = await page.locator('[data-zone="result"] tr[data-seat]').evaluateAll((rows) =>
        rows.map((row) => Number(row.getAttribute('data-chips-delta'))));
      assert.deepEqual(deltas, [-2, -3, 0], `${player.name}: the result table's chips`);
      // Carol won her bet and paid her ante: "won" beside 0 chips read as a mistake.
      const carolCells = await page.locator('[data-zone="result"] tr[data-seat="2"]').evaluate((row) =>
        [...row.cells].map((cell) => cell.textContent.trim()));
      assert.ok(carolCells.includes('even'), `${player.name}: carol's row says even: ${JSON.stringify(carolCells)}`);
      assert.ok(!carolCells.includes('won'), `${player.name}: carol's row does not say won beside 0 chips`);
    }
  }, { serverArgs: ['--deal-pause-ms', '60000'] });
});

test('On the phone, my clock is on my move panel, in view when my turn starts, red in its last 10 s', { timeout: 120_000 }, async () => {
  await withFixture('night-clock', async (fixture) => {
    const alice = await fixture.player('alice', undefined, { viewport: PHONE });
    const bob = await fixture.player('bob', undefined, { viewport: PHONE });
    const tableId = await alice.createTable({ game: 'red_dog', seed: SEED, seats: 2, options: { clock_seconds: 14 } });
    const invite = await alice.inviteLink();
    await alice.joinFromLobby(tableId);
    await bob.acceptInvite(invite, tableId);
    await alice.start();
    // The seed's first bettor is the dealer's left, bob.
    await bob.waitForTurn();
    const timer = bob.page.locator('[data-testid="move-timer"]');
    await assertEventually(async () => /^0:1[0-4] left$/.test((await timer.textContent()).trim()), "bob's move panel shows his clock");
    assert.deepEqual(await outsideViewport(bob.page, ['[data-testid="move-timer"]', '[data-zone="hand"]']), [],
      'the clock and the hand are on the screen together when the turn starts');
    assert.equal(await timer.evaluate((node) => node.classList.contains('is-urgent')), false, 'not red with more than 10 s left');
    await assertEventually(async () => timer.evaluate((node) => node.classList.contains('is-urgent')), 'red in the last 10 s');
    const colours = await timer.evaluate((node) => ({ fg: getComputedStyle(node).color, bg: getComputedStyle(node).backgroundColor }));
    assert.ok(contrast(colours.fg, colours.bg) >= 4.5, `the red clock reads at 4.5:1 or better (${colours.fg} on ${colours.bg})`);
    // Alice, not to act, has no clock on her move panel (hers is not running).
    assert.equal(await alice.page.locator('[data-testid="move-timer"]').isVisible(), false, "no clock on alice's move panel on bob's turn");
  });
});

test('A friend who closed her tab finds her private table under "Your tables" and gets back to her seat', { timeout: 120_000 }, async () => {
  await withFixture('night-your-tables', async (fixture) => {
    const alice = await fixture.player('alice', undefined, { viewport: LAPTOP });
    const bob = await fixture.player('bob', undefined, { viewport: PHONE });
    const carol = await fixture.player('carol', undefined, { viewport: LAPTOP });
    const tableId = await alice.createTable({ game: 'red_dog', seed: SEED, seats: 2, options: { private: true } });
    const invite = await alice.inviteLink();
    await alice.joinFromLobby(tableId);
    await bob.acceptInvite(invite, tableId);
    await alice.start();

    // Bob closes the tab: a fresh page knows nothing of the table but his name.
    await bob.reopenTab();
    await bob.gotoLobby();
    const mine = bob.page.locator(`[data-testid="my-tables"] [data-testid="table-row"][data-table="${tableId}"]`);
    await mine.waitFor();
    assert.match(await mine.textContent(), /private/, 'his private table is listed, marked private');
    assert.equal(await bob.page.locator(`.lobby-tables [data-table="${tableId}"]`).count(), 0, 'not among the open tables');
    assert.deepEqual(await outsideViewport(bob.page, ['.lobby-mine h2', `[data-testid="my-tables"] [data-table="${tableId}"] [data-testid="join"]`]), [],
      '"Your tables" and its button are on the first screen of the lobby');
    await assertCleanPage(bob, 'the lobby with "Your tables" (phone)');
    await mine.locator('[data-testid="join"]').click();
    await bob.page.waitForURL(new RegExp(`#/table/${tableId}$`));
    await bob.seat().waitFor();
    assert.equal(await bob.seatNumber(), 1, 'back in his own seat');

    // Someone else sees neither "Your tables" nor the private table.
    await carol.gotoLobby();
    await carol.page.locator('.lobby-tables [data-testid="table-row"], .lobby-tables .empty-note').first().waitFor();
    assert.equal(await carol.page.locator(`[data-table="${tableId}"]`).count(), 0, 'carol is not shown the private table');
    assert.equal(await carol.page.locator('.lobby-mine').isVisible(), false, 'carol, seated nowhere, has no "Your tables"');
  });
});

test('Leave in the middle of a deal asks first; Cancel leaves the deal whole, and OK leaves it to a bot to play out', { timeout: 120_000 }, async () => {
  await withFixture('night-leave', async (fixture) => {
    const { players: [alice, bob] } = await fixture.seatedTable(['alice', 'bob'], { game: 'red_dog', seed: SEED });
    await alice.start();
    await bob.waitForTurn();
    const seq = await bob.table.getAttribute('data-seq');
    const asked = [];
    bob.page.once('dialog', (dialog) => { asked.push(dialog.message()); dialog.dismiss(); });
    await bob.page.locator('[data-testid="leave"]').click();
    await assertEventually(async () => asked.length === 1, 'Leave asks before giving up the seat mid-deal');
    assert.match(asked[0], /middle of a deal/, `the question says what is at stake: "${asked[0]}"`);
    await bob.page.waitForTimeout(500);
    assert.equal(await bob.table.getAttribute('data-seq'), seq, 'nothing happened at the table');
    assert.equal(await bob.seatNumber(), 1, 'bob keeps his seat');
    assert.equal(await bob.table.getAttribute('data-your-turn'), 'true', 'and his turn');
    assert.doesNotMatch(await alice.page.locator('[data-zone="log"]').textContent(), /void|thrown in|leaves/, 'the deal goes on');
    // The button sits apart from Sound and How to play.
    const gap = await bob.page.evaluate(() => {
      const leave = document.querySelector('[data-testid="leave"]').getBoundingClientRect();
      const sound = document.querySelector('[data-testid="sound"]').getBoundingClientRect();
      return leave.top !== sound.top ? Infinity : leave.left - sound.right;
    });
    assert.ok(gap >= 24, `Leave is not right beside Sound (${gap} px apart)`);

    // OK: bob is gone, and the deal is not. A bot plays his hand to its end.
    bob.page.once('dialog', (dialog) => dialog.accept());
    await bob.page.locator('[data-testid="leave"]').click();
    await bob.page.waitForURL((url) => !url.hash.includes('/table/'));
    const aliceLog = alice.page.locator('[data-zone="log"]');
    await assertEventually(async () => /bob leaves the table: a bot plays their hand to the end of this deal/.test(await aliceLog.textContent()),
      "alice's log says bob's hand is played out");
    // Alice plays her own turns until the deal is settled.
    await assertEventually(async () => {
      if ((await alice.page.locator('[data-zone="result"] [data-seat="1"][data-chips-delta]').count()) === 1) return true;
      if ((await alice.table.getAttribute('data-your-turn')) === 'true') {
        // Red Dog's one move is a bet: at its least.
        const input = alice.page.locator('[data-zone="actions"] input[type="number"][data-action-type="bet"]');
        if (await input.count()) await alice.submitAmount('bet', await input.getAttribute('min')).catch(() => {});
      }
      return false;
    }, 'the deal is settled with bob\'s hand in it', 30_000);
    assert.doesNotMatch(await aliceLog.textContent(), /void|thrown in|abandoned/, 'nothing was thrown in');
  });
});

test('Tables open at once have different titles (100 tables of one host)', { timeout: 120_000 }, async () => {
  await withFixture('night-titles', async (fixture) => {
    const alice = await fixture.player('alice', undefined, { viewport: LAPTOP });
    await alice.gotoLobby();
    // The tables are made over a socket of the page's own: a hundred through the form would take minutes.
    const titles = await alice.page.evaluate(async () => {
      const { tableTitle } = await import('/js/names.js');
      const socket = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws`);
      const replies = new Map();
      socket.addEventListener('message', (event) => {
        const frame = JSON.parse(event.data);
        if (frame.re !== undefined) replies.get(frame.re)?.(frame);
      });
      await new Promise((resolve) => socket.addEventListener('open', resolve));
      let next = 1;
      const ask = (message) => new Promise((resolve) => {
        const re = next++;
        replies.set(re, resolve);
        socket.send(JSON.stringify({ ...message, id: re }));
      });
      const welcome = await ask({ type: 'hello', name: 'hostess' });
      if (welcome.type !== 'welcome') throw new Error(JSON.stringify(welcome));
      const ids = [];
      for (let n = 0; n < 100; n++) {
        const created = await ask({ type: 'create', game: 'red_dog', seats: 2 });
        if (created.type !== 'created') throw new Error(JSON.stringify(created));
        ids.push(created.table);
      }
      socket.close();
      return ids.map((id) => tableTitle(id));
    });
    assert.equal(titles.length, 100);
    const twice = titles.filter((title, i) => titles.indexOf(title) !== i);
    assert.deepEqual(twice, [], 'no title is given to two open tables');
  }, { serverArgs: ['--max-open-tables', '200', '--tables-per-hour', '1000'] });
});

test('Opt-in notifications: a turn that starts while the tab is hidden is notified; in view, it is not', { timeout: 120_000 }, async () => {
  await withFixture('night-notify', async (fixture) => {
    const { players: [alice, bob], tableId } = await fixture.seatedTable(['alice', 'bob'], { game: 'red_dog', seed: SEED });
    for (const player of [alice, bob]) {
      // The browser's Notification, as a granted one that records what it is asked to show; the tab's visibility, set by the test.
      await player.page.evaluate(() => {
        window.__notices = [];
        window.__hidden = false;
        window.Notification = class {
          static permission = 'granted';
          static requestPermission() { return Promise.resolve('granted'); }
          constructor(title, options) { window.__notices.push({ title, ...options }); }
          close() {}
        };
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => window.__hidden });
      });
      const toggle = player.page.locator('[data-testid="notify"]');
      assert.equal((await toggle.textContent())?.trim(), 'Notify off', 'off until the player turns it on');
      await toggle.click();
      await assertEventually(async () => (await toggle.getAttribute('aria-pressed')) === 'true', `${player.name} turns notifications on`);
    }
    await bob.page.evaluate(() => { window.__hidden = true; });
    await alice.start();
    // Each plays his first turn (a bet at its least); bob's tab is in the background throughout.
    for (const player of [alice, bob]) {
      const input = player.page.locator('[data-zone="actions"] input[type="number"][data-action-type="bet"]');
      await input.waitFor({ timeout: 15_000 }).catch(() => {});
    }
    const played = new Set();
    await assertEventually(async () => {
      for (const player of [alice, bob]) {
        if (played.has(player.name) || (await player.table.getAttribute('data-your-turn')) !== 'true') continue;
        const input = player.page.locator('[data-zone="actions"] input[type="number"][data-action-type="bet"]');
        if (!(await input.count())) continue;
        await player.submitAmount('bet', await input.getAttribute('min'));
        played.add(player.name);
      }
      return played.size === 2;
    }, 'both have had a turn', 30_000);
    const notices = async (player) => player.page.evaluate(() => window.__notices);
    const bobs = await notices(bob);
    assert.equal(bobs.length, 1, `bob, whose tab was hidden, was notified of his turn once: ${JSON.stringify(bobs)}`);
    assert.match(bobs[0].title, /^Your turn at the [A-Z][a-z]+ [A-Z][a-z]+$/);
    assert.equal(bobs[0].body, 'Red Dog: it is your move.');
    assert.equal(bobs[0].tag, `parlour-turn-${tableId}`);
    assert.deepEqual(await notices(alice), [], 'alice, whose tab was in view, was not');
    // The choice is kept (with the browser's real permission, granted this time).
    await bob.page.context().grantPermissions(['notifications'], { origin: fixture.server.url });
    await bob.page.reload();
    await assertEventually(async () => ((await bob.page.locator('[data-testid="notify"]').textContent()) ?? '').trim() === 'Notify on', 'the choice is remembered');
  });
});

/**
 * In the text table, with the move box focused: a move's number and Enter, and
 * Enter again in the amount box a move with an amount takes the focus to (its least).
 */
async function playMoveNumber(page, number) {
  await page.keyboard.type(String(number));
  await page.keyboard.press('Enter');
  const amount = page.locator('[data-zone="actions"] input.action-number');
  if (await amount.count() && await amount.evaluate((node) => node === document.activeElement)) await page.keyboard.press('Enter');
}

/**
 * Plays the viewer's turns in the text table by keyboard alone until the deal's result is shown:
 * at each turn start the move box has the focus; `choose` picks a move's number from the
 * numbered moves' words; a move with an amount goes to its box, whose least amount Enter plays.
 */
async function playDealByKeyboard(player, choose, most = 200) {
  const { page } = player;
  const result = page.locator('[data-zone="result"] [data-seat][data-chips-delta]');
  const box = page.locator('[data-testid="move-number"]');
  for (let turn = 0; turn < most; turn++) {
    await result.first().or(box).first().waitFor({ timeout: 30_000 });
    if (await result.count()) return turn;
    const moves = await page.locator('[data-zone="actions"] button[data-number]').evaluateAll((nodes) => nodes.map((n) => n.textContent));
    if (!moves.length || moves.every((m) => /Continue/.test(m ?? ''))) { await page.waitForTimeout(50); continue; }
    await assertEventually(async () => box.evaluate((node) => node === document.activeElement).catch(() => false), 'the move box has the focus');
    const seq = await player.table.getAttribute('data-seq');
    await playMoveNumber(page, choose(moves));
    await assertEventually(async () => (await player.table.getAttribute('data-seq')) !== seq || (await result.count()) > 0, 'the move is played');
  }
  throw new Error(`the deal did not end in ${most} of my turns`);
}

for (const [game, choose] of [
  ['red_dog', () => 1],
  // Rummy: draw from the stock; then discard the first card offered (or go out when it is the move offered first).
  ['rummy', (moves) => {
    const stock = moves.findIndex((m) => /stock/i.test(m));
    if (stock >= 0) return stock + 1;
    const discard = moves.findIndex((m) => /^\d+\. Discard/.test(m));
    return discard >= 0 ? discard + 1 : 1;
  }],
]) {
  test(`The text table plays a deal of ${game} by keyboard alone, and reads the table in words`, { timeout: 180_000 }, async () => {
    await withFixture(`night-text-${game}`, async (fixture) => {
      const player = await fixture.player('tess', undefined, { viewport: LAPTOP });
      await player.createTable({ game, seed: SEED, seats: 2 });
      await player.addBot();
      await player.start();
      const { page } = player;
      await page.locator('body').focus();
      await page.keyboard.press('t');
      await page.locator('[data-zone="text-table"]').waitFor();
      assert.equal(await page.locator('.felt').isVisible(), false, 'the felt gives way to the table in words');
      const text = (await page.locator('[data-zone="text-table"]').textContent()) ?? '';
      assert.match(text, /Players/);
      assert.match(text, /tess \(you\)/, 'the players are listed, the viewer marked');
      assert.doesNotMatch(text, /\b[A2-9TJQK][SHDC]\b|\w+:\d/, 'cards and piles in words, not codes');
      if (game === 'rummy') assert.match(text, /Your hand, \d+ cards/, "the viewer's hand is read out");
      await assertCleanPage(player, `the text table (${game})`);
      await player.screenshot(`text-table-${game}.png`);
      const turns = await playDealByKeyboard(player, choose);
      console.log(`text table: a deal of ${game} in ${turns} turns by keyboard`);
      assert.equal(await page.locator('[data-zone="result"] [data-seat][data-chips-delta]').count() > 0, true, 'the deal ends with its result');
    });
  });
}

test('On a touch phone a big hand lies in two rows, lifted cards clear the sort buttons, and "Move cards" reorders it by taps', { timeout: 120_000 }, async () => {
  await withFixture('night-touch-hand', async (fixture) => {
    const player = await fixture.player('tess', undefined, { viewport: PHONE, hasTouch: true });
    await player.createTable({ game: 'rummy', seed: SEED, seats: 2 });
    await player.addBot();
    await player.start();
    const { page } = player;
    const hand = page.locator('[data-zone="hand"]');
    await assertEventually(async () => (await hand.locator('[data-card]').count()) >= 10, 'ten cards are dealt');
    assert.equal(await hand.getAttribute('data-rows'), '2', 'ten cards on a phone lie in two rows');
    // Measured once the hand is laid out (a card drawn but not yet placed has no size).
    await assertEventually(async () => (await hand.locator('[data-card]').evaluateAll((nodes) => nodes.every((node) => node.getBoundingClientRect().width > 0))),
      'the hand is laid out');
    // Each card shows most of its face, not only its corner.
    const hidden = await hand.locator('.hand-row').evaluateAll((rows) => rows.flatMap((row) => {
      const rects = [...row.querySelectorAll('[data-card]')].map((card) => card.getBoundingClientRect());
      return rects.slice(1).map((r, i) => (rects[i].right - r.left) / r.width);
    }));
    assert.ok(hidden.every((share) => share <= 0.4), `no card is more than 40% under its neighbour: ${hidden.map((s) => s.toFixed(2))}`);

    const order = () => hand.locator('[data-card]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-card')));
    const before = await order();
    await page.locator('[data-testid="move-cards"]').tap();
    await assertEventually(async () => (await page.locator('[data-testid="move-cards"]').getAttribute('aria-pressed')) === 'true', '"Move cards" is on');
    await hand.locator(`[data-card="${before[0]}"]`).tap();
    const lifted = hand.locator(`[data-card="${before[0]}"]`);
    await assertEventually(async () => (await lifted.getAttribute('aria-pressed')) === 'true', 'the first tap lifts the card');
    await page.waitForTimeout(200); // the lift's transition
    const clear = await page.evaluate((card) => {
      const node = document.querySelector(`[data-zone="hand"] [data-card="${card}"]`).getBoundingClientRect();
      const sort = [...document.querySelectorAll('.hand-sort .btn')].map((b) => b.getBoundingClientRect());
      return sort.every((b) => node.top - 12 >= b.bottom || node.right <= b.left || node.left >= b.right);
    }, before[0]);
    assert.ok(clear, 'the lifted card and its check mark do not cover the sort buttons');
    assert.match((await page.locator('[data-testid="move-cards-hint"]').textContent()) ?? '', /tap the card whose place it takes/);
    await hand.locator(`[data-card="${before[4]}"]`).tap();
    const after = [before[1], before[2], before[3], before[4], before[0], ...before.slice(5)];
    await assertEventually(async () => JSON.stringify(await order()) === JSON.stringify(after), `the card moves to its new place: ${JSON.stringify(await order())}`);
    await page.locator('[data-testid="move-cards"]').tap();
    await assertEventually(async () => (await page.locator('[data-testid="move-cards"]').getAttribute('aria-pressed')) === 'false', 'done moving');
    assert.deepEqual(await order(), after, 'the order stays');
  });
});

test('The text table serves every layout: tricks, cassino and building games read in words and move by number', { timeout: 180_000 }, async () => {
  await withFixture('night-text-layouts', async (fixture) => {
    for (const [game, seats] of [['rams', 3], ['royal_cassino', 2], ['russian_bank', 2]]) {
      const player = await fixture.player(`tess_${game.slice(0, 5)}`, undefined, { viewport: LAPTOP });
      await player.createTable({ game, seed: SEED, seats });
      for (let bot = 1; bot < seats; bot++) await player.addBot();
      await player.start();
      const { page } = player;
      await page.locator('body').focus();
      await page.keyboard.press('t');
      const text = page.locator('[data-zone="text-table"]');
      await text.waitFor();
      const words = (await text.textContent()) ?? '';
      assert.match(words, /Players/, `${game}: the players are listed`);
      assert.match(words, /On the table/, `${game}: the table is read out`);
      assert.doesNotMatch(words, /\b[A2-9TJQKEW][SHDC]\b|\w+:\d|undefined|\[object/, `${game}: in words: ${words.slice(0, 300)}`);
      await assertCleanPage(player, `the text table (${game})`);
      // One move by its number, when the turn is the player's.
      const box = page.locator('[data-testid="move-number"]');
      await box.or(page.locator('[data-zone="result"]')).first().waitFor({ timeout: 30_000 }).catch(() => {});
      if (await box.count()) {
        const seq = await player.table.getAttribute('data-seq');
        await box.focus();
        await playMoveNumber(page, 1);
        await assertEventually(async () => (await player.table.getAttribute('data-seq')) !== seq, `${game}: move 1 is played`);
      }
      await page.keyboard.press('t');
      await assertEventually(async () => !(await text.isVisible()), `${game}: T again brings the felt back`);
    }
  });
});

test('Bots are told apart: by first name at one table, by family name across tables', { timeout: 120_000 }, async () => {
  await withFixture('night-bot-names', async (fixture) => {
    const alice = await fixture.player('alice', undefined, { viewport: LAPTOP });
    const tableId = await alice.createTable({ game: 'red_dog', seats: 3 });
    await alice.joinFromLobby(tableId);
    await alice.addBot();
    await alice.addBot();
    const bots = await alice.page.locator('[data-zone="seat"][data-bot="true"]').evaluateAll((nodes) => nodes.map((n) => n.textContent));
    const names = bots.map((text) => /([A-Z][a-z]+ [A-Z][a-z]+) \(bot\)/.exec(text)?.[1]);
    assert.equal(names.length, 2);
    assert.ok(names.every(Boolean), `each bot has a first and a family name: ${JSON.stringify(bots)}`);
    assert.notEqual(names[0].split(' ')[0], names[1].split(' ')[0], `two bots at one table differ: ${names}`);
    // The seat-1 bots of three tables (their ids as the server makes them), as a ledger lists them.
    const across = await alice.page.evaluate(async (ids) => {
      const { displayName } = await import('/js/names.js');
      return ids.map((id) => displayName(id));
    }, ['bot-9f86d081884c7d65-1', 'bot-2c26b46b68ffc68f-1', 'bot-fcde2b2edba56bf4-1']);
    assert.deepEqual(across, ['Basil Eyre (bot)', 'Basil Jessop (bot)', 'Basil Gale (bot)']);
  });
});

test('On the phone, chat out of sight is counted on a badge in view, which brings the chat into view', { timeout: 120_000 }, async () => {
  await withFixture('night-chat-badge', async (fixture) => {
    const alice = await fixture.player('alice', undefined, { viewport: LAPTOP });
    const bob = await fixture.player('bob', undefined, { viewport: PHONE });
    const tableId = await alice.createTable({ game: 'red_dog', seats: 2 });
    const invite = await alice.inviteLink();
    await alice.joinFromLobby(tableId);
    await bob.acceptInvite(invite, tableId);
    await bob.page.evaluate(() => window.scrollTo(0, 0));
    const chatOut = await outsideViewport(bob.page, ['[data-zone="chat"]']);
    assert.equal(chatOut.length, 1, 'on the phone the chat starts below the screen');
    const badge = bob.page.locator('[data-testid="chat-badge"]');
    assert.equal(await badge.isVisible(), false, 'no badge before anything is said');

    await alice.page.locator('[data-testid="chat-input"]').fill('hello bob');
    await alice.page.locator('[data-testid="chat-send"]').click();
    await assertEventually(async () => (await badge.isVisible()) && /1 new/.test(await badge.textContent()), "bob's badge counts alice's line");
    assert.deepEqual(await outsideViewport(bob.page, ['[data-testid="chat-badge"]']), [], 'the badge is on the screen');
    await assertCleanPage(bob, 'a table with the chat badge (phone)');
    await alice.page.locator('[data-testid="chat-input"]').fill('are you there?');
    await alice.page.locator('[data-testid="chat-send"]').click();
    await assertEventually(async () => /2 new/.test(await badge.textContent()), 'a second line counts two');
    await badge.click();
    await assertEventually(async () => (await outsideViewport(bob.page, ['[data-zone="chat"] .chat-form'])).length === 0, 'the chat comes into view');
    await assertEventually(async () => !(await badge.isVisible()), 'and the badge goes');
    // His own lines are not news to him.
    await bob.page.evaluate(() => window.scrollTo(0, 0));
    await bob.page.locator('[data-testid="chat-input"]').fill('here');
    await bob.page.locator('[data-testid="chat-send"]').press('Enter');
    await bob.page.waitForTimeout(500);
    assert.equal(await badge.isVisible(), false, "bob's own line raises no badge");
  });
});

test('A private table refused to a stranger shows why and offers no felt and no chat', { timeout: 60_000 }, async () => {
  await withFixture('night-private-refused', async (fixture) => {
    const alice = await fixture.player('alice', undefined, { viewport: LAPTOP });
    const carol = await fixture.player('carol', undefined, { viewport: PHONE });
    const tableId = await alice.createTable({ game: 'red_dog', seats: 2, options: { private: true } });
    await carol.page.goto(`${fixture.server.url}#/table/${tableId}`);
    await carol.page.locator('h1', { hasText: 'Could not open' }).waitFor();
    assert.equal(await carol.page.locator('[data-testid="chat-input"]').isVisible(), false, 'no chat box');
    assert.equal(await carol.page.locator('.felt').isVisible(), false, 'no felt');
    assert.equal(await carol.page.locator('[data-zone="turn"]').isVisible(), false, 'no turn banner');
    await assertCleanPage(carol, 'a private table refused (phone)');
  });
});

test('A trick game names who led the trick on the table, not who led the deal\'s first trick', { timeout: 150_000 }, async () => {
  await withFixture('night-led-by', async (fixture) => {
    const host = await fixture.player('host');
    await host.createTable({ game: 'rams', seed: 11, seats: 3 });
    for (let bots = 0; bots < 2; ++bots) await host.addBot();
    // Every render checked as it lands: the "Led by" fact against the first card of the trick on the felt.
    await host.page.evaluate(() => {
      const seen = { checks: 0, wrong: [], leaders: [] };
      /** @type {any} */ (window).ledBy = seen;
      new MutationObserver(() => {
        const first = document.querySelector('[data-zone="trick"][aria-label="Trick"] .trick-play');
        if (!first) return;
        const led = document.querySelector('[data-fact="leader"]');
        seen.checks += 1;
        if (led?.getAttribute('data-seat') !== first.getAttribute('data-seat'))
          seen.wrong.push(`${led?.textContent ?? 'no "Led by"'} beside a trick led by seat ${first.getAttribute('data-seat')}`);
        if (!seen.leaders.includes(first.getAttribute('data-seat'))) seen.leaders.push(first.getAttribute('data-seat'));
      }).observe(document.body, { childList: true, subtree: true });
    });
    await host.start();
    const done = () => host.page.evaluate(() => {
      const seen = /** @type {any} */ (window).ledBy;
      return seen.wrong.length > 0 || (seen.checks >= 10 && seen.leaders.length >= 2);
    });
    // The host plays along: a button when one is offered (staying in the deal), else the first card he may play.
    const deadline = Date.now() + 90_000;
    while (!(await done()) && Date.now() < deadline) {
      const { legal, key, seq } = await host.offers();
      const staying = legal.findIndex((json) => !['pass', 'drop'].includes(JSON.parse(json).type));
      const pick = legal[staying >= 0 ? staying : 0];
      const card = host.page.locator('[data-zone="hand"] button.hand-card:not([disabled])').first();
      if (pick) {
        // A push may land between reading the moves and clicking one (a bot's move, the trick taken): read again.
        if (!(await host.legalActions()).includes(pick)) continue;
        await host.clickAction(pick).catch(() => {});
      } else if (await card.count()) { await card.click(); await card.click(); } else { await host.page.waitForTimeout(100); continue; }
      await host.waitForChange(key, 'the table moves after the host\'s move', seq).catch(() => {});
    }
    const seen = await host.page.evaluate(() => /** @type {any} */ (window).ledBy);
    assert.deepEqual(seen.wrong, [], '"Led by" names the first player of the trick on the table');
    assert.ok(seen.checks >= 10 && seen.leaders.length >= 2, `tricks led by two seats or more were watched: ${JSON.stringify(seen)}`);
    await host.endTable();
  });
});

/** Ivan at a seeded Russian Bank table against a bot, at the laptop size, on his first turn. */
async function russianBankAgainstBot(fixture) {
  const player = await fixture.player('ivan', undefined, { viewport: LAPTOP });
  await player.createTable({ game: 'russian_bank', seed: 7, seats: 2 });
  await player.addBot();
  await player.start();
  await player.waitForTurn();
  return player;
}

test('Russian Bank: a card put on a pile it may not go to is refused with the rule that forbids it, and nothing moves', { timeout: 90_000 }, async () => {
  await withFixture('night-refusal', async (fixture) => {
    const player = await russianBankAgainstBot(fixture);
    const { page } = player;
    await page.locator('[data-zone="pile"] button.is-movable').first().click();
    // Item 12: at 1366×800 every pile is in view on my turn, the opponent's (which may be targets) included.
    const offScreen = await page.evaluate(() => {
      const header = document.getElementById('header')?.getBoundingClientRect().bottom ?? 0;
      return [...document.querySelectorAll('[data-zone="pile"]')].filter((pile) => {
        const r = pile.getBoundingClientRect();
        return r.top < header || r.bottom > window.innerHeight;
      }).map((pile) => pile.getAttribute('data-pile'));
    });
    assert.deepEqual(offScreen, [], 'no pile is off screen or under the header');
    const wrong = page.locator('[data-zone="pile"]:not([data-target]):not(.is-source)').first();
    const label = (await wrong.locator('.pile-label').textContent())?.trim();
    const seq = await player.table.getAttribute('data-seq');
    await wrong.click();
    const alert = page.locator('.banner[role="alert"]');
    await alert.waitFor();
    const reason = (await alert.textContent()) ?? '';
    console.log(`russian_bank: a move to ${label} refused: "${reason}"`);
    assert.ok(reason.length > 20, `the refusal of a move to ${label} says why: "${reason}"`);
    assert.doesNotMatch(reason, /\b(?:stock|hand|turned|discard|layout|centre):\d|\b[A2-9TJQK][SHDC]\b/, `the reason is in words: "${reason}"`);
    assert.equal(await player.table.getAttribute('data-seq'), seq, 'nothing moved');
    await player.endTable();
  });
});

test("Russian Bank: the bot's turn is shown move by move, each step's piles marked and said in words", { timeout: 120_000 }, async () => {
  await withFixture('night-bot-moves', async (fixture) => {
    const player = await russianBankAgainstBot(fixture);
    const { page } = player;
    // Every step the page draws: its seq, the piles marked as moved, the line that says the move.
    await page.evaluate(() => {
      const seen = [];
      window.__steps = seen;
      const note = () => {
        const seq = document.querySelector('[data-table]')?.getAttribute('data-seq');
        if (!seq || seen.at(-1)?.seq === seq) return;
        seen.push({
          seq,
          // My move, not the bot's: while the bot moves I may be offered only a stop or a demand
          // (its out-of-order move), and the page says it is my turn then too.
          mine: document.querySelector('[data-table]')?.getAttribute('data-your-turn') === 'true' &&
            !document.querySelector('[data-tool="stop"], [data-action-type="stop"], [data-action-type="demand"]'),
          moved: [...document.querySelectorAll('[data-zone="pile"][data-moved]')].map((n) => `${n.getAttribute('data-pile')} ${n.getAttribute('data-moved')}`),
          line: document.querySelector('[data-testid="last-move"]')?.textContent ?? '',
        });
      };
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-seq'] });
      note();
    });
    // My turns, each played to its end (turning my cards over, or moving one), and the bot's between
    // them, until the bot has made a few steps that moved cards.
    const botMoves = () => page.evaluate(() => window.__steps.filter((s) => !s.mine && s.moved.length).length);
    for (let round = 0; round < 8 && (await botMoves()) < 4; round++) {
      for (let step = 0; step < 80 && (await player.table.getAttribute('data-your-turn')) === 'true'; step++) {
        const seq = await player.table.getAttribute('data-seq');
        const tool = page.locator(['end_turn', 'turn_hand', 'turn_stock', 'draw', 'pass'].map((t) => `[data-tool="${t}"]`).join(', ')).first();
        const click = (locator) => locator.click({ timeout: 2_000 }).then(() => true, () => false);
        const clicked = (await tool.count())
          ? await click(tool)
          : (await click(page.locator('[data-zone="pile"] button.is-movable').first())) &&
            (await click(page.locator('[data-zone="pile"][data-target]').first()));
        // The page moved on under the click (the bot called stop, the turn passed): look again.
        if (!clicked) continue;
        await assertEventually(async () => (await player.table.getAttribute('data-seq')) !== seq, 'my step is applied');
      }
      await assertEventually(async () => (await player.table.getAttribute('data-your-turn')) === 'true' ||
        (await page.locator('[data-zone="result"]').count()) > 0, "the bot plays its turn", 60_000);
      if (await page.locator('[data-zone="result"]').count()) break;
    }
    const steps = await page.evaluate(() => window.__steps);
    // One by one: every step was drawn, none skipped (the bot's steps come one per push).
    for (let i = 1; i < steps.length; i++) assert.equal(Number(steps[i].seq), Number(steps[i - 1].seq) + 1, `step ${steps[i].seq} follows ${steps[i - 1].seq}`);
    // A bot's step is marked on the page that draws it: the one whose mover, before it, was the bot.
    const bots = steps.filter((s, i) => i > 0 && !steps[i - 1].mine);
    const moves = bots.filter((s) => s.moved.length);
    // My own steps are not marked: I saw them as I made them.
    for (const [i, s] of steps.entries()) if (i > 0 && steps[i - 1].mine) assert.deepEqual(s.moved, [], `my step ${s.seq} is not marked`);
    console.log(`russian_bank: the bot's steps ${JSON.stringify(bots.map((s) => [s.seq, s.moved, s.line]))}`);
    assert.ok(moves.length >= 2, `at least two of the bot's steps moved cards: ${JSON.stringify(bots)}`);
    for (const s of moves) {
      assert.ok(s.moved.some((m) => / (to|turned)$/.test(m)), `step ${s.seq} marks where a card went: ${s.moved}`);
      assert.match(s.line, /^.+ (moves a card from .+ to|puts a card on|turns up the top card of) .+\.$/, `step ${s.seq} says its move: "${s.line}"`);
      assert.doesNotMatch(s.line, /\b(?:stock|hand|turned|discard|layout|centre):\d|bot-/, `in words: "${s.line}"`);
    }
    await player.endTable();
  }, { serverArgs: ['--bot-delay-ms', '300'] });
});

test('On the phone, a move says what it does beside its button; the ledger reads entry by entry, settle-up first', { timeout: 90_000 }, async () => {
  await withFixture('night-phone-ledger', async (fixture) => {
    const alice = await fixture.player('alice', undefined, { viewport: PHONE });
    await alice.createTable({ game: 'red_dog', seed: 5, seats: 2 });
    await alice.addBot();
    await alice.start();
    await alice.waitForTurn();
    // Item 8: nothing hovers on a phone, so what a move does is written beside its button.
    const hint = alice.page.locator('[data-zone="actions"] .action-hint').first();
    assert.equal(await hint.isVisible(), true, 'the move\'s explanation is on screen');
    assert.match((await hint.textContent()) ?? '', /^Bet that/, 'it says what the bet is');
    await alice.submitAmount('bet', 1);
    await alice.page.goto(`${fixture.server.url}#/ledger/alice`);
    await assertEventually(async () => (await alice.page.locator('[data-testid="ledger-entry"]').count()) >= 3, 'the ante and the bet are on the ledger');
    await alice.page.locator('[data-testid="balances"] [data-player][data-net]').first().waitFor();
    const layout = await alice.page.evaluate(() => ({
      rows: [...document.querySelectorAll('[data-testid="ledger-entry"]')].map((row) => Math.round(row.getBoundingClientRect().height)),
      cellsOut: [...document.querySelectorAll('[data-testid="ledger-entry"] td')]
        .filter((cell) => getComputedStyle(cell).display !== 'none' && cell.getBoundingClientRect().right > window.innerWidth + 1).length,
      pageWidth: document.documentElement.scrollWidth,
      settleTop: document.querySelector('.settle')?.getBoundingClientRect().top ?? Infinity,
      entriesTop: document.querySelector('[data-testid="ledger-entry"]')?.getBoundingClientRect().top ?? -Infinity,
    }));
    assert.ok(layout.rows.every((height) => height <= 130), `each entry is a few lines tall: ${layout.rows}`);
    assert.equal(layout.cellsOut, 0, 'no column runs off the screen');
    assert.ok(layout.pageWidth <= PHONE.width, `the page does not scroll sideways (${layout.pageWidth} px)`);
    assert.ok(layout.settleTop < layout.entriesTop, 'settle-up comes before the entries');
    await assertCleanPage(alice, 'phone ledger');
  });
});
