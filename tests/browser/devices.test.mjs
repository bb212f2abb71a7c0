// The ledger page's "Your devices" and "Passphrase" panels, and the sign-in
// page's forms that use them (docs/playing.md "Accounts and recovery"): a code
// made on the laptop signs the phone in as the same name, the laptop lists the
// phone and revokes it (the phone is signed out at once), and a passphrase set on
// the laptop signs a third browser in.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertEventually, delay, withFixture } from './harness.mjs';

async function newPage(fixture) {
  const context = await fixture.browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(fixture.server.url);
  return { context, page };
}

test('devices: a code links the phone, the laptop revokes it; a passphrase signs in another browser', { timeout: 90_000 }, async () => {
  await withFixture('devices', async (fixture) => {
    const laptop = await fixture.player('fern');
    const { page } = laptop;
    page.on('dialog', (dialog) => dialog.accept());  // "Revoke …?"
    await page.getByRole('link', { name: 'My ledger' }).click();
    await page.locator('[data-testid="device-link"]').click();
    const code = (await page.locator('[data-testid="device-code-value"]').textContent()).trim();
    assert.match(code, /^[0-9A-Z-]{8,}$/, `a device code: ${code}`);

    const phone = await newPage(fixture);
    try {
      await phone.page.locator('details.device-signin summary').click();
      const form = phone.page.locator('form[data-testid="device-signin"]');
      await form.locator('input[name="device-code"]').fill(code);
      await form.locator('input[name="device-label"]').fill('phone');
      await form.locator('button[type="submit"]').click();
      await phone.page.locator('form[data-testid="create-table"]').waitFor();
      await phone.page.locator('.user-name', { hasText: 'fern' }).waitFor();

      // The laptop lists the phone and revokes it: the phone is signed out without a reload.
      await page.reload();
      const listed = page.locator('[data-testid="device"]', { hasText: 'phone' });
      await listed.waitFor();
      await listed.locator('[data-testid="revoke-device"]').click();
      await phone.page.locator('form[data-testid="signin"]').waitFor();
      await listed.waitFor({ state: 'detached' });

      // The code was used once: it signs nobody in again (tried until the
      // signed-out page has its connection back).
      await phone.page.locator('details.device-signin summary').click();
      await form.locator('input[name="device-code"]').fill(code);
      const refusal = form.locator('.form-message-error');
      await assertEventually(async () => {
        await form.locator('button[type="submit"]').click();
        await refusal.waitFor();
        if (/unknown, used or expired/.test(await refusal.textContent())) return true;
        await delay(300);
        return false;
      }, 'the used code is refused as used');
    } finally {
      await phone.context.close();
    }

    // A passphrase set on the laptop signs in another browser as fern.
    const passphraseForm = page.locator('form:has(input[name="new-passphrase"])');
    await passphraseForm.locator('input[name="new-passphrase"]').fill('correct horse battery');
    await passphraseForm.locator('button[type="submit"]').click();
    await page.getByText('Passphrase saved.').waitFor();
    const other = await newPage(fixture);
    try {
      await other.page.locator('details:has(form[data-testid="passphrase-signin"]) summary').click();
      const form = other.page.locator('form[data-testid="passphrase-signin"]');
      await form.locator('input[name="passphrase-name"]').fill('fern');
      await form.locator('input[name="passphrase"]').fill('wrong horse battery');
      await form.locator('button[type="submit"]').click();
      await form.locator('.form-message-error').waitFor();
      await form.locator('input[name="passphrase"]').fill('correct horse battery');
      await form.locator('button[type="submit"]').click();
      await other.page.locator('form[data-testid="create-table"]').waitFor();
      await other.page.locator('.user-name', { hasText: 'fern' }).waitFor();
    } finally {
      await other.context.close();
    }
  });
});
