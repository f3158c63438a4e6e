import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/index.js';
import { withHttpsSender } from '#test/fixtures/peers.js';
import { setupCertificates } from '#test/helpers/global-setup.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { seedSenders } from '#test/helpers/seed.js';
import {
  horizontalOverflow,
  type OpenPageOptions,
  screenshot,
  screenshotViewport,
  withDovecotProduct,
  YAHOO_APP_PASSWORD,
} from './harness.js';

// The subscription screen in Chromium: the note after each action and its Undo (a keep, a block), the
// words of a slow sender, failures shown as failures (the list, the mailboxes, the settings, a mailbox
// that needs signing in again, one rate-limit note per click, a failed unsubscribe's reason and its Retry),
// the keyboard (skip link, Space on a row, Shift+click, Escape in the preview), many senders at once
// (progress, summary, the pages to open), and 5,000 senders scrolling. Senders' one-click endpoints are a local HTTPS server; the mailbox is a Yahoo
// one on a real Dovecot.

let removeCertificates: () => void;
beforeAll(() => {
  // The test CA the local HTTPS sender's certificate comes from; the product trusts it like the
  // integration tests' app does (NODE_EXTRA_CA_CERTS).
  removeCertificates = setupCertificates();
});
afterAll(() => {
  removeCertificates?.();
});
const sender = withHttpsSender();
const { dovecot, product, userWithYahooMailbox } = withDovecotProduct({
  smtpDown: true,
  env: () => ({
    NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? '',
    UNSUBSCRIBE_ALLOWED_HOSTS: '127.0.0.1',
  }),
});

const row = (page: Page, address: string) => page.getByRole('row').filter({ hasText: address });
const note = (page: Page, text: string | RegExp) =>
  page.locator('.toast-region .app-toast').filter({ hasText: text });
const trashCount = (user: string) => dovecot.count({ user, password: YAHOO_APP_PASSWORD }, 'Trash');
const hits = (path: string) => sender.requests.filter((r) => r.path === path).length;

/** A one-click newsletter whose endpoint is `path` on the local HTTPS sender. */
function oneClick(name: string, address: string, path: string, days = 1): string {
  return rawMessage({
    from: `${name} <${address}>`,
    subject: `${name} news`,
    date: daysAgo(days),
    listUnsubscribe: `<${sender.origin}${path}>`,
    listUnsubscribePost: 'List-Unsubscribe=One-Click',
  });
}

/** A newsletter whose only way out is its web page (on the product's origin: the browser reaches nothing else). */
function manualOnly(name: string, address: string, days = 2): string {
  return rawMessage({
    from: `${name} <${address}>`,
    subject: `${name} issue`,
    date: daysAgo(days),
    listUnsubscribe: `<${product.url}/sender-unsubscribe-page?${encodeURIComponent(address)}>`,
  });
}

/** A list without any unsubscribe link: Unsubscribe blocks it. */
function linkless(name: string, address: string, days = 3): string {
  return rawMessage({
    from: `${name} <${address}>`,
    subject: 'Meetup',
    date: daysAgo(days),
    listId: `<${address}>`,
  });
}

/** A new account whose new Yahoo mailbox (on Dovecot) holds `messages`; the list shows `first`. */
async function userWithMailbox(
  messages: string[],
  first: string,
  width = 1280,
  options: OpenPageOptions = {},
): Promise<{ page: Page; yahoo: string }> {
  const { page, yahoo } = await userWithYahooMailbox('screen', messages, {
    width,
    owner: 'screen',
    page: options,
  });
  await row(page, first).waitFor({ timeout: 20_000 });
  return { page, yahoo };
}

