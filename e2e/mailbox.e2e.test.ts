import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import {
  addYahooMailbox,
  horizontalOverflow,
  screenshot,
  signUpWithPassword,
  uniqueEmail,
  withDovecotProduct,
} from './harness.js';

// A person connects a Yahoo mailbox (Yahoo's hosts overridden to a real Dovecot on loopback),
// watches the subscriptions appear, sees a new one arrive live, and removes the mailbox again.

const YAHOO = 'genie-e2e@yahoo.com';
const APP_PASSWORD = 'abcd efgh ijkl mnop';

const {
  dovecot,
  product,
  newPage: open,
} = withDovecotProduct({
  users: [{ user: YAHOO, password: APP_PASSWORD }],
  env: () => ({ SCAN_INTERVAL: '2s' }),
});
beforeAll(async () => {
  const news = (subject: string, n: number) =>
    rawMessage({
      from: 'Morning Brief <brief@news.example>',
      subject,
      date: daysAgo(n),
      listUnsubscribe: '<https://news.example/unsubscribe?u=1>',
      listUnsubscribePost: 'List-Unsubscribe=One-Click',
    });
  await dovecot.deliver(YAHOO, 'INBOX', news('Tuesday briefing', 2));
  await dovecot.deliver(YAHOO, 'INBOX', news('Wednesday briefing', 1));
  await dovecot.deliver(
    YAHOO,
    'INBOX',
    rawMessage({ from: 'Mum <mum@family.example>', subject: 'Sunday?', date: daysAgo(1) }),
  );
  await dovecot.deliver(
    YAHOO,
    'Newsletters',
    rawMessage({
      from: 'Club <club@runners.example>',
      subject: 'Race day',
      date: daysAgo(3),
      listId: '<club.runners.example>',
    }),
  );
});

const row = (page: Page, address: string) => page.getByRole('row').filter({ hasText: address });

describe('connecting a mailbox in the browser', () => {
  it('adds a Yahoo mailbox, lists its subscriptions live, and removes it', async () => {
    const page = await open();
    await signUpWithPassword(page, product, uniqueEmail('owner'));

    await page.getByLabel('Email provider').selectOption('Yahoo');
    await page.getByRole('button', { name: 'Sign in with Yahoo' }).click();
    await page.waitForURL('**/add-mailbox?provider=yahoo');
    await page.getByRole('heading', { name: 'Add Yahoo Account' }).waitFor();

    // The Yahoo rule and a wrong password, as the user would meet them.
    await page.getByLabel('Email').fill('someone@gmail.com');
    await page.getByLabel('App-Specific Password').fill('x');
    await page.getByRole('button', { name: 'Add Account' }).click();
    await page.getByText('Please enter your Yahoo email address.').waitFor();
    await page.getByLabel('Email').fill(YAHOO);
    await page.getByLabel('App-Specific Password').fill('wrong password');
    await page.getByRole('button', { name: 'Add Account' }).click();
    await page.getByRole('alert').filter({ hasText: 'refused the email address or app password' }).waitFor();

    await page.getByLabel('App-Specific Password').fill(APP_PASSWORD);
    await page.getByRole('button', { name: 'Add Account' }).click();
    await page.waitForURL('**/genie/subscriptions');

    await row(page, 'brief@news.example').getByText('2 Messages').waitFor();
    await row(page, 'club@runners.example').getByText('1 Message', { exact: true }).waitFor();
    await expect(row(page, 'mum@family.example').count()).resolves.toBe(0);
    await page.getByText('Subscriptions Left to Review').waitFor();
    await screenshot(page, 'subscriptions-1280');

    // The expand caret lists the sender's messages, newest first.
    await page.getByRole('button', { name: 'Show messages from brief@news.example' }).click();
    await page.getByText('Wednesday briefing').waitFor();
    await page.getByText('Tuesday briefing').waitFor();

    // New mail from a new sender arrives; the next check pushes it to the open screen.
    await dovecot.deliver(
      YAHOO,
      'INBOX',
      rawMessage({
        from: 'Deals Daily <deals@shop.example>',
        subject: 'Today only',
        date: daysAgo(0),
        precedence: 'bulk',
      }),
    );
    await row(page, 'deals@shop.example').waitFor({ timeout: 20_000 });

    // Search filters by name or address.
    await page.getByLabel('Search by name or address').fill('SHOP');
    await expect(row(page, 'brief@news.example').count()).resolves.toBe(0);
    await row(page, 'deals@shop.example').waitFor();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await row(page, 'brief@news.example').waitFor();

    // Keep: the row leaves the list to review and appears under Screened Subscriptions, without Keep.
    await page.getByRole('button', { name: 'Keep Subscription club@runners.example' }).click();
    await row(page, 'club@runners.example').waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Screened Subscriptions' }).click();
    await page.waitForURL('**/genie/kept');
    await row(page, 'club@runners.example').getByText('1 Message', { exact: true }).waitFor();
    await expect(page.getByRole('button', { name: /^Keep / }).count()).resolves.toBe(0);
    await page.getByText('1 Subscription Kept').waitFor();
    await screenshot(page, 'kept-1280');

    await page.goto(`${product.url}/genie/accounts`);
    // Exact: the Screener switch's label names the mailbox too, for screen readers.
    await page.getByText(YAHOO, { exact: true }).waitFor();
    await screenshot(page, 'accounts-1280');
    await page.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Confirm Email Account Deletion').waitFor();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByText(YAHOO, { exact: true }).count()).toBe(0);

    await page.goto(`${product.url}/genie/subscriptions`);
    await page.getByText('Subscriptions Left to Review').waitFor();
    // The caption shows while the list still loads: wait for the loaded, empty list before counting rows.
    await page.getByText('Nothing here yet').waitFor();
    await expect(row(page, 'brief@news.example').count()).resolves.toBe(0);
  });

  it('shows the subscription list without overflow at 375 px', async () => {
    const page = await open(375);
    await page.goto(`${product.url}/add-mailbox?provider=imap`);
    await page.waitForURL('**/signin');
    await signUpWithPassword(page, product, uniqueEmail('small'));
    await addYahooMailbox(page, product, YAHOO, APP_PASSWORD);
    await row(page, 'brief@news.example').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'subscriptions-375');
  });
});
