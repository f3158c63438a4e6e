import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SECURITY_MESSAGES } from '#contract/api.js';
import { MESSAGES } from '#contract/validation.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import {
  horizontalOverflow,
  screenshot,
  signUpWithPassword,
  submitCreateAccount,
  uniqueEmail,
  withDovecotProduct,
} from './harness.js';

// Settings and the Rules screen saying what they do (docs/decisions/102-settings-that-say-what-they-do.md),
// in Chromium at 1280 and 375 px: the Change password form with its field errors and the other browser
// signed out; the weekly report switch saying when the report arrives in the browser's own time zone,
// "Saved", and its preview; the Rules screen's blocked senders with Unblock; the expired confirmation
// link's Resend; the Add Mailbox form prefilled with the address typed at sign-up.

const { product, open, userWithYahooMailbox } = withDovecotProduct();

const signStatus = (page: Page) =>
  page.evaluate<{ status: boolean }>("fetch('/signin-status/').then((r) => r.json())");

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${product.url}/signin/password`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/connect-mailbox');
}

describe('Settings and Rules that say what they do', () => {
  it('changes the password with field errors, keeps this browser and signs out the other', async () => {
    for (const width of [1280, 375]) {
      const { page } = await open(width);
      const password = 'long enough password';
      const email = await signUpWithPassword(page, product, uniqueEmail('pw'), password);
      const { page: other } = await open(1280);
      await signIn(other, email, password);

      await page.goto(`${product.url}/genie/settings`);
      const form = page.getByRole('region', { name: 'Change password' });
      await form.getByRole('heading', { name: 'Change password' }).waitFor();
      const current = form.getByLabel('Current password');
      const next = form.getByLabel('New password', { exact: true });
      const repeat = form.getByLabel('Repeat the new password');
      const submit = form.getByRole('button', { name: 'Change password' });

      // The form's own checks, each under its field.
      await next.fill('short');
      await submit.click();
      await form.getByText(SECURITY_MESSAGES.currentPasswordRequired).waitFor();
      await form.getByText(MESSAGES.passwordTooShort).waitFor();
      expect(await current.getAttribute('class')).toContain('is-invalid');
      expect(await next.getAttribute('class')).toContain('is-invalid');

      // The server's: a wrong current password, under that field.
      await current.fill('not my password');
      await next.fill('a brand new password');
      await repeat.fill('a brand new password');
      await submit.click();
      await form.getByText(SECURITY_MESSAGES.wrongCurrentPassword).waitFor();
      expect(await current.getAttribute('class')).toContain('is-invalid');
      expect(await next.getAttribute('class')).not.toContain('is-invalid');
      await form.scrollIntoViewIfNeeded();
      await screenshot(page, `settings-password-error-${width}`);

      await current.fill(password);
      await next.fill('a brand new password');
      await repeat.fill('a brand new password');
      await submit.click();
      await form.getByRole('status').getByText(SECURITY_MESSAGES.passwordChanged).waitFor();
      expect(await current.inputValue()).toBe('');
      await screenshot(page, `settings-password-changed-${width}`);
      expect(await horizontalOverflow(page)).toBe(0);

      expect(await signStatus(page)).toEqual({ status: true });
      expect(await signStatus(other)).toEqual({ status: false });
      await page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
      await expect
        .poll(() => page.getByRole('list', { name: 'Sessions' }).getByRole('listitem').count())
        .toBe(1);
    }
  });

  it('says when the weekly report arrives in the browser’s time, says Saved, and previews it', async () => {
    for (const width of [1280, 375]) {
      const { page } = await open(width);
      // A browser in New York: reports go out on Monday 00:00 UTC, which is its Sunday evening.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'America/New_York' });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await signUpWithPassword(page, product, uniqueEmail('report'));
      await page.goto(`${product.url}/genie/settings`);
      const report = page.getByRole('switch', { name: /Email me a weekly report/ });
      await report.waitFor();
      const details = page.locator('#weekly-report-details');
      await details
        .getByText(
          /When on, it arrives every Sunday at (19|20):00 your time \(America\/New_York\), about the week before\./,
        )
        .waitFor();
      await details.getByText('It is sent only to a confirmed address').waitFor();
      expect(await report.getAttribute('aria-describedby')).toBe('weekly-report-details');

      await report.click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      await details
        .getByText(/^Arrives every Sunday at (19|20):00 your time .* The next one: Sunday \d+ \w+\./)
        .waitFor();
      await screenshot(page, `settings-report-saved-${width}`);
      expect(await horizontalOverflow(page)).toBe(0);
      await page.reload();
      await page.getByRole('switch', { name: /Email me a weekly report/ }).waitFor();
      expect(await page.getByRole('switch', { name: /Email me a weekly report/ }).isChecked()).toBe(true);

      await page.getByRole('button', { name: 'Preview the report' }).click();
      const dialog = page.getByRole('dialog', { name: 'Your weekly report, as it would arrive now' });
      await dialog.waitFor();
      await dialog.getByText('A preview only: nothing was sent.').waitFor();
      const frame = page.frameLocator('iframe[title="Weekly report preview"]');
      await frame
        .getByText(/Inbox Genie/)
        .first()
        .waitFor();
      await screenshot(page, `settings-report-preview-${width}`);
      await dialog.locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
  });

  it('lists blocked senders on the Rules screen and unblocks one', async () => {
    for (const width of [1280, 375]) {
      const letters = [1, 2, 3].map((n) =>
        rawMessage({
          from: 'Loud Deals <deals@loud.example>',
          subject: `Deal ${n}`,
          date: daysAgo(n),
          listUnsubscribe: '<https://loud.example/unsubscribe?u=1>',
        }),
      );
      const { page } = await userWithYahooMailbox('blocks', letters, { width });
      await page.getByRole('row').filter({ hasText: 'deals@loud.example' }).waitFor();
      await page.getByRole('button', { name: 'More deals@loud.example' }).click();
      await page.getByRole('menuitem', { name: 'Block…' }).click();
      const ask = page.getByRole('dialog').filter({ hasText: 'Block 1 sender?' });
      await ask.getByRole('button', { name: 'Block' }).click();
      await page.locator('.bulk-summary').getByText('1 sender blocked').waitFor();

      await page.goto(`${product.url}/genie/rules`);
      const blocked = page.getByRole('list', { name: 'Blocked senders' });
      const item = blocked.getByRole('listitem').filter({ hasText: 'deals@loud.example' });
      await item.waitFor();
      await item.getByText('Loud Deals').waitFor();
      await item.getByText(/Blocked since .*: its mail goes to the trash/).waitFor();
      await screenshot(page, `rules-blocked-${width}`);
      expect(await horizontalOverflow(page)).toBe(0);

      await item.getByRole('button', { name: 'Unblock' }).click();
      await page
        .getByRole('status')
        .getByText(
          'Loud Deals is unblocked: 3 messages put back from the trash. It is back in your review list.',
        )
        .waitFor();
      await page.getByText('No blocked senders.').waitFor();
      await screenshot(page, `rules-unblocked-${width}`);
    }
  });

  it('offers Resend on an expired confirmation link, and Sign in when signed out', async () => {
    for (const width of [1280, 375]) {
      const { page } = await open(width);
      const email = await signUpWithPassword(page, product, uniqueEmail('link'));
      await page.goto(`${product.url}/confirm-email?token=a-link-that-is-not-valid`);
      await page.getByRole('button', { name: 'Confirm' }).click();
      const alert = page.getByRole('alert');
      await alert
        .getByText('This confirmation link is invalid or has expired. Ask for a new one here:')
        .waitFor();
      await alert.getByRole('button', { name: 'Resend the link' }).click();
      await alert
        .getByRole('status')
        .getByText(`A new confirmation link is on its way. It works for 24 hours. It goes to ${email}.`)
        .waitFor();
      expect(await alert.getByRole('button', { name: 'Resend the link' }).isDisabled()).toBe(true);
      await screenshot(page, `confirm-expired-resend-${width}`);
      expect(await horizontalOverflow(page)).toBe(0);

      const { page: visitor } = await open(width);
      await visitor.goto(`${product.url}/confirm-email`);
      const signedOut = visitor.getByRole('alert');
      await signedOut.getByText(SECURITY_MESSAGES.confirmLinkExpired).waitFor();
      await signedOut.getByRole('link', { name: 'Sign in' }).waitFor();
      expect(await signedOut.getByRole('button', { name: 'Resend the link' }).count()).toBe(0);
    }
  });

  it('prefills Add Mailbox with the address typed at sign-up, and keeps it out of the URL', async () => {
    const { page } = await open(375);
    const typed = `someone-${Date.now()}@yahoo.com`;
    await page.goto(`${product.url}/create-account`);
    await submitCreateAccount(page, typed);
    await page.waitForURL('**/add-mailbox?provider=yahoo');
    expect(page.url()).not.toContain(encodeURIComponent(typed));
    expect(page.url()).not.toContain(typed);
    await expect.poll(() => page.getByLabel('Email', { exact: true }).inputValue()).toBe(typed);
    await screenshot(page, 'add-mailbox-prefilled-375');
    // Another provider's form is not offered an address it would refuse.
    await page.goto(`${product.url}/add-mailbox?provider=icloud`);
    await page.getByLabel('App-Specific Password').waitFor();
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('');
  });
});
