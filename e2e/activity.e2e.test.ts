import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { horizontalOverflow, screenshot, withDovecotProduct, YAHOO_APP_PASSWORD } from './harness.js';

// The Activity screen: a block that moved mail to the Trash of a real Dovecot is listed in words, with
// Undo, long after its toast is gone; Undo puts the mail back, the entry says "Undone", and the sender is
// back in the review list with its count. Checked at 1280 and 375 px.

const { dovecot, userWithYahooMailbox } = withDovecotProduct({ smtpDown: true });
const row = (page: Page, address: string) => page.getByRole('row').filter({ hasText: address });
const count = (user: string, folder: string) => dovecot.count({ user, password: YAHOO_APP_PASSWORD }, folder);

const club = (subject: string, days: number) =>
  rawMessage({
    from: 'Club <club@nolink.example>',
    subject,
    date: daysAgo(days),
    listId: '<club.nolink.example>',
  });

describe('the Activity screen', () => {
  it('lists a block that moved mail, and its Undo puts the mail back', async () => {
    const { page, yahoo } = await userWithYahooMailbox('activity', [
      club('Meetup', 1),
      club('Agenda', 2),
      club('Minutes', 3),
    ]);
    await row(page, 'club@nolink.example').waitFor();

    // No link: Unsubscribe blocks; with the box ticked, its three messages go to the Trash now.
    await page.getByLabel('Also move existing mail to Trash').check();
    await page.getByRole('button', { name: 'Unsubscribe club@nolink.example' }).click();
    await row(page, 'club@nolink.example').waitFor({ state: 'detached' });
    await expect.poll(() => count(yahoo, 'Trash')).toBe(3);

    await page.getByRole('link', { name: 'Activity', exact: true }).click();
    await page.waitForURL('**/genie/activity');
    const entry = page.locator('.activity-item').filter({ hasText: 'Blocked Club' });
    await entry.getByText('3 messages moved to Trash.').waitFor();
    await entry.getByText('club@nolink.example', { exact: false }).waitFor();
    await screenshot(page, 'activity-1280');

    await page.setViewportSize({ width: 375, height: 812 });
    await entry.waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'activity-375');

    const undone = page.waitForResponse((r) => /\/activity\/[^/]+\/undo$/.test(r.url()) && r.ok());
    await entry.getByRole('button', { name: 'Undo' }).click();
    await undone;
    await page.locator('.toast-region .app-toast').filter({ hasText: '3 messages put back' }).waitFor();
    await entry.getByText('Undone').waitFor();
    await expect(entry.getByRole('button', { name: 'Undo' }).count()).resolves.toBe(0);
    expect([await count(yahoo, 'Trash'), await count(yahoo, 'INBOX')]).toEqual([0, 3]);
    await screenshot(page, 'activity-undone-375');

    // Back in the review list, with its three messages counted.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'Subscriptions to Review' }).click();
    await row(page, 'club@nolink.example')
      .getByText(/3 Messages/i)
      .waitFor();
  });
});
