// Names that survive a lost browser (docs/playing.md "Accounts and recovery"): the
// recovery code is shown once, and another browser gets the name back with it
// while the old key stops working everywhere.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withFixture } from './harness.mjs';

test('recovery code: shown once, recovers the name in another browser, signs the old one out', { timeout: 90_000 }, async () => {
  await withFixture('accounts', async (fixture) => {
    // The harness reads the code off the page shown after the first sign-in.
    const laptop = await fixture.player('erin');
    const code = laptop.recoveryCode;
    assert.match(code, /^([0-9A-Z]{4}-){4}[0-9A-Z]{4}$/, `a recovery code: ${code}`);

    // Shown once: a reload signs in with the stored key, straight to the lobby.
    await laptop.page.reload();
    await laptop.page.locator('form[data-testid="create-table"]').waitFor();
    assert.equal(await laptop.page.locator('[data-testid="recovery-code"]').count(), 0, 'no recovery code after a reload');

    // A new browser (a lost laptop, a phone): "Lost your key?" with the code, as typed by hand.
    const context = await fixture.browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    try {
      const phone = await context.newPage();
      await phone.goto(fixture.server.url);
      const form = phone.locator('form[data-testid="recover"]');
      await phone.locator('details:has(form[data-testid="recover"]) summary').click();
      await form.locator('input[name="recover-name"]').fill('erin');
      await form.locator('input[name="recovery-code"]').fill(code.replaceAll('-', '').toLowerCase());
      await form.locator('input[name="recovery-code"]').press('Enter');
      // A new code, shown once, since the old one is spent.
      const fresh = (await phone.locator('[data-testid="recovery-code"]').textContent()).trim();
      assert.notEqual(fresh, code, 'a new recovery code replaces the used one');
      await phone.locator('[data-testid="recovery-kept"]').check();
      await phone.locator('[data-testid="recovery-continue"]').click();
      await phone.locator('form[data-testid="create-table"]').waitFor();

      // The laptop's key was revoked: it is signed out without a reload, and stays so.
      await laptop.page.locator('form[data-testid="signin"]').waitFor();
      await laptop.page.reload();
      await laptop.page.locator('form[data-testid="signin"]').waitFor();
      assert.equal(await laptop.page.locator('form[data-testid="create-table"]').count(), 0, 'the old browser is not signed in');
    } finally {
      await context.close();
    }
  });
});
