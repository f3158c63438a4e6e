import { readFile } from 'node:fs/promises';
import * as OTPAuth from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { SECURITY_MESSAGES } from '#contract/api.js';
import { isResetMail, readOutbox, resetTokenFrom } from '#test/helpers/outbox.js';
import {
  horizontalOverflow,
  productForThisFile,
  screenshot,
  signUpWithPassword,
  uniqueEmail,
} from './harness.js';

// Account security in the browser (docs/decisions/091-second-factors-passkeys-and-sessions.md): confirming
// the address from the mailed link, a passkey added in Settings and used alone to sign in (Chromium's
// virtual authenticator through CDP), two-step sign-in turned on with codes computed from the secret the
// page shows, and the sessions list ending the other browsers. WebAuthn takes a domain as the site's id,
// so this product is reached as localhost. Screenshots of the Security section at 1280 and 375 px.

const { product, open } = productForThisFile(() => ({}), { hostname: 'localhost' });

const PASSWORD = 'long enough password';

/** Chromium's virtual authenticator on the page: a platform passkey with user verification. */
async function addAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return { cdp, authenticatorId };
}

async function openSettings(page: Page) {
  await page.goto(`${product.url}/genie/settings`);
  await page.getByRole('heading', { name: 'Security' }).waitFor();
}

async function addPasskey(page: Page, name: string) {
  await page.getByLabel('Name (optional)').fill(name);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await passkeyItem(page, name).getByText('Never used').waitFor();
}

const passkeyItem = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem').filter({ hasText: name });

async function logout(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/signin');
}

/** The password step; with two-step sign-in on it leads to /signin/code. */
async function signInWithPassword(page: Page, email: string) {
  await page.goto(`${product.url}/signin/password`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Continue' }).click();
}

const signedIn = (page: Page) => page.waitForURL((url) => !url.pathname.startsWith('/signin'));

/** The path of the confirmation link mailed to `email` at sign-up. */
async function confirmLink(email: string): Promise<string> {
  return vi.waitFor(async () => {
    const mail = (await readOutbox(product.dataDir)).find(
      (m) => m.to === email && /confirm-email/.test(m.text),
    );
    expect(mail, 'confirmation mail in the outbox').toBeDefined();
    return /\/confirm-email\?token=[^\s>\])]+/.exec(mail!.text)![0];
  });
}