describe('what an action did', () => {
  it('says it in one live region, and undoes a keep and a block', async () => {
    sender.respond('/alpha', { status: 200 });
    sender.respond('/slow', { status: 200, delayMs: 4000 });
    const { page, yahoo } = await userWithMailbox(
      [
        oneClick('Shop Alpha', 'news@alpha.example', '/alpha'),
        oneClick('Slow Shop', 'deals@slow.example', '/slow', 4),
        linkless('Club', 'club@nolink.example'),
        rawMessage({
          from: 'Runners <club@runners.example>',
          subject: 'Run',
          date: daysAgo(5),
          listId: '<runners>',
        }),
      ],
      'club@runners.example',
    );
    const region = page.getByRole('status').filter({ has: page.locator('.app-toast') });

    // Keep, then Undo: back on the list to review.
    await page.getByRole('button', { name: 'Keep Subscription club@runners.example' }).click();
    await note(page, 'Kept Runners').waitFor();
    await expect(region.count()).resolves.toBe(1);
    await row(page, 'club@runners.example').waitFor({ state: 'detached' });
    await note(page, 'Kept Runners').getByRole('button', { name: 'Undo' }).click();
    await note(page, 'Moved Runners back to review').waitFor();
    await row(page, 'club@runners.example').waitFor();

    // One-click: said so, the sender was asked once.
    await page.getByRole('button', { name: 'Unsubscribe news@alpha.example' }).click();
    await note(page, 'Unsubscribed from Shop Alpha by one-click').waitFor();
    expect(hits('/alpha')).toBe(1);

    // A sender that takes long: the row says what it waits for, in words.
    await page.getByRole('button', { name: 'Unsubscribe deals@slow.example' }).click();
    await row(page, 'deals@slow.example')
      .getByText('Contacting slow.example… this can take up to 30 seconds')
      .waitFor();
    await note(page, 'Unsubscribed from Slow Shop by one-click').waitFor({ timeout: 15_000 });

    // No link: blocked, and with "Also move existing mail to Trash" ticked its mail in the Trash (unticked,
    // the block would take new mail only); Undo lifts the block and brings the mail back.
    await page.getByLabel('Also move existing mail to Trash').check();
    await page.getByRole('button', { name: 'Unsubscribe club@nolink.example' }).click();
    const blocked = note(page, 'Blocked Club and moved 1 message to Trash');
    await blocked.waitFor();
    await expect.poll(() => trashCount(yahoo)).toBe(1);
    await screenshot(page, 'screen-note-1280');
    await blocked.getByRole('button', { name: 'Undo' }).click();
    await note(page, 'Unblocked Club, moved 1 message back').waitFor();
    await expect.poll(() => trashCount(yahoo)).toBe(0);

    // A note can be dismissed, and goes by itself after a few seconds.
    const last = note(page, 'Unblocked Club');
    await last.getByRole('button', { name: 'Dismiss' }).click();
    await last.waitFor({ state: 'detached' });
    await note(page, 'Moved Runners back to review').waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('offers to put back the mail of a blocked sender that is kept again', async () => {
    const { page, yahoo } = await userWithMailbox(
      [linkless('Club', 'club@again.example')],
      'club@again.example',
    );
    await page.getByLabel('Also move existing mail to Trash').check();
    await page.getByRole('button', { name: 'Unsubscribe club@again.example' }).click();
    await note(page, 'Blocked Club and moved 1 message to Trash').waitFor();
    await expect.poll(() => trashCount(yahoo)).toBe(1);

    await page.getByRole('link', { name: 'Unsubscribed' }).click();
    await page.getByRole('button', { name: 'Keep Subscription club@again.example' }).click();
    const kept = note(page, 'Kept Club and lifted its block');
    await kept.getByRole('button', { name: 'Put its mail back' }).click();
    await note(page, 'Moved 1 message of Club back from Trash').waitFor();
    await expect.poll(() => trashCount(yahoo)).toBe(0);
  });

  it('keeps the note clear of the row actions on a phone', async () => {
    const { page } = await userWithMailbox(
      [
        rawMessage({ from: 'A <a@one.example>', subject: 'x', date: daysAgo(1), listId: '<one>' }),
        rawMessage({ from: 'B <b@two.example>', subject: 'x', date: daysAgo(2), listId: '<two>' }),
        rawMessage({ from: 'C <c@three.example>', subject: 'x', date: daysAgo(3), listId: '<three>' }),
      ],
      'c@three.example',
      375,
    );
    await page.getByRole('button', { name: 'Keep Subscription b@two.example' }).click();
    const kept = note(page, 'Kept B');
    await kept.waitFor();
    // The kept row leaves the list around the note's arrival: measure the rows once it has gone (a row
    // leaving between `all()` and `boundingBox()` would leave a locator pointing at nothing).
    await row(page, 'b@two.example').waitFor({ state: 'detached' });
    const box = await kept.boundingBox();
    expect(box).not.toBeNull();
    for (const button of await page.locator('.subscription-actions button').all()) {
      const b = await button.boundingBox();
      if (!b || !box) continue;
      const overlaps =
        b.x < box.x + box.width &&
        box.x < b.x + b.width &&
        b.y < box.y + box.height &&
        box.y < b.y + b.height;
      expect(overlaps, `the note covers ${await button.textContent()}`).toBe(false);
    }
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'screen-note-375');
  });
});

describe('failures', () => {
  it('shows a failed fetch as a failure with Retry, never as an empty list', async () => {
    const { page } = await userWithMailbox(
      [rawMessage({ from: 'News <news@fail.example>', subject: 'x', date: daysAgo(1), listId: '<fail>' })],
      'news@fail.example',
      1280,
      { expectServerErrors: [500] },
    );
    const fail = (pattern: string) =>
      page.route(pattern, (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal error"}' }),
      );

    await fail('**/get-unsubscribe-emails**');
    await page.reload();
    await page.getByText('Failed to fetch subscriptions...').waitFor();
    await expect(page.getByText('No subscriptions here').count()).resolves.toBe(0);
    await screenshot(page, 'screen-list-failed-1280');
    await page.unroute('**/get-unsubscribe-emails**');
    await page.getByRole('button', { name: 'Retry' }).click();
    await row(page, 'news@fail.example').waitFor();

    await fail('**/get-email-accounts');
    await page.goto(`${product.url}/genie/accounts`);
    await page.getByText('Failed to fetch email accounts...').waitFor();
    await expect(page.getByText('Nothing here yet').count()).resolves.toBe(0);
    await page.unroute('**/get-email-accounts');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('Failed to fetch email accounts...').waitFor({ state: 'detached' });

    await fail('**/get-settings');
    await page.goto(`${product.url}/genie/settings`);
    await page.getByText('Failed to fetch settings...').waitFor();
    await expect(page.getByRole('switch').count()).resolves.toBe(0);
    await page.unroute('**/get-settings');
    await page.getByRole('button', { name: 'Retry' }).click();
    const manualSwitch = page.getByRole('switch', { name: /manual unsubscribe is required/ });
    await manualSwitch.waitFor();

    // A failed save puts the switch back and says why above the switches; Retry saves it again.
    await fail('**/update-settings');
    await manualSwitch.click();
    await page.getByRole('alert').filter({ hasText: 'Failed to update settings: Internal error' }).waitFor();
    await expect(manualSwitch.isChecked()).resolves.toBe(true);
    await screenshot(page, 'settings-save-failed-1280');
    await page.unroute('**/update-settings');
    const saved = page.waitForResponse((r) => r.url().endsWith('/update-settings') && r.ok());
    await page.getByRole('button', { name: 'Retry' }).click();
    await saved;
    await expect.poll(() => manualSwitch.isChecked()).toBe(false);
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
  });

  it('asks to sign in again with the reason, on the list, without leaving it', async () => {
    const { page, yahoo } = await userWithMailbox(
      [rawMessage({ from: 'News <news@reauth.example>', subject: 'x', date: daysAgo(1), listId: '<re>' })],
      'news@reauth.example',
    );
    // The mailbox's password stopped working: the list call answers 401 with where to sign in again.
    await page.route('**/get-unsubscribe-emails**', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({
          message: `Please sign in to ${yahoo} again.`,
          redirectUrl: `/add-mailbox?provider=yahoo&email=${encodeURIComponent(yahoo)}`,
        }),
      }),
    );
    await page.getByRole('link', { name: 'Screened Subscriptions' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Re-authentication Required' });
    await dialog
      .getByText('Your session has expired. Please re-authenticate to continue using the product.')
      .waitFor();
    await dialog.getByText(`Please sign in to ${yahoo} again.`).waitFor();
    expect(page.url()).toBe(`${product.url}/genie/kept`);
    await screenshot(page, 'screen-reauth-1280');
    await dialog.getByRole('button', { name: 'Re-authenticate' }).click();
    await page.waitForURL(`**/add-mailbox?provider=yahoo&email=${encodeURIComponent(yahoo)}`);
  });

  it('shows one note per click, and no browser dialog, when the token fetch is rate-limited', async () => {
    const { page } = await userWithMailbox(
      [rawMessage({ from: 'News <news@limit.example>', subject: 'x', date: daysAgo(1), listId: '<limit>' })],
      'news@limit.example',
    );
    // A fresh page has no token yet: the Keep's token fetch is the one refused.
    await page.reload();
    await row(page, 'news@limit.example').waitFor();
    await page.route('**/csrf-token', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: '{"message":"Too many requests"}',
      }),
    );
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('button', { name: 'Keep Subscription news@limit.example' }).click();
    const limited = note(page, 'Too many requests from this IP, please try again later.');
    await limited.waitFor();
    // A second click while the note shows replaces it: still one note.
    await page.getByRole('button', { name: 'Keep Subscription news@limit.example' }).click();
    await new Promise((r) => setTimeout(r, 500));
    await expect(page.locator('.toast-region .app-toast-error').count()).resolves.toBe(1);
    await expect(limited.locator('.app-toast-text').textContent()).resolves.toBe(
      'Error: Failed to keep the subscription: Too many requests from this IP, please try again later.',
    );
    expect(dialogs).toEqual([]);
    await row(page, 'news@limit.example').waitFor();
  });

  it('says why an unsubscribe failed, in a note with Retry that works', async () => {
    sender.respond('/retry', { status: 200 });
    const { page } = await userWithMailbox(
      [oneClick('Retry Shop', 'news@retry.example', '/retry')],
      'news@retry.example',
      1280,
      { expectServerErrors: [502] },
    );
    const reason = 'Could not reach the mail server at imap.example:993.';
    let refused = 0;
    await page.route('**/unsubscribe', (route) => {
      if (route.request().method() !== 'POST' || refused > 0) return route.fallback();
      refused += 1;
      return route.fulfill({
        status: 502,
        contentType: 'application/json',
        body: JSON.stringify({ message: reason }),
      });
    });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('button', { name: 'Unsubscribe news@retry.example' }).click();
    const failed = note(page, `Failed to process the unsubscription request: ${reason}`);
    await failed.waitFor();
    await expect(failed.locator('.visually-hidden').textContent()).resolves.toBe('Error: ');
    await row(page, 'news@retry.example').waitFor();
    expect(hits('/retry')).toBe(0);
    await screenshot(page, 'screen-failed-unsubscribe-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot(page, 'screen-failed-unsubscribe-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    await failed.getByRole('button', { name: 'Retry' }).click();
    await failed.waitFor({ state: 'detached' });
    await note(page, 'Unsubscribed from Retry Shop by one-click').waitFor();
    await row(page, 'news@retry.example').waitFor({ state: 'detached' });
    expect(hits('/retry')).toBe(1);
    expect(dialogs).toEqual([]);
  });
});

describe('keyboard and names', () => {
  it('skips to the content, selects rows with Space and Shift+click, and closes the preview with Escape', async () => {
    const { page } = await userWithMailbox(
      [
        rawMessage({ from: 'One <one@keys.example>', subject: 'First', date: daysAgo(1), listId: '<k1>' }),
        rawMessage({ from: 'Two <two@keys.example>', subject: 'Second', date: daysAgo(2), listId: '<k2>' }),
        rawMessage({
          from: 'Three <three@keys.example>',
          subject: 'Third',
          date: daysAgo(3),
          listId: '<k3>',
        }),
        rawMessage({ from: 'Four <four@keys.example>', subject: 'Fourth', date: daysAgo(4), listId: '<k4>' }),
      ],
      'four@keys.example',
    );
    // The skip link is the first stop and lands on the screen.
    await page.reload();
    await row(page, 'four@keys.example').waitFor();
    await page.keyboard.press('Tab');
    await expect(page.evaluate<string>('document.activeElement?.textContent ?? ""')).resolves.toBe(
      'Skip to content',
    );
    await page.keyboard.press('Enter');
    await expect(page.evaluate<string>('document.activeElement?.id ?? ""')).resolves.toBe('main-content');

    // Every button's name holds its visible label (WCAG 2.5.3): an aria-label, where there is one, must
    // contain the text shown (text kept for screen readers only, .visually-hidden, is not shown).
    const mismatched = await page.evaluate<{ label: string; visible: string }[]>(`
      [...document.querySelectorAll('button')]
        .filter((b) => b.offsetParent !== null)
        .map((b) => ({
          label: b.getAttribute('aria-label') ?? '',
          visible: [...b.childNodes]
            .filter((n) => !(n.nodeType === 1 && n.classList.contains('visually-hidden')))
            .map((n) => n.textContent ?? '')
            .join('')
            .trim(),
        }))
        .filter(({ label, visible }) =>
          label && /w/.test(visible) && !label.toLowerCase().includes(visible.toLowerCase()))
    `);
    expect(mismatched).toEqual([]);

    // A click on a row focuses it; Space toggles its checkbox, the arrows move to the next row.
    await row(page, 'one@keys.example').getByText('One', { exact: true }).click();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByRole('checkbox', { name: 'Select One' }).isChecked()).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByRole('checkbox', { name: 'Select Two' }).isChecked()).toBe(true);
    await page.getByText('2 selected:').waitFor();
    await page.getByRole('button', { name: 'Clear selection' }).click();
    // Shift+click selects the range.
    await page.getByRole('checkbox', { name: 'Select One' }).click();
    await page.getByRole('checkbox', { name: 'Select Three' }).click({ modifiers: ['Shift'] });
    await page.getByText('3 selected:').waitFor();
    await expect(page.getByRole('checkbox', { name: 'Select Four' }).isChecked()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Clear selection' }).click();

    // Escape closes the preview, also after a click inside the message.
    await page.getByRole('button', { name: 'Show messages from one@keys.example' }).click();
    await page.getByRole('button', { name: 'Read First' }).click();
    const preview = page.getByRole('dialog').filter({ hasText: 'First' });
    const frame = preview.locator('iframe[title="Message preview"]');
    await frame.waitFor();
    await frame.click({ position: { x: 40, y: 20 } });
    // The frame had the keyboard for a moment; the page takes it back (a person's Escape comes later).
    await expect
      .poll(() => page.evaluate<string>('document.activeElement?.tagName ?? ""'))
      .not.toBe('IFRAME');
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });
  });
});

