import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { type OpenPageOptions, screenshot, withDovecotProduct, YAHOO_APP_PASSWORD } from './harness.js';

// Unsubscribing in the browser: the manual path with both alerts on (dialog → the sender's page in a
// new tab → confirmation, both naming the sender and the host its link opens), with both alerts off (no
// dialog), Block offered after "Not Yet", and a block of a sender without a link, whose mail ends up in the
// Trash of a real Dovecot.

const { dovecot, product, userWithYahooMailbox } = withDovecotProduct({ smtpDown: true });
const row = (page: Page, address: string) => page.getByRole('row').filter({ hasText: address });

/**
 * A new account whose new Yahoo mailbox (on Dovecot) holds a manual-only sender, a link-less list and
 * the `extra` messages.
 */
async function userWithMailbox(
  extra: string[] = [],
  options: OpenPageOptions = {},
): Promise<{ page: Page; yahoo: string }> {
  const { page, yahoo } = await userWithYahooMailbox(
    'unsub',
    [
      ...extra,
      // The sender's page is on the product's own origin: the test browser reaches nothing else.
      rawMessage({
        from: 'Paper <paper@manual.example>',
        subject: 'Issue 12',
        date: daysAgo(1),
        listUnsubscribe: `<${product.url}/sender-unsubscribe-page>`,
      }),
      rawMessage({
        from: 'Club <club@nolink.example>',
        subject: 'Meetup',
        date: daysAgo(2),
        listId: '<club.nolink.example>',
      }),
    ],
    { page: options },
  );
  await row(page, 'paper@manual.example').waitFor();
  await row(page, 'club@nolink.example').waitFor();
  return { page, yahoo };
}

const trashCount = (user: string) => dovecot.count({ user, password: YAHOO_APP_PASSWORD }, 'Trash');

/** Sets the two alert switches on the Settings screen, then returns to the list to review. */
async function setAlerts(page: Page, manual: boolean, after: boolean): Promise<void> {
  await page.goto(`${product.url}/genie/settings`);
  for (const [name, wanted] of [
    [/manual unsubscribe is required/, manual],
    [/confirm after a manual unsubscribe/, after],
  ] as const) {
    const toggle = page.getByRole('switch', { name });
    await toggle.waitFor();
    if ((await toggle.isChecked()) !== wanted) {
      const saved = page.waitForResponse((r) => r.url().endsWith('/update-settings') && r.ok());
      await toggle.click();
      await saved;
    }
  }
  await page.getByRole('link', { name: 'Subscriptions to Review' }).click();
  await row(page, 'paper@manual.example').waitFor();
}

