import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dovecot, dovecotAvailable, startDovecot } from '#test/helpers/dovecot.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { type StripeFake, startStripeFake } from '#test/helpers/stripe-fake/index.js';
import {
  addYahooMailbox,
  horizontalOverflow,
  productForThisFile,
  screenshot,
  signUpWithPassword,
  submitCreateAccount,
  uniqueEmail,
} from './harness.js';

// Billing in the browser against the local Stripe fake: /pricing with the fake's prices, Checkout's
// hosted page and back to Billing as Premium, the portal's cancel at period end and cancel now, and a
// signed-out visitor sent through sign-up and back to /pricing; and the free trial with a Yahoo mailbox on a
// local Dovecot: the free unsubscribes left above the list, a bulk confirmation saying how many will run,
// a used-up trial's 402 explained in a dialog with the plans (not a jump to /pricing), and the landing
// page's trial words only where billing is on.

let fake: StripeFake;
let dovecot: Dovecot | undefined;

beforeAll(async () => {
  // The fake starts without a webhook URL: the product's port is known only once it runs.
  fake = await startStripeFake({
    prices: {
      monthly: { unit_amount: 999, nickname: 'Premium Monthly' },
      yearly: { unit_amount: 9999, nickname: 'Premium Yearly' },
    },
  });
  if (dovecotAvailable()) dovecot = await startDovecot();
});
afterAll(async () => {
  await fake?.close();
  await dovecot?.stop();
});
const { product, open: openTracked } = productForThisFile(() => ({
  ...(dovecot ? { MAIL_PROVIDER_OVERRIDES: dovecot.yahooOverrides() } : {}),
  ...fake.env(),
}));
beforeAll(() => {
  fake.setWebhookUrl(`${product.url}/stripe/webhook`);
});
/** A page on the product that may also load the fake's hosted Checkout and portal pages. */
async function open(width = 1280): Promise<Page> {
  const o = await openTracked(width);
  // The harness aborts every other origin; the last route registered is asked first, so the fake's
  // origin (loopback, like the product) is let through.
  await o.context.route(`${fake.origin}/**`, (route) => route.continue());
  return o.page;
}

const newEmail = () => uniqueEmail('billing');

/** The period end the fake holds for the user's latest subscription, as the Billing screen words it. */
function periodEndOf(email: string): string {
  const created = fake
    .events()
    .filter((e) => e.type === 'customer.created')
    .map((e) => (e.data as { object: { id: string; email: string } }).object)
    .find((c) => c.email === email);
  expect(created, `Stripe customer of ${email}`).toBeDefined();
  const subs = fake.subscriptionsOf(created!.id);
  const item = (subs.at(-1)!.items as { data: { current_period_end: number }[] }).data[0]!;
  // Chromium runs in this machine's time zone, as this process does: both name the same day.
  return new Date(item.current_period_end * 1000).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
}