describe('many senders at once', () => {
  it('unsubscribes a selection: asks, shows progress, sums up, and lists the pages to open', async () => {
    const oneClicks = ['a', 'b', 'c', 'd', 'e', 'f'].map((k) => ({ k, path: `/bulk-${k}-${Date.now()}` }));
    for (const { path } of oneClicks) sender.respond(path, { status: 200 });
    // One slow sender, so that the progress shows before the end.
    sender.respond(oneClicks[0]!.path, { status: 200, delayMs: 2500 });
    const { page, yahoo } = await userWithMailbox(
      [
        ...oneClicks.map(({ k, path }, i) =>
          oneClick(`Shop ${k.toUpperCase()}`, `news@${k}.bulk.example`, path, i + 1),
        ),
        manualOnly('Paper One', 'paper@one.manual.example', 8),
        manualOnly('Paper Two', 'paper@two.manual.example', 9),
        manualOnly('Paper Three', 'paper@three.manual.example', 10),
        linkless('Club', 'club@bulk-nolink.example', 11),
      ],
      'club@bulk-nolink.example',
    );
    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.getByText('10 selected:').waitFor();
    await screenshot(page, 'screen-selected-1280');
    await page
      .getByRole('region', { name: 'Selected senders' })
      .getByRole('button', { name: 'Unsubscribe' })
      .click();
    const ask = page.getByRole('dialog').filter({ hasText: 'Unsubscribe from 10 senders?' });
    await ask.getByLabel('Also move existing mail to Trash').check();
    await ask.getByRole('button', { name: 'Unsubscribe' }).click();

    const progress = page.getByRole('heading', { name: /Unsubscribing… \d+ of 10 senders/ });
    await progress.waitFor();
    await screenshot(page, 'screen-bulk-progress-1280');
    await page.getByRole('heading', { name: 'Done', exact: true }).waitFor({ timeout: 30_000 });
    const summary = page.locator('.bulk-summary');
    await summary.getByText('6 senders unsubscribed by one-click').waitFor();
    await summary.getByText('1 sender blocked').waitFor();
    await summary.getByText('3 senders need you to open their page').waitFor();
    for (const { path } of oneClicks) expect(hits(path), path).toBe(1);
    // Moved to the trash: the one-click senders' mail (asked for) and the blocked one's.
    await expect.poll(() => trashCount(yahoo)).toBe(7);
    await screenshot(page, 'screen-bulk-summary-1280');

    const manual = page.locator('.bulk-manual-item');
    await expect(manual.count()).resolves.toBe(3);
    const paper = manual.filter({ hasText: 'Paper Two' });
    await expect(paper.getByRole('link').getAttribute('href')).resolves.toBe(
      `${product.url}/sender-unsubscribe-page?${encodeURIComponent('paper@two.manual.example')}`,
    );
    await paper.getByRole('button', { name: 'Yes, unsubscribed from Paper Two' }).click();
    await paper.getByText('Unsubscribed', { exact: true }).waitFor();
    await note(page, 'Marked Paper Two as unsubscribed').waitFor();
    await row(page, 'paper@two.manual.example').waitFor({ state: 'detached' });
    // The other two are still to review; the done ones left the list.
    await row(page, 'paper@one.manual.example').waitFor();
    await expect(row(page, 'news@a.bulk.example').count()).resolves.toBe(0);
  });

  it('blocks a selection after saying how many messages move, and undoes the whole block', async () => {
    const { page, yahoo } = await userWithMailbox(
      [
        linkless('Club One', 'one@bulk-block.example', 1),
        linkless('Club One', 'one@bulk-block.example', 2),
        linkless('Club Two', 'two@bulk-block.example', 3),
      ],
      'two@bulk-block.example',
    );
    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.getByText('2 selected:').waitFor();
    await page
      .getByRole('region', { name: 'Selected senders' })
      .getByRole('button', { name: 'Block' })
      .click();
    // Even for two: a block moves mail at once, and says how much.
    const ask = page.getByRole('dialog').filter({ hasText: 'Block 2 senders?' });
    await ask
      .getByText('Their future mail goes to Trash, and the 3 messages they sent are moved there now.')
      .waitFor();
    expect(await trashCount(yahoo)).toBe(0);
    await ask.getByRole('button', { name: 'Block' }).click();
    await page.locator('.bulk-summary').getByText('2 senders blocked').waitFor();
    await expect.poll(() => trashCount(yahoo)).toBe(3);
    await screenshot(page, 'screen-bulk-blocked-1280');

    await page.getByRole('button', { name: /^Undo/ }).click();
    await note(page, 'Unblocked 2 senders and moved 3 messages back').waitFor();
    await expect.poll(() => trashCount(yahoo)).toBe(0);
  });
});