describe('unsubscribing in the browser', () => {
  it('walks the manual path with both alerts on, then blocks a sender without a link', async () => {
    const { page, yahoo } = await userWithMailbox();

    await page.getByRole('button', { name: 'Unsubscribe paper@manual.example' }).click();
    const manual = page.getByRole('dialog').filter({ hasText: 'Manual Unsubscription Required' });
    await manual.getByText('Manual unsubscription required. Open the webpage to unsubscribe?').waitFor();
    // The dialog names the sender and the host the link opens (the sender's page is on the product's host).
    const host = new URL(product.url).hostname;
    await expect(manual.locator('.unsubscribe-target').innerText()).resolves.toBe(
      `Sender: Paper (paper@manual.example)\nPage at: ${host}`,
    );
    await screenshot(page, 'manual-dialog-1280');
    const popup = page.context().waitForEvent('page');
    await manual.getByRole('button', { name: 'Open Link' }).click();
    const senderPage = await popup;
    await senderPage.waitForLoadState();
    expect(senderPage.url()).toBe(`${product.url}/sender-unsubscribe-page`);
    await senderPage.close();

    const confirm = page.getByRole('dialog').filter({ hasText: 'Unsubscription Confirmation' });
    await confirm.getByText('Did you successfully unsubscribe from the newsletter?').waitFor();
    await expect(confirm.locator('.unsubscribe-target').innerText()).resolves.toBe(
      `Sender: Paper (paper@manual.example)\nPage at: ${host}`,
    );
    await confirm.getByRole('button', { name: 'Yes, Unsubscribed' }).click();
    await row(page, 'paper@manual.example').waitFor({ state: 'detached' });

    // No link: a block; with "Also move existing mail to Trash" ticked, its mail goes there now too.
    await page.getByLabel('Also move existing mail to Trash').check();
    await page.getByRole('button', { name: 'Unsubscribe club@nolink.example' }).click();
    await row(page, 'club@nolink.example').waitFor({ state: 'detached' });
    await expect.poll(() => trashCount(yahoo)).toBe(1);

    await page.getByRole('link', { name: 'Unsubscribed' }).click();
    await page.waitForURL('**/genie/unsubscribed');
    await row(page, 'paper@manual.example').waitFor();
    await row(page, 'club@nolink.example').waitFor();
    await expect(page.getByRole('button', { name: /^Unsubscribe / }).count()).resolves.toBe(0);
    await screenshot(page, 'unsubscribed-1280');
  });

  it('opens the page and confirms at once when both alerts are off', async () => {
    const { page } = await userWithMailbox();
    await page.goto(`${page.url().replace(/\/genie\/.*$/, '')}/genie/settings`);
    for (const name of [/manual unsubscribe is required/, /confirm after a manual unsubscribe/]) {
      const saved = page.waitForResponse((r) => r.url().endsWith('/update-settings') && r.ok());
      await page.getByRole('switch', { name }).click();
      await saved;
    }
    await page.getByRole('link', { name: 'Subscriptions to Review' }).click();
    await row(page, 'paper@manual.example').waitFor();
    const popup = page.context().waitForEvent('page');
    const confirmed = page.waitForResponse((r) => r.url().endsWith('/manual-unsubscribe') && r.ok());
    await page.getByRole('button', { name: 'Unsubscribe paper@manual.example' }).click();
    await (await popup).close();
    await confirmed;
    await row(page, 'paper@manual.example').waitFor({ state: 'detached' });
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  });

  it('shows the options and confirms after the link with manual alert on and after-alert off', async () => {
    const { page } = await userWithMailbox();
    await setAlerts(page, true, false);
    await page.getByRole('button', { name: 'Unsubscribe paper@manual.example' }).click();
    const manual = page.getByRole('dialog').filter({ hasText: 'Manual Unsubscription Required' });
    await manual.getByText(`${product.url}/sender-unsubscribe-page`).waitFor();
    const popup = page.context().waitForEvent('page');
    const confirmed = page.waitForResponse((r) => r.url().endsWith('/manual-unsubscribe') && r.ok());
    await manual.getByRole('button', { name: 'Open Link' }).click();
    await (await popup).close();
    await confirmed;
    await row(page, 'paper@manual.example').waitFor({ state: 'detached' });
    // The options dialog leaves after its exit transition: once it has, no other dialog may be open.
    await manual.waitFor({ state: 'detached' });
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  });

  it('opens the link at once and asks afterwards with manual alert off and after-alert on; Not Yet offers Block', async () => {
    const { page, yahoo } = await userWithMailbox();
    await setAlerts(page, false, true);
    const popup = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Unsubscribe paper@manual.example' }).click();
    await (await popup).close();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Unsubscription Confirmation' });
    await confirm.getByText('Did you successfully unsubscribe from the newsletter?').waitFor();
    await expect(
      page.getByRole('dialog').filter({ hasText: 'Manual Unsubscription Required' }).count(),
    ).resolves.toBe(0);
    await confirm.getByText('(paper@manual.example)').waitFor();
    await confirm.getByRole('button', { name: 'Not Yet' }).click();
    await confirm.waitFor({ state: 'detached' });
    // Not Yet: the page did not work (yet). Block is offered, naming the sender and the page's host.
    const offer = page.getByRole('dialog').filter({ hasText: 'Not unsubscribed from Paper yet?' });
    await offer
      .getByText(`If the page at ${new URL(product.url).hostname} did not unsubscribe you`)
      .waitFor();
    await row(page, 'paper@manual.example').waitFor();
    await screenshot(page, 'not-yet-block-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'not-yet-block-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    // Close leaves the sender as it was; asking again and choosing Block blocks it (the block call).
    await offer.getByRole('button', { name: 'Close' }).click();
    await offer.waitFor({ state: 'detached' });
    await row(page, 'paper@manual.example').waitFor();
    const again = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Unsubscribe paper@manual.example' }).click();
    await (await again).close();
    await confirm.getByRole('button', { name: 'Not Yet' }).click();
    const blocked = page.waitForResponse((r) => r.url().endsWith('/block-subscription') && r.ok());
    await offer.getByRole('button', { name: 'Block sender' }).click();
    await blocked;
    await row(page, 'paper@manual.example').waitFor({ state: 'detached' });
    await page.locator('.toast-region .app-toast').filter({ hasText: 'Blocked Paper' }).waitFor();
    // As the dialog said: its mail went to the Trash.
    await expect.poll(() => trashCount(yahoo)).toBe(1);
  });

  it('offers Block when the unsubscribe email cannot be sent, and asks before trashing personal mail', async () => {
    const pat = 'Pat <pat@mixed.example>';
    const { page, yahoo } = await userWithMailbox(
      [
        rawMessage({
          from: 'Digest <digest@mailto.example>',
          subject: 'Weekly',
          date: daysAgo(3),
          listUnsubscribe: '<mailto:leave@mailto.example>',
        }),
        rawMessage({ from: pat, subject: 'Club news', date: daysAgo(6), listId: '<club.mixed.example>' }),
        rawMessage({ from: pat, subject: 'Club news 2', date: daysAgo(5), listId: '<club.mixed.example>' }),
        rawMessage({ from: pat, subject: 'Lunch?', date: daysAgo(4) }),
      ],
      // The 502 of the unsubscribe email that cannot be sent is what this test provokes.
      { expectServerErrors: [502] },
    );
    await row(page, 'digest@mailto.example').waitFor();

    await page.getByRole('button', { name: 'Unsubscribe digest@mailto.example' }).click();
    const notSent = page.getByRole('dialog').filter({ hasText: 'Unsubscribe email not sent' });
    await notSent.getByText(/could not be sent/).waitFor();
    await screenshot(page, 'mailto-not-sent-1280');
    // Nothing happened to the mailbox until the user chose.
    expect(await trashCount(yahoo)).toBe(0);
    await row(page, 'digest@mailto.example').waitFor();
    await notSent.getByRole('button', { name: 'Block sender' }).click();
    await row(page, 'digest@mailto.example').waitFor({ state: 'detached' });
    await expect.poll(() => trashCount(yahoo)).toBe(1);

    await page.setViewportSize({ width: 375, height: 800 });
    // Moving its existing mail (ticked) is what needs a yes for the personal-looking message.
    await page.getByLabel('Also move existing mail to Trash').check();
    await page.getByRole('button', { name: 'Unsubscribe pat@mixed.example' }).click();
    const ask = page.getByRole('dialog').filter({ hasText: 'Block this sender?' });
    await ask
      .getByText('1 of the 3 messages from pat@mixed.example carries no newsletter headers', { exact: false })
      .waitFor();
    await screenshot(page, 'confirm-block-375');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await trashCount(yahoo)).toBe(1);
    await page.getByRole('button', { name: 'Unsubscribe pat@mixed.example' }).click();
    await ask.getByRole('button', { name: 'Block anyway' }).click();
    await row(page, 'pat@mixed.example').waitFor({ state: 'detached' });
    await expect.poll(() => trashCount(yahoo)).toBe(4);
  });

  it('asks to re-authenticate when the app password stopped working', async () => {
    const { page, yahoo } = await userWithMailbox();
    // The user revoked the app password at Yahoo after connecting.
    await dovecot.addUser({ user: yahoo, password: 'a revoked password' });
    // Moving the sender's mail is what reaches the server (unticked, the block is only recorded until the
    // next check, which then meets the refusal).
    await page.getByLabel('Also move existing mail to Trash').check();
    await page.getByRole('button', { name: 'Unsubscribe club@nolink.example' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Re-authentication Required' });
    await dialog
      .getByText('Your session has expired. Please re-authenticate to continue using the product.')
      .waitFor();
    await screenshot(page, 'reauth-dialog-1280');
    await dialog.getByRole('button', { name: 'Re-authenticate' }).click();
    await page.waitForURL(`**/add-mailbox?provider=yahoo&email=${encodeURIComponent(yahoo)}`);
    await page.getByRole('heading', { name: 'Add Yahoo Account' }).waitFor();
  });
});