/** Screenshots of the page at 1280 and 375 px (no sideways overflow at 375), then back to 1280. */
async function shootBothWidths(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(horizontalOverflow(page)).resolves.toBeLessThanOrEqual(0);
  await screenshot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

const planHeading = (page: Page) => page.locator('.billing-plan').getByRole('heading', { level: 2 });

describe('billing in the browser', () => {
  it('buys Premium Monthly through Checkout, cancels at period end, then at once', async () => {
    const page = await open();
    // Alerts appear without their fade, so the screenshots show them, not a frame of the transition.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const email = await signUpWithPassword(page, product, newEmail());

    // A free user: the sidebar offers the plans.
    await page.goto(`${product.url}/genie/billing`);
    await expect(planHeading(page).textContent()).resolves.toBe('Free trial');
    const upgrade = page.getByRole('link', { name: 'Get Full Access' });
    await upgrade.click();
    await page.waitForURL('**/pricing');
    // The prices below are on the Billing screen being left too: wait for /pricing's own heading first.
    await page.getByRole('heading', { level: 1, name: 'Plans for a quieter inbox' }).waitFor();
    const cards = page.locator('.plan-cards > li');
    await page.getByText('$9.99 / month').waitFor();
    await page.getByText('$99.99 / year').waitFor();
    await expect(cards.count()).resolves.toBe(3);
    await expect(cards.getByRole('heading', { level: 2 }).allTextContents()).resolves.toEqual([
      'Free trial',
      'Premium Monthly',
      'Premium Yearly',
    ]);
    await expect(cards.nth(0).textContent()).resolves.toContain('$0');
    await expect(cards.nth(2).getByText('Save 17%').isVisible()).resolves.toBe(true);
    // GA is off on this server: no consent banner over the cards.
    await expect(page.getByRole('button', { name: /accept/i }).count()).resolves.toBe(0);
    await shootBothWidths(page, 'pricing');

    // Checkout: the fake's hosted page, Pay, back on Billing as Premium at once (the return syncs).
    await cards.nth(1).getByRole('button', { name: 'Choose Monthly' }).click();
    await page.waitForURL(`${fake.origin}/c/pay/**`);
    await expect(page.getByTestId('plan').textContent()).resolves.toBe('Premium Monthly — $9.99 per month');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Welcome to Premium! Add more mailboxes and unsubscribe without limits.' })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/genie/billing');
    await expect(planHeading(page).textContent()).resolves.toBe('Premium (Monthly)');
    const periodEnd = periodEndOf(email);
    await page.getByText(`Renews on ${periodEnd}`, { exact: true }).waitFor();
    await upgrade.waitFor({ state: 'detached' });
    // The ?checkout=success is taken off the address, so a reload does not greet again.
    await page.waitForURL(`${product.url}/genie/billing`);
    await shootBothWidths(page, 'billing-premium');

    // Portal: cancel at period end; still Premium until then.
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL(`${fake.origin}/p/session/**`);
    await page.getByRole('button', { name: 'Cancel at period end' }).click();
    await page.getByText(/Cancels on/).waitFor();
    await page.getByRole('button', { name: 'Return' }).click();
    await page.getByText(`Ends on ${periodEnd}`, { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/genie/billing');
    await expect(planHeading(page).textContent()).resolves.toBe('Premium (Monthly)');
    await expect(upgrade.count()).resolves.toBe(0);
    await screenshot(page, 'billing-ends-1280');

    // Portal again: cancel now; back on the free trial.
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL(`${fake.origin}/p/session/**`);
    await page.getByRole('button', { name: 'Cancel now' }).click();
    await page.getByText(/Canceled on/).waitFor();
    await page.getByRole('button', { name: 'Return' }).click();
    await page.getByRole('heading', { name: 'Upgrade to Premium' }).waitFor();
    await expect(planHeading(page).textContent()).resolves.toBe('Free trial');
    await page.getByText('0 of 10 free unsubscribes used', { exact: true }).waitFor();
    await page.getByText('0 of 1 mailbox', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Choose Monthly' }).waitFor();
    await page.getByRole('button', { name: 'Choose Yearly' }).waitFor();
    await upgrade.waitFor();
    await shootBothWidths(page, 'billing-free-after-cancel');

    // Every event the fake sent was taken by the webhook.
    await fake.settled();
    const answers = fake.deliveries().map((d) => d.status);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((s) => s === 200)).toBe(true);
  });

  it('sends a signed-out visitor from a paid plan to sign-up and back to /pricing', async () => {
    const page = await open();
    await page.goto(`${product.url}/pricing`);
    await page.getByText('$9.99 / month').waitFor();
    await page.getByRole('button', { name: 'Choose Yearly' }).click();
    await page.waitForURL('**/signup?next=%2Fpricing');
    await page.getByLabel('Email provider').selectOption('AOL');
    await page.getByRole('button', { name: 'Sign in with AOL' }).click();
    await page.waitForURL('**/create-account');
    await submitCreateAccount(page, newEmail());
    await page.waitForURL(`${product.url}/pricing`);
    // Signed in now: the paid plan's button starts Checkout.
    await page.getByRole('button', { name: 'Choose Yearly' }).click();
    await page.waitForURL(`${fake.origin}/c/pay/**`);
    await expect(page.getByTestId('plan').textContent()).resolves.toBe('Premium Yearly — $99.99 per year');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(`${product.url}/pricing`);
    await page.getByRole('button', { name: 'Choose Yearly' }).waitFor();
  });
});

describe('the free trial in the browser', () => {
  /** Sets what the user used of the trial where the server keeps it (SQLite waits for the product's writes). */
  function setTrialUsed(email: string, used: number) {
    const db = new SQLite(path.join(product.dataDir, 'inbox-genie.sqlite'), { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      const updated = db
        .prepare('UPDATE users SET trial_unsubscribes_used = ? WHERE email = ?')
        .run(used, email);
      expect(updated.changes).toBe(1);
    } finally {
      db.close();
    }
  }

  const SENDERS = ['paper', 'daily', 'weekly', 'deals', 'club'];

  it.skipIf(!dovecotAvailable())(
    'says how many free unsubscribes are left, how many of a bulk will run, and explains a 402 in the app',
    async () => {
      const mailbox = `trial-${Date.now()}@yahoo.com`;
      await dovecot!.addUser({ user: mailbox, password: 'app password 1' });
      for (const [i, name] of SENDERS.entries()) {
        await dovecot!.deliver(
          mailbox,
          'INBOX',
          rawMessage({
            from: `${name[0]!.toUpperCase()}${name.slice(1)} <${name}@manual.example>`,
            subject: `Issue ${i}`,
            date: daysAgo(i + 1),
            listUnsubscribe: `<${product.url}/sender-unsubscribe-page>`,
          }),
        );
      }
      const page = await open();
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const email = await signUpWithPassword(page, product, newEmail());
      await addYahooMailbox(page, product, mailbox, 'app password 1');
      const row = (name: string) => page.getByRole('row').filter({ hasText: `${name}@manual.example` });
      for (const name of SENDERS) await row(name).waitFor();

      // Ten unsubscribes through the screens would take ten senders; the counter is set instead.
      setTrialUsed(email, 7);
      await page.reload();
      await page.getByText('3 free unsubscribes left in your free trial.').waitFor();

      // A bulk Unsubscribe of 5 says that only 3 will run.
      for (const name of SENDERS) await row(name).getByRole('checkbox').check();
      await page.locator('.bulk-bar').getByRole('button', { name: 'Unsubscribe' }).click();
      const ask = page.getByRole('dialog').filter({ hasText: 'Unsubscribe from 5 senders?' });
      await ask.getByText('3 of the 5 will run: 3 free unsubscribes left. The rest need a plan.').waitFor();
      await shootBothWidths(page, 'trial-bulk-confirm');
      await ask.getByRole('button', { name: 'Cancel' }).click();
      await ask.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Clear selection' }).click();

      // Used up: a single Unsubscribe stays in the app, with the server's reason and the plans.
      setTrialUsed(email, 10);
      await page.reload();
      await page.getByText('No free unsubscribes left in your free trial.').waitFor();
      const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/unsubscribe');
      await page.getByRole('button', { name: 'Unsubscribe paper@manual.example' }).click();
      expect((await refused).status()).toBe(402);
      const limit = page.getByRole('dialog', { name: 'Your free unsubscribes are used up' });
      await limit.getByText(/Your free trial includes 10 unsubscribes and they are used up/).waitFor();
      await limit.getByText('$9.99 / month').waitFor();
      expect(new URL(page.url()).pathname).toBe('/genie/subscriptions');
      await shootBothWidths(page, 'trial-limit-dialog');
      // Not now: back on the list, nothing unsubscribed.
      await limit.getByRole('button', { name: 'Not now' }).click();
      await limit.waitFor({ state: 'detached' });
      await row('paper').waitFor();
      // Again, and a plan: Checkout (the existing payment-link call), the list as where to come back.
      await page.getByRole('button', { name: 'Unsubscribe paper@manual.example' }).click();
      await limit.getByRole('button', { name: 'Choose Monthly' }).click();
      await page.waitForURL(`${fake.origin}/c/pay/**`);
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForURL(`${product.url}/genie/subscriptions`);
      await page.goto(`${product.url}/genie/billing`);
      await page.getByText('10 of 10 free unsubscribes used', { exact: true }).waitFor();
    },
  );

  it('speaks of the free trial on the landing page only where billing is on', async () => {
    const page = await open();
    await page.goto(product.url);
    // Billing is on in this product.
    await page.getByText('Start with the free trial: one mailbox and 10 free unsubscribes.').waitFor();
    await page.getByText('The free trial costs nothing.').waitFor();
    await screenshot(page, 'landing-billing-on-1280');

    // The same page where plans are not sold (the public config says so): no trial to speak of.
    const off = await open(375);
    await off.route('**/get-public-config', async (route) => {
      const answer = await route.fetch();
      await route.fulfill({ response: answer, json: { ...(await answer.json()), billing: false } });
    });
    await off.goto(product.url);
    await off.getByRole('link', { name: 'See how it works' }).waitFor();
    await off.getByText('Connect a mailbox in a minute and see every subscription you have.').waitFor();
    await expect(off.getByText(/free trial/i).count()).resolves.toBe(0);
    await screenshot(off, 'landing-billing-off-375');
  });
});