/** Writes `count` subscription senders of the mailbox `email` straight into the product's database. */
async function seedLetters(email: string, count: number): Promise<void> {
  const handle = await openDatabase({ databaseUrl: null, dataDir: product.dataDir });
  try {
    const mailbox = await handle.db
      .selectFrom('mailboxes')
      .select(['id', 'user_id'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const now = Date.now();
    const senders = Array.from({ length: count }, (_, i) => {
      const known = 10 + (i % 30);
      const read = i % 7 === 0 ? 0 : Math.floor((known * (i % 100)) / 100);
      return {
        userId: mailbox.user_id,
        mailboxId: mailbox.id,
        address: `letter${String(i).padStart(4, '0')}@seed${i % 97}.example`,
        name: `Seeded Letter ${String(i).padStart(4, '0')}`,
        messageCount: known,
        listMessageCount: known,
        // Newest first is the seed's order: sender i is i minutes older than sender 0.
        lastMessageAt: now - 86_400_000 - i * 60_000,
        read: { count: read, known },
        recentCount: i % 40,
        via: i % 25 === 0 ? `discussion-${i}@lists.example` : null,
        createdAt: now,
      };
    });
    await seedSenders(handle.db, senders);
  } finally {
    await handle.close();
  }
}

describe('5,000 senders', () => {
  it('loads pages as the list scrolls, with few rows in the page at any time', async () => {
    const { page, yahoo } = await userWithMailbox(
      [rawMessage({ from: 'Real <real@long.example>', subject: 'x', date: daysAgo(400), listId: '<real>' })],
      'real@long.example',
    );
    await seedLetters(yahoo, 5000);
    const listCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/get-unsubscribe-emails')) listCalls.push(r.url());
    });
    await page.reload();
    await page.getByText('5001 Subscriptions Left to Review').waitFor({ timeout: 20_000 });
    await row(page, 'letter0000@seed0.example').waitFor();
    await row(page, 'letter0000@seed0.example').getByText('via discussion-0@lists.example').waitFor();
    await screenshotViewport(page, 'screen-long-1280');

    // Every matching sender can be selected, up to the bulk limit, without scrolling to them.
    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.getByRole('button', { name: 'Select all 5000 matching' }).click();
    await page.getByText('5000 selected:').waitFor();
    await page.getByRole('button', { name: 'Clear selection' }).click();

    // The search and the order are the server's: `q` and `sort` go with the page calls.
    const searched = page.waitForRequest((r) => r.url().includes('q=Letter+0042'));
    await page.getByLabel('Search by name or address').fill('Letter 0042');
    await searched;
    // A search counts what matches of all (docs/decisions/104-screens-that-fit.md).
    await page.getByText('1 of 5001 match').waitFor();
    await row(page, 'letter0042@seed42.example').waitFor();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await page.getByText('5001 Subscriptions Left to Review').waitFor();
    const sorted = page.waitForRequest((r) => r.url().includes('sort=readRate'));
    await page.getByLabel('Sort').selectOption('readRate');
    await sorted;
    await expect.poll(async () => page.locator('tbody tr').first().textContent()).toContain('you read 0%');
    await page.getByLabel('Sort').selectOption('newest');
    await row(page, 'letter0000@seed0.example').waitFor();
    listCalls.length = 0;

    const started = Date.now();
    let steps = 0;
    while ((await row(page, 'letter4999@').count()) === 0) {
      steps += 1;
      expect(steps, 'reached the end of the list').toBeLessThan(2000);
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(30);
      // The rows in the page stay few, however far the list has come.
      expect(await page.locator('tbody tr').count()).toBeLessThan(80);
    }
    const seconds = (Date.now() - started) / 1000;
    expect(seconds).toBeLessThan(90);
    await row(page, 'real@long.example').waitFor();
    // Pages of 50, asked for as the list scrolled (5,001 senders: about a hundred of them).
    const paged = listCalls.filter((u) => u.includes('limit=50'));
    expect(paged.length).toBeGreaterThan(50);
    expect(paged.every((u) => u.includes('sort=newest'))).toBe(true);
    await screenshotViewport(page, 'screen-long-end-1280');
  }, 150_000);

  it('lays out the screen at 1280, 800 and 375 px', async () => {
    const { page, yahoo } = await userWithMailbox(
      [rawMessage({ from: 'Real <real@wide.example>', subject: 'x', date: daysAgo(400), listId: '<wide>' })],
      'real@wide.example',
    );
    await seedLetters(yahoo, 60);
    for (const width of [1280, 800, 375]) {
      await page.setViewportSize({ width, height: width <= 480 ? 812 : 900 });
      await page.reload();
      await row(page, 'letter0000@seed0.example').waitFor();
      expect(await horizontalOverflow(page), `overflow at ${width}`).toBeLessThanOrEqual(0);
      // The search box has room to type in at every width.
      const search = await page.getByLabel('Search by name or address').boundingBox();
      expect(search?.width ?? 0, `search box at ${width}`).toBeGreaterThanOrEqual(200);
      if (width === 1280) {
        // One line per sender at desktop widths: the row is barely taller than the logo.
        const box = await row(page, 'letter0001@seed1.example').boundingBox();
        expect(box?.height ?? 0).toBeLessThan(72);
      }
      await screenshotViewport(page, `screen-list-${width}`);
      // The selection's bar fits too.
      await page.getByRole('checkbox', { name: 'Select Seeded Letter 0001' }).check();
      await page.getByText('1 selected:').waitFor();
      expect(await horizontalOverflow(page), `overflow with the bar at ${width}`).toBeLessThanOrEqual(0);
      await screenshotViewport(page, `screen-bar-${width}`);
      await page.getByRole('button', { name: 'Clear selection' }).click();
    }
  });
});

