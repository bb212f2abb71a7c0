// Table chat in the browser: a line typed by a player and a quick reaction
// from a watcher reach the others, the host mutes and unmutes the watcher,
// a flood is refused with an error, a reload shows the chat again, and the
// box closes when the table finishes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, assertEventually, withFixture } from './harness.mjs';

const line = (page, player, extra = '') => page.locator(`[data-testid="chat-line"][data-player="${player}"]${extra}`);

test('chat: lines and reactions reach everyone, the host mutes, a flood is refused, a reload keeps it', { timeout: 90_000 }, async () => {
  await withFixture('chat', async (fixture) => {
    const ann = await fixture.player('ann');
    const bob = await fixture.player('bob');
    const cara = await fixture.player('cara');

    const tableId = await ann.createTable({ game: 'red_dog', seats: 2 });
    const invite = await ann.inviteLink();
    await ann.joinFromLobby(tableId);
    await bob.acceptInvite(invite, tableId);
    await cara.page.goto(`${fixture.server.url}#/table/${tableId}`);
    await cara.page.locator(`${ROOT}[data-table="${tableId}"]`).waitFor();

    // A typed line reaches the others.
    await ann.page.locator('[data-testid="chat-input"]').fill('  hello table  ');
    await ann.page.locator('[data-testid="chat-send"]').click();
    for (const viewer of [bob, cara]) {
      await line(viewer.page, 'ann').waitFor();
      assert.match(await line(viewer.page, 'ann').textContent(), /hello table/);
    }
    assert.equal(await ann.page.locator('[data-testid="chat-input"]').inputValue(), '', 'the box empties once sent');

    // The watcher's reaction.
    await cara.page.locator('[data-testid="chat-reaction"][data-reaction="gg"]').click();
    await line(ann.page, 'cara', '[data-reaction="gg"]').waitFor();
    await line(bob.page, 'cara', '[data-reaction="gg"]').waitFor();

    // Only the host has mute switches; muting the watcher closes her box, unmuting opens it.
    assert.equal(await bob.page.locator('[data-testid="mute"]').count(), 0, 'bob, not the host, has no mute switch');
    const muteCara = ann.page.locator('[data-testid="mute"][data-player="cara"]');
    await muteCara.click();
    await ann.page.locator('[data-testid="mute"][data-player="cara"][aria-pressed="true"]').waitFor();
    await cara.page.locator('[data-testid="chat-muted"]').waitFor();
    assert.equal(await cara.page.locator('[data-testid="chat-input"]').isDisabled(), true, "cara's box is closed");
    await ann.page.locator('[data-testid="mute"][data-player="cara"]').click();
    await assertEventually(async () => !(await cara.page.locator('[data-testid="chat-input"]').isDisabled()),
      "cara's box opens again");

    // Bob floods: five lines pass in ten seconds, the sixth is refused and he is told.
    for (let i = 1; i <= 6; ++i) {
      await bob.page.locator('[data-testid="chat-input"]').fill(`spam ${i}`);
      await bob.page.locator('[data-testid="chat-send"]').click();
      if (i < 6) await line(ann.page, 'bob').nth(i - 1).waitFor();
    }
    await bob.page.locator('[data-zone="error"]').waitFor();
    await ann.page.waitForTimeout(300);
    assert.equal(await line(ann.page, 'bob').count(), 5, 'only five of bob\'s lines got through');

    // A reload (a new connection) shows the whole chat again.
    await ann.page.reload();
    await line(ann.page, 'bob').nth(4).waitFor();
    assert.equal(await ann.page.locator('[data-testid="chat-line"]').count(), 7);
    await ann.screenshot('chat.png');

    // A finished table takes no more chat: the box closes and says why.
    await ann.endTable();
    for (const viewer of [ann, bob]) {
      await viewer.page.locator('[data-testid="chat-closed"]').waitFor();
      assert.equal(await viewer.page.locator('[data-testid="chat-input"]').isDisabled(), true, 'the box is closed');
    }
  });
});
