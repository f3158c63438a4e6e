import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { CONTACT_MESSAGES } from '#contract/validation.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { startDnsFake } from '#test/helpers/dns-fake.js';
import { isResetMail, readOutbox, resetTokenFrom } from '#test/helpers/outbox.js';
import { NOTICES } from '../web/src/components/notice.js';
import {
  horizontalOverflow,
  productForThisFile,
  screenshot,
  signUpWithPassword,
  uniqueEmail,
} from './harness.js';

// The product's DNS (DNS_SERVERS) is a small server on 127.0.0.1 that publishes, for one domain, the RFC 6186
// record of its IMAP server (at a public address the test never contacts): the add-mailbox form suggests it.
const { mailDns } = peersForThisFile({
  mailDns: () =>
    startDnsFake({
      '_imaps._tcp.mail-e2e.example.test': {
        SRV: [{ priority: 0, weight: 0, port: 993, target: 'imap.mail-e2e.example.test' }],
      },
      'imap.mail-e2e.example.test': { A: ['93.184.216.34'] },
    }),
});
const { product, newPage: open } = productForThisFile(() => ({ DNS_SERVERS: mailDns.address }));

const newEmail = () => uniqueEmail('e2e');

async function signUp(page: Page, email: string, password: string): Promise<void> {
  await signUpWithPassword(page, product, email, password);
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${product.url}/signin/password`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

describe('accounts in the browser', () => {
  it('shows the landing page with its calls to action', async () => {
    const page = await open();
    await page.goto(product.url);
    await expect(page.getByRole('link', { name: 'Get Started' }).first().getAttribute('href')).resolves.toBe(
      '/signup',
    );
    await screenshot(page, 'landing-1280');
    const mobile = await open(375);
    await mobile.goto(product.url);
    // The landing screen is a chunk of its own: measured before it renders, the loader never overflows.
    await mobile.locator('#landing-title').waitFor();
    const overflow = await horizontalOverflow(mobile);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(mobile, 'landing-375');
  });

  it('validates the create-account form on submit with the spec messages', async () => {
    const page = await open();
    await page.goto(`${product.url}/create-account`);
    await page.getByRole('button', { name: 'Create Account' }).click();
    // The form validates asynchronously (zod resolver): the message renders a moment after the click.
    const invalidEmail = page.getByText('Please enter a valid email address.');
    await invalidEmail.waitFor();
    await expect(invalidEmail.isVisible()).resolves.toBe(true);
    await page.getByLabel('Email').fill(newEmail());
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Password must be at least 8 characters.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('long enough');
    await page.getByLabel('Confirm Password').fill('long enougH');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Passwords do not match.').waitFor();
    await screenshot(page, 'create-account-errors');
  });

  it('signs up to /connect-mailbox, signs out, and answers a second sign-up without telling the address has an account', async () => {
    const page = await open();
    const email = newEmail();
    await signUp(page, email, 'first password');
    await page.getByRole('heading', { name: 'Connect your first mailbox' }).waitFor();
    await screenshot(page, 'connect-mailbox');

    await page.goto(`${product.url}/genie/settings`);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/signin');
    await page.goto(`${product.url}/genie/settings`);
    await page.waitForURL('**/signin');

    await page.goto(`${product.url}/create-account`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('other password');
    await page.getByLabel('Confirm Password').fill('other password');
    await page.getByRole('button', { name: 'Create Account' }).click();
    // Answered as a new address would be: a stand-in account of its own, empty, on the same next screen.
    await page.waitForURL('**/connect-mailbox');
    await page.getByRole('heading', { name: 'Connect your first mailbox' }).waitFor();
    expect(await page.getByText('already exists').count()).toBe(0);
    await screenshot(page, 'duplicate-sign-up');
    // The owner is told by mail instead.
    await vi.waitFor(async () => {
      const mails = (await readOutbox(product.dataDir)).filter((m) => m.to === email);
      expect(mails.map((m) => m.subject)).toContain(
        'Someone tried to create an Inbox Genie account with your address',
      );
    });
  });

  it('recovers a forgotten password through the link in the outbox', async () => {
    const page = await open();
    const email = newEmail();
    await signUp(page, email, 'old password');
    await page.context().clearCookies();

    await signIn(page, email, 'wrong password');
    await page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }).waitFor();
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.waitForURL('**/reset-password');
    // The sign-in screen, with its own Email field, stays on the page until this screen's chunk has loaded.
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.waitForURL('**/reset-password/sent');
    await screenshot(page, 'reset-sent');

    // The mail is sent after the answer: it may land in the outbox a moment later.
    const mail = await vi.waitFor(async () => {
      const found = (await readOutbox(product.dataDir)).find((m) => m.to === email && isResetMail(m));
      expect(found, 'reset mail in the outbox').toBeDefined();
      return found!;
    });
    const token = resetTokenFrom(mail);
    await page.goto(`${product.url}/reset-password/confirm?token=${encodeURIComponent(token)}`);
    await page.getByText('Choose a New Password').waitFor();
    await page.getByLabel('New Password').fill('new password 1');
    await page.getByLabel('Confirm Password').fill('new password 1');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.waitForURL('**/signin/password');

    await signIn(page, email, 'new password 1');
    await page.waitForURL('**/connect-mailbox');

    // The link works once.
    await page.context().clearCookies();
    await page.goto(`${product.url}/reset-password/confirm?token=${encodeURIComponent(token)}`);
    await page.getByLabel('New Password').fill('another password');
    await page.getByLabel('Confirm Password').fill('another password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('alert').filter({ hasText: 'invalid or has expired' }).waitFor();
  });

  it('sends a signed-out visitor from /genie to /signin', async () => {
    const page = await open();
    await page.goto(`${product.url}/genie`);
    await page.waitForURL('**/signin');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
  });

  it('keeps the settings switches across a reload', async () => {
    const page = await open();
    await signUp(page, newEmail(), 'settings password');
    await page.goto(`${product.url}/genie/settings`);
    const manual = page.getByRole('switch', { name: /manual unsubscribe is required/ });
    const after = page.getByRole('switch', { name: /confirm after a manual unsubscribe/ });
    await expect(manual.isChecked()).resolves.toBe(true);
    await expect(after.isChecked()).resolves.toBe(true);
    const saved = page.waitForResponse((r) => r.url().endsWith('/update-settings') && r.ok());
    await manual.click();
    await saved;
    await page.reload();
    await page.getByRole('switch', { name: /confirm after a manual unsubscribe/ }).waitFor();
    await expect(
      page.getByRole('switch', { name: /manual unsubscribe is required/ }).isChecked(),
    ).resolves.toBe(false);
    await expect(
      page.getByRole('switch', { name: /confirm after a manual unsubscribe/ }).isChecked(),
    ).resolves.toBe(true);
    await screenshot(page, 'settings-1280');
  });

  it('deletes the account after confirmation', async () => {
    const page = await open();
    const email = newEmail();
    await signUp(page, email, 'delete me please');
    await page.goto(`${product.url}/genie/settings`);
    // Settings says which address the account uses, and that it is not confirmed yet.
    const address = page.locator('.account-address');
    await address.getByText(email, { exact: true }).waitFor();
    await address.getByText(/^Not confirmed yet/).waitFor();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Confirm Account Deletion').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${product.url}/`);
    // The home page says what happened, and stays there (no stale screen of the deleted session sends
    // the visitor to the sign-in page).
    await page.getByRole('status').filter({ hasText: NOTICES.accountDeleted }).waitFor();
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/');
    await signIn(page, email, 'delete me please');
    await page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }).waitFor();
  });

  it('collapses the sidebar behind a hamburger at 375 px and closes it on an outside click', async () => {
    const page = await open(375);
    // No slide-in animation, so the screenshot shows the opened sidebar, not a frame of its transition.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await signUp(page, newEmail(), 'mobile password');
    await page.goto(`${product.url}/genie/settings`);
    const logout = page.getByRole('button', { name: 'Logout' });
    // Before the signed-in shell renders, Logout is not there at all: wait for the shell, then check it hides.
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
    await expect(logout.isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await logout.waitFor({ state: 'visible' });
    await page.getByRole('link', { name: 'Email Accounts' }).waitFor({ state: 'visible' });
    // This product runs without billing: nothing to buy, so no Get Full Access once the status is in
    // (e2e/billing shows it to a free user when plans are sold).
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('link', { name: 'Get Full Access' }).count()).toBe(0);
    await screenshot(page, 'sidebar-open-375');
    await page.mouse.click(360, 700);
    await logout.waitFor({ state: 'hidden' });
    const overflow = await horizontalOverflow(page);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'settings-375');
  });

  it('sends the contact form to support and says so in the dialog', async () => {
    const page = await open();
    await page.goto(product.url);
    await page.getByRole('button', { name: 'Contact Us' }).first().click();
    const dialog = page.getByRole('dialog');
    // Sent empty: every required field says what it needs, under itself, and nothing is sent.
    await dialog.getByRole('button', { name: 'Send Message' }).click();
    for (const [label, message] of [
      ['Name', CONTACT_MESSAGES.name],
      ['Email address', CONTACT_MESSAGES.emailMissing],
      ['Subject', CONTACT_MESSAGES.subject],
      ['Message', CONTACT_MESSAGES.message],
    ] as const) {
      // The form validates asynchronously: the message and aria-invalid come in one render after the click.
      await dialog.getByText(message, { exact: true }).waitFor();
      await expect(dialog.getByLabel(label).getAttribute('aria-invalid')).resolves.toBe('true');
    }
    const subject = `Hello ${newEmail()}`;
    await dialog.getByLabel('Name').fill('Ada Lovelace');
    await dialog.getByLabel('Email address').fill('ada@example.com');
    await dialog.getByLabel('Subject').fill(subject);
    await dialog.getByLabel('Message').fill('Can Inbox Genie read my Fastmail?');
    const browserDialogs: string[] = [];
    page.on('dialog', (d) => {
      browserDialogs.push(d.message());
      void d.dismiss();
    });
    await dialog.getByRole('button', { name: 'Send Message' }).click();
    // The success shows in the dialog itself (no browser alert), and Close takes the focus.
    await dialog.getByRole('status').filter({ hasText: 'Email sent successfully!' }).waitFor();
    await expect(dialog.getByRole('button', { name: 'Send Message' }).count()).resolves.toBe(0);
    await screenshot(page, 'contact-sent-1280');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    expect(browserDialogs).toEqual([]);
    const mail = (await readOutbox(product.dataDir)).find((m) => m.subject === `[Contact] ${subject}`);
    expect(mail?.text).toContain('Can Inbox Genie read my Fastmail?');
  });

  it('routes the provider picker: Yahoo to create-account, Gmail shown as unavailable without keys', async () => {
    const page = await open();
    await page.goto(`${product.url}/signup`);
    await page.getByRole('heading', { name: 'Sign Up' }).waitFor();
    const select = page.getByLabel('Email provider');
    await select.selectOption('Gmail');
    await page.getByRole('status').filter({ hasText: 'Gmail: Not available on this server yet.' }).waitFor();
    await expect(page.getByRole('button', { name: 'Sign in with Gmail' }).count()).resolves.toBe(0);
    await select.selectOption('Yahoo');
    await page.getByRole('button', { name: 'Sign in with Yahoo' }).click();
    await page.waitForURL('**/create-account');
    await page.goto(`${product.url}/signin`);
    await page.getByLabel('Email provider').selectOption('iCloud');
    await page.getByRole('button', { name: 'Sign in with iCloud' }).click();
    await page.waitForURL('**/signin/password');

    // A failed Google or Microsoft sign-in comes back with a reason code, shown as the product's own text.
    await page.goto(`${product.url}/signin?error=oauth&reason=denied&provider=google`);
    await page
      .getByRole('alert')
      .filter({ hasText: 'You did not allow Inbox Genie to read this mailbox' })
      .waitFor();
    // Text in the address is never shown.
    await page.goto(
      `${product.url}/signin?error=oauth&message=${encodeURIComponent('Your account is locked.')}`,
    );
    await page
      .getByRole('alert')
      .filter({ hasText: 'Signing in with your provider did not complete.' })
      .waitFor();
    await expect(page.getByText('Your account is locked.').count()).resolves.toBe(0);
  });

  it('fills the IMAP server from the address on the add-mailbox form, never over what was typed', async () => {
    const page = await open();
    await signUp(page, newEmail(), 'long enough password');
    await page.goto(`${product.url}/add-mailbox?provider=imap`);
    await page.getByLabel('Email').fill('joe@mail-e2e.example.test');
    await page.getByLabel('App-Specific Password').focus();
    const host = page.getByLabel('IMAP Server');
    await expect.poll(() => host.inputValue()).toBe('imap.mail-e2e.example.test');
    await expect(page.getByLabel('Port').inputValue()).resolves.toBe('993');
    await expect(page.getByLabel('Use TLS (SSL)').isChecked()).resolves.toBe(true);
    await page.getByText('Found in the DNS records of mail-e2e.example.test.').waitFor();
    await screenshot(page, 'add-mailbox-suggested-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(horizontalOverflow(page)).resolves.toBe(0);
    await screenshot(page, 'add-mailbox-suggested-375');

    // A host typed before the address stays as typed, once the lookup has answered.
    await page.goto(`${product.url}/add-mailbox?provider=imap`);
    await page.getByLabel('IMAP Server').fill('imap.my-own.example');
    await page.getByLabel('Email').fill('ann@mail-e2e.example.test');
    const answered = page.waitForResponse((r) => r.url().includes('/mailbox-settings'));
    await page.getByLabel('App-Specific Password').focus();
    await expect((await answered).json()).resolves.toMatchObject({ source: 'srv' });
    // The form takes the answer in the same turn; a moment more lets a wrong overwrite show.
    await page.waitForTimeout(300);
    await expect(host.inputValue()).resolves.toBe('imap.my-own.example');
    await expect(page.getByText('Found in the DNS records').count()).resolves.toBe(0);

    // A form that opens with the address (a reconnect's link) asks at once, without a blur.
    await page.goto(
      `${product.url}/add-mailbox?provider=imap&email=${encodeURIComponent('ann@mail-e2e.example.test')}`,
    );
    await expect.poll(() => host.inputValue()).toBe('imap.mail-e2e.example.test');
    expect(mailDns.questions).toContain('SRV _imaps._tcp.mail-e2e.example.test');
  });

  it('shows the not-found screen for an unknown path', async () => {
    const page = await open();
    await page.goto(`${product.url}/no-such-page`);
    await page
      .getByText(/not found/i)
      .first()
      .waitFor();
  });
});
