import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { horizontalOverflow, screenshot, withDovecotProduct } from './harness.js';

// A mailbox whose check fails says so above the lists, in the mail server's words, with when it last
// worked and its way out: Check now (which really queues a check) for a server that failed, Reconnect for
// a password the server refused (here for real: the app password is changed at Dovecot, and the next
// scheduled check meets the refusal). Email Accounts shows the same reason on the mailbox's row.

const { dovecot, userWithYahooMailbox } = withDovecotProduct({ env: () => ({ SCAN_INTERVAL: '2s' }) });

const news = rawMessage({
  from: 'Morning Brief <brief@news.example>',
  subject: 'Tuesday briefing',
  date: daysAgo(1),
  listUnsubscribe: '<https://news.example/unsubscribe?u=1>',
});

const row = (page: Page, address: string) => page.getByRole('row').filter({ hasText: address });
const banner = (page: Page, email: string) => page.getByRole('alert').filter({ hasText: email });

describe('a mailbox in trouble', () => {
  it('shows why above the list, with Check now for a failed check and Reconnect for a refused password', async () => {
    const { page, yahoo } = await userWithYahooMailbox('trouble', [news]);
    await row(page, 'brief@news.example').waitFor();

    // The server was down at the last check (the accounts' answer says so): the banner, and Check now.
    const reason = 'Could not reach the mail server at imap.mail.yahoo.com:993.';
    await page.route('**/get-email-accounts', async (route) => {
      const answer = await (await route.fetch()).json();
      for (const a of answer.data) Object.assign(a, { status: 'error', error: reason });
      await route.fulfill({ json: answer });
    });
    await page.reload();
    await banner(page, yahoo).getByText(`${yahoo} could not be checked: ${reason}`).waitFor();
    await banner(page, yahoo)
      .getByText(/^Last good check: /)
      .waitFor();
    await screenshot(page, 'mailbox-error-1280');
    await banner(page, yahoo)
      .getByRole('button', { name: /Check now/ })
      .click();
    await banner(page, yahoo).getByText('Checking again now.').waitFor();
    await page.unroute('**/get-email-accounts');

    // The app password is changed at the server: the next scheduled check is refused.
    await dovecot.addUser({ user: yahoo, password: 'a new app password' });
    // The failed check's end reaches the open page live (the accounts are read again): no reload.
    const refused = banner(page, yahoo);
    await refused.waitFor({ timeout: 30_000 });
    await refused.getByText(`${yahoo} needs you to sign in again`).waitFor();
    const reconnect = refused.getByRole('link', { name: /Reconnect/ });
    expect(await reconnect.getAttribute('href')).toContain('/add-mailbox?provider=yahoo');
    // The list still shows what was found before.
    await row(page, 'brief@news.example').waitFor();

    await page.setViewportSize({ width: 375, height: 812 });
    await refused.waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'mailbox-reauth-375');

    // Email Accounts names the same reason on the mailbox's row.
    await page
      .getByRole('button', { name: /menu/i })
      .click()
      .catch(() => {});
    await page.goto(page.url().replace(/\/genie\/.*/, '/genie/accounts'));
    await page.getByText(`${yahoo} needs you to sign in again`).waitFor();
    await screenshot(page, 'accounts-reauth-375');
  });
});