describe('account security', () => {
  it('confirms the address from the mailed link: signed in with a button, signed out with the password', async () => {
    const { page } = await open();
    const email = uniqueEmail('confirm');
    await signUpWithPassword(page, product, email, PASSWORD);
    const link = await confirmLink(email);

    await page.goto(`${product.url}${link}`);
    await page.getByRole('heading', { name: 'Confirm your email address' }).waitFor();
    await page.getByText('If you did not create an Inbox Genie account, ignore this page.').waitFor();
    expect(await page.getByLabel('Password').count()).toBe(0);
    await screenshot(page, 'confirm-email-signed-in');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('your email address is confirmed').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/genie\//);

    // Another account's link, opened signed out: the password is asked for first.
    const other = uniqueEmail('confirm-out');
    await page.context().clearCookies();
    await signUpWithPassword(page, product, other, PASSWORD);
    await page.context().clearCookies();
    await page.goto(`${product.url}${await confirmLink(other)}`);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('alert').waitFor();
    await screenshot(page, 'confirm-email-signed-out');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL('**/signin/password?email=verified');
    await page.getByText('Your address is confirmed. Please sign in.').waitFor();
  });

  it('adds a passkey in Settings and signs in with it alone', async () => {
    const { page } = await open();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const { cdp, authenticatorId } = await addAuthenticator(page);
    await signUpWithPassword(page, product, uniqueEmail('passkey'), PASSWORD);
    await openSettings(page);
    await addPasskey(page, 'Test laptop');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials.map((c) => c.isResidentCredential)).toEqual([true]);

    await logout(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await screenshot(page, 'signin-passkey');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await signedIn(page);
    await openSettings(page);
    await passkeyItem(page, 'Test laptop')
      .getByText(/Last used \w{3} \d{1,2}, \d{4}/)
      .waitFor();

    // Removed, it is gone from the list (and the dialog asked first).
    await page.getByRole('button', { name: 'Remove passkey Test laptop' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No passkeys yet.').waitFor();

    // Without WebAuthn in the browser, there is no passkey button to press.
    await logout(page);
    await page.addInitScript('delete window.PublicKeyCredential');
    await page.goto(`${product.url}/signin`);
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(0);
  });

  it('turns two-step sign-in on with the app, then asks for its code or a recovery code at sign-in', async () => {
    const { page, context } = await open();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const email = uniqueEmail('totp');
    await signUpWithPassword(page, product, email, PASSWORD);
    await openSettings(page);
    const { totp, recovery } = await turnOnTotp(page, context);

    await logout(page);
    await signInWithPassword(page, email);
    await page.waitForURL('**/signin/code');
    await expect(page.getByLabel('Code', { exact: true }).getAttribute('autocomplete')).resolves.toBe(
      'one-time-code',
    );
    await screenshot(page, 'signin-code');
    // The step after the one that turned it on: a code is good once.
    await enterCode(page, totp.generate({ timestamp: Date.now() + 30_000 }));
    await signedIn(page);

    // Another browser, 375 px wide, with a recovery code; once only.
    for (const attempt of ['first', 'again'] as const) {
      const other = await open(375);
      await signInWithPassword(other.page, email);
      await other.page.waitForURL('**/signin/code');
      if (attempt === 'first') await screenshot(other.page, 'signin-code-375');
      await other.page.getByRole('button', { name: 'Use a recovery code' }).click();
      await expect(other.page.getByLabel('Code', { exact: true }).getAttribute('inputmode')).resolves.toBe(
        'text',
      );
      await enterCode(other.page, recovery[0]!.toUpperCase());
      if (attempt === 'first') await signedIn(other.page);
      else await other.page.getByRole('alert').filter({ hasText: SECURITY_MESSAGES.wrongCode }).waitFor();
    }

    await openSettings(page);
    await page.getByText('9 recovery codes left.').waitFor();

    // A password reset asks for the second step too, and signs every browser out.
    await resetPasswordWithCode((await open(375)).page, email, recovery[2]!);
    await signInWithPassword(page, email);
    await page.waitForURL('**/signin/code');
    await enterCode(page, recovery[3]!);
    await signedIn(page);
    await openSettings(page);
    await page.getByText('7 recovery codes left.').waitFor();

    // Off again, with a recovery code (the app's next code was spent on the sign-in).
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByLabel('Code', { exact: true }).fill(recovery[1]!);
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('button', { name: 'Set up' }).waitFor();
  });

  it('lists the sessions with their browsers and signs every other one out (1280 and 375 px)', async () => {
    const a = await open();
    await a.page.emulateMedia({ reducedMotion: 'reduce' });
    await addAuthenticator(a.page);
    const email = uniqueEmail('sessions');
    await signUpWithPassword(a.page, product, email, PASSWORD);
    await openSettings(a.page);
    await addPasskey(a.page, 'Work laptop');

    const b = await open(375);
    await signInWithPassword(b.page, email);
    await signedIn(b.page);

    await openSettings(a.page);
    const sessions = a.page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    await expect.poll(() => sessions.count()).toBe(2);
    await sessions.filter({ hasText: 'This browser' }).getByText('Chrome on Linux').waitFor();
    expect(await sessions.filter({ hasText: 'This browser' }).count()).toBe(1);
    await screenshot(a.page, 'security-1280');

    await openSettings(b.page);
    // The setup of two-step sign-in, narrow: the QR code above the key, nothing wider than the screen.
    await b.page.getByRole('button', { name: 'Set up' }).click();
    await b.page.getByRole('img', { name: /QR code/ }).waitFor();
    expect(await horizontalOverflow(b.page)).toBe(0);
    await screenshot(b.page, 'security-totp-setup-375');
    await b.page.getByRole('button', { name: 'Cancel' }).click();
    await b.page.getByRole('heading', { name: 'Where you are signed in' }).scrollIntoViewIfNeeded();
    await expect
      .poll(() => b.page.getByRole('list', { name: 'Sessions' }).getByRole('listitem').count())
      .toBe(2);
    expect(await horizontalOverflow(b.page)).toBe(0);
    await screenshot(b.page, 'security-375');

    // By keyboard: the button is reached and pressed without the mouse.
    await a.page.getByRole('button', { name: 'Sign out everywhere else' }).focus();
    await a.page.keyboard.press('Enter');
    await a.page.getByText('Every other session is signed out.').waitFor();
    await expect.poll(() => sessions.count()).toBe(1);
    await expect
      .poll(() => a.page.evaluate<string | undefined>('document.activeElement?.textContent'))
      .toBe('Where you are signed in');

    await b.page.goto(`${product.url}/genie/settings`);
    await b.page.waitForURL('**/signin');
  });
});

/** Resets the password through the mailed link; the account's second step is asked for on the way. */
async function resetPasswordWithCode(page: Page, email: string, code: string) {
  await page.goto(`${product.url}/reset-password`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.waitForURL('**/reset-password/sent');
  const mail = await vi.waitFor(async () => {
    const found = (await readOutbox(product.dataDir)).find((m) => m.to === email && isResetMail(m));
    expect(found, 'reset mail in the outbox').toBeDefined();
    return found!;
  });
  await page.goto(`${product.url}/reset-password/confirm?token=${encodeURIComponent(resetTokenFrom(mail))}`);
  await page.getByLabel('New Password').fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await page.getByRole('alert').filter({ hasText: 'Your account has two-step sign-in' }).waitFor();
  // The code field took the keyboard's focus.
  await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.id')).toBe('reset-code');
  await screenshot(page, 'reset-password-code-375');
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await page.waitForURL('**/signin/password');
}

/**
 * Turns two-step sign-in on from Settings by keyboard: the secret read from the page, a wrong code
 * refused, the app's code accepted; the recovery codes copied and downloaded. Answers the app and the codes.
 */
async function turnOnTotp(page: Page, context: BrowserContext) {
  await page.getByRole('button', { name: 'Set up' }).focus();
  await page.keyboard.press('Enter');
  const key = page.getByLabel(/setup key/i);
  await key.waitFor();
  // The keyboard's focus moved to the panel's heading.
  await expect
    .poll(() => page.evaluate<string | undefined>('document.activeElement?.textContent'))
    .toBe('Set up two-step sign-in');
  await page.getByRole('img', { name: /QR code/ }).waitFor();
  const secret = (await key.inputValue()).replace(/\s/g, '');
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
  await screenshot(page, 'security-totp-setup-1280');

  const field = page.getByLabel('Code', { exact: true });
  await field.fill(totp.generate({ timestamp: Date.now() - 3_600_000 }));
  await field.press('Enter');
  await page.getByRole('alert').waitFor();
  await field.fill(totp.generate());
  await field.press('Enter');

  const items = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect.poll(() => items.count()).toBe(10);
  const recovery = await items.allInnerTexts();
  await screenshot(page, 'security-recovery-codes-1280');

  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.url });
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByText('Copied.').waitFor();
  expect((await page.evaluate<string>('navigator.clipboard.readText()')).split('\n')).toEqual(recovery);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('inbox-genie-recovery-codes.txt');
  const saved = await readFile((await download.path())!, 'utf8');
  for (const code of recovery) expect(saved).toContain(code);

  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.getByText('10 recovery codes left.').waitFor();
  return { totp, recovery };
}