describe('rows that fit (docs/decisions/104-screens-that-fit.md)', () => {
  const LONG_NAME = 'The Medium Daily Digest Weekly';
  const issues = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      rawMessage({
        from: `${LONG_NAME} <digest@fit.example>`,
        subject: `Digest issue ${i + 1}`,
        date: daysAgo(i + 1),
        listId: '<digest.fit.example>',
      }),
    );
  /** Where a control is on the page (not in the viewport: opening a row may scroll it). */
  const y = async (page: Page, name: string | RegExp, role: 'button' | 'checkbox' = 'button') =>
    ((await page.getByRole(role, { name }).boundingBox())?.y ?? Number.NaN) +
    (await page.evaluate<number>('window.scrollY'));

  it('keeps the checkbox and buttons at the top of an opened row, ten messages at a time', async () => {
    const { page } = await userWithMailbox(issues(13), 'digest@fit.example');
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width <= 480 ? 812 : 900 });
      await page.reload();
      const digest = row(page, 'digest@fit.example');
      await digest.waitFor();
      await screenshotViewport(page, `screen-row-${width}`);
      if (width === 1280) {
        // The name has room: not cut with an ellipsis.
        const name = digest.locator('.subscription-name');
        expect(await name.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
        await expect(name.textContent()).resolves.toBe(LONG_NAME);
      } else {
        expect((await digest.boundingBox())?.height ?? 999).toBeLessThanOrEqual(120);
      }
      const before = {
        keep: await y(page, 'Keep Subscription digest@fit.example'),
        box: await y(page, `Select ${LONG_NAME}`, 'checkbox'),
        more: await y(page, 'More digest@fit.example'),
      };
      await page.getByRole('button', { name: 'Show messages from digest@fit.example' }).click();
      const messages = digest.locator('.subscription-message');
      await expect.poll(() => messages.count()).toBe(10);
      await expect(y(page, 'Keep Subscription digest@fit.example')).resolves.toBeCloseTo(before.keep, 0);
      await expect(y(page, `Select ${LONG_NAME}`, 'checkbox')).resolves.toBeCloseTo(before.box, 0);
      await expect(y(page, 'More digest@fit.example')).resolves.toBeCloseTo(before.more, 0);
      // The row grew under its buttons, not around them.
      expect((await digest.boundingBox())?.height ?? 0).toBeGreaterThan(300);
      await screenshotViewport(page, `screen-row-open-${width}`);
      const more = page.getByRole('button', { name: 'Show more messages from digest@fit.example' });
      await more.click();
      await expect.poll(() => messages.count()).toBe(13);
      await more.waitFor({ state: 'detached' });
      await digest.getByText('Digest issue 13').waitFor();
      await expect(y(page, 'Keep Subscription digest@fit.example')).resolves.toBeCloseTo(before.keep, 0);
    }
  });

  it('keeps Organise and Block in a More menu that the keyboard works, and Block says how many messages move', async () => {
    const { page, yahoo } = await userWithMailbox(issues(3), 'digest@fit.example');
    const more = page.getByRole('button', { name: 'More digest@fit.example' });
    await expect(more.getAttribute('aria-haspopup')).resolves.toBe('menu');
    await expect(more.getAttribute('aria-expanded')).resolves.toBe('false');
    // No unlabelled icon: every button of the row has a visible word.
    for (const button of await row(page, 'digest@fit.example').getByRole('button').all()) {
      const words = (await button.innerText()).trim();
      const caret = (await button.getAttribute('aria-label'))?.startsWith('Show messages');
      expect(caret || words.length > 0).toBe(true);
    }

    await more.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'More for digest@fit.example' });
    await menu.waitFor();
    await expect(more.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(menu.getByRole('menuitem').allInnerTexts()).resolves.toEqual(['Organise…', 'Block…']);
    await expect
      .poll(() => page.evaluate<string | null>('document.activeElement?.textContent ?? null'))
      .toBe('Organise…');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.evaluate<string | null>('document.activeElement?.textContent ?? null'))
      .toBe('Block…');
    await screenshot(page, 'screen-more-menu-1280');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect(more.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect
      .poll(() => page.evaluate<string | null>('document.activeElement?.textContent ?? null'))
      .toBe('More digest@fit.example');

    // Organise… opens its dialog.
    await more.click();
    await page.getByRole('menuitem', { name: 'Organise…' }).click();
    const organise = page.getByRole('dialog', { name: `Organise ${LONG_NAME}` });
    await organise.waitFor();
    await page.keyboard.press('Escape');
    await organise.waitFor({ state: 'detached' });

    // Block… asks first, naming the messages that move; nothing moves until it is confirmed.
    await more.click();
    await page.getByRole('menuitem', { name: 'Block…' }).click();
    const ask = page.getByRole('dialog').filter({ hasText: 'Block 1 sender?' });
    await ask.getByText('the 3 messages they sent are moved there now').waitFor();
    await screenshot(page, 'screen-row-block-ask-1280');
    expect(await trashCount(yahoo)).toBe(0);
    await ask.getByRole('button', { name: 'Block' }).click();
    await page.locator('.bulk-summary').getByText('1 sender blocked').waitFor();
    await expect.poll(() => trashCount(yahoo)).toBe(3);
  });

  it('counts a search as "N of all match", and shows skeleton rows, never 0, while loading', async () => {
    const { page, yahoo } = await userWithMailbox(issues(1), 'digest@fit.example');
    await seedLetters(yahoo, 40);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const listCall = (url: URL) => url.pathname === '/get-unsubscribe-emails';
    await page.route(listCall, async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await page.locator('.subscription-skeleton').first().waitFor();
    expect(await page.locator('.subscription-skeleton').count()).toBeGreaterThan(2);
    await expect(page.getByText(/^0 Subscriptions?\b/).count()).resolves.toBe(0);
    await screenshotViewport(page, 'screen-skeleton-1280');
    release();
    await page.getByText('41 Subscriptions Left to Review').waitFor();
    await expect(page.locator('.subscription-skeleton').count()).resolves.toBe(0);
    await page.unroute(listCall);

    await page.getByLabel('Search by name or address').fill('Letter 002');
    await page.getByText('10 of 41 match').waitFor();
    await row(page, 'letter0021@seed21.example').waitFor();
    await expect(page.getByText('Subscriptions Left to Review').count()).resolves.toBe(0);
    await screenshotViewport(page, 'screen-search-count-1280');
    await page.getByRole('button', { name: 'Clear search' }).click();
    await page.getByText('41 Subscriptions Left to Review').waitFor();
  });

  it('keeps every phone row within 120 px', async () => {
    const { page, yahoo } = await userWithMailbox(issues(2), 'digest@fit.example', 375);
    await seedLetters(yahoo, 30);
    await page.reload();
    await row(page, 'letter0000@seed0.example').waitFor();
    const heights = await page
      .locator('tbody.subscription-body > tr')
      .evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
    await screenshotViewport(page, 'screen-rows-375');
    expect(heights.length).toBeGreaterThan(5);
    expect(Math.max(...heights)).toBeLessThanOrEqual(120);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });
});
