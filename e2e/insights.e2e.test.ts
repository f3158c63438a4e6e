import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/index.js';
import { rawMessage } from '#test/helpers/mail.js';
import {
  horizontalOverflow,
  screenshot,
  signUpWithPassword,
  withDovecotProduct,
  YAHOO_APP_PASSWORD,
} from './harness.js';

// The Insights screen in the browser against a real Dovecot playing Yahoo: reached from the sidebar, its
// three charts drawn with their sentences and tables, a sender still sending after an unsubscribe blocked
// from there (its mail goes to the trash) and then no claim about its mail since until 14 days have
// passed, the screen at 375 px without sideways scrolling, and a call to add a mailbox instead of empty axes.

const { dovecot, product, newPage, userWithYahooMailbox } = withDovecotProduct();

const DAY = 86_400_000;
const mail = (from: string, days: number) =>
  rawMessage({
    from,
    subject: `News of ${days} days ago`,
    date: new Date(Date.now() - days * DAY),
    listUnsubscribe: `<https://${from.split('@')[1]!.replace('>', '')}/unsubscribe>`,
  });

const WEEKLY = 'Weekly <news@weekly.example>';
const SHOP = 'Shop Deals <deals@shop.example>';
const PROMO = 'Promo Blast <blast@promo.example>';

/** The user unsubscribed from `address` `days` ago: the product's own record, as the screen reads it. */
async function unsubscribedAgo(address: string, days: number) {
  const { db, close } = await openDatabase({ databaseUrl: null, dataDir: product.dataDir });
  try {
    await db
      .updateTable('senders')
      .set({ category: 'unsubscribed', unsubscribed_at: Date.now() - days * DAY, updated_at: Date.now() })
      .where('address', '=', address)
      .execute();
  } finally {
    await close();
  }
}

const row = (page: Page, address: string) => page.getByRole('row').filter({ hasText: address });

describe('the Insights screen', () => {
  it('draws the charts with their figures, blocks a sender that still sends, and fits 375 px', async () => {
    const { page, yahoo } = await userWithYahooMailbox('insights', [
      ...[1, 8, 15, 22, 30, 45, 60].map((d) => mail(WEEKLY, d)),
      ...[2, 10, 20].map((d) => mail(SHOP, d)),
      ...[5, 40, 50, 70].map((d) => mail(PROMO, d)),
    ]);
    await row(page, 'blast@promo.example').waitFor();
    // Unsubscribed 20 days ago; its mail of 5 days ago came after the 7 days of grace.
    await unsubscribedAgo('blast@promo.example', 20);

    await page.getByRole('link', { name: 'Insights' }).click();
    await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
    const weekly = page.getByRole('region', { name: 'Mail a week' });
    await weekly
      .getByText(/subscriptions sent you 14 messages: 10 to review, 0 kept and 4 from senders/)
      .waitFor();
    // The chart is drawn (Chart.js loaded on this screen) and named by the same sentence.
    const canvas = weekly.getByRole('img');
    // Chart.js sizes the canvas (its width attribute) when it draws.
    await expect.poll(() => canvas.getAttribute('width')).not.toBeNull();
    expect(await canvas.getAttribute('aria-label')).toMatch(/14 messages/);
    await weekly.getByText('Show the figures').click();
    const weeks = weekly.getByRole('table');
    await expect.poll(() => weeks.getByRole('row').count()).toBe(27);

    const top = page.getByRole('region', { name: 'Most mail a month' });
    await top.getByText(/Weekly sends the most: 2\.3 a month/).waitFor();

    const quieter = page.getByRole('region', { name: 'Quieter since' });
    await quieter
      .getByText(/Since you unsubscribed from or blocked 1 sender, their mail went from 1 to 1 a month\./)
      .waitFor();
    await quieter.getByText('Still sending').waitFor();
    await screenshot(page, 'insights-1280');

    const inbox = await dovecot.count({ user: yahoo, password: YAHOO_APP_PASSWORD }, 'INBOX');
    await quieter.getByRole('button', { name: 'Block Promo Blast' }).click();
    await page.locator('.toast-region .app-toast').filter({ hasText: 'Blocked Promo Blast' }).waitFor();
    await quieter.getByText('Blocked', { exact: true }).waitFor();
    await expect(quieter.getByRole('button', { name: 'Block Promo Blast' }).count()).resolves.toBe(0);
    // Blocked a moment ago: no "went from 1 to 0 a month", but how long until the product can tell.
    await quieter
      .getByText(
        "You unsubscribed from or blocked 1 sender too recently to tell whether their mail stopped. We'll know in 14 days.",
      )
      .waitFor();
    await quieter.getByText(/We'll know in 14 days whether it stopped/).waitFor();
    await expect(quieter.getByText(/went from/).count()).resolves.toBe(0);
    await expect(quieter.getByRole('img').count()).resolves.toBe(0);
    await screenshot(page, 'insights-too-soon-1280');
    // Its four messages went to the trash.
    await expect
      .poll(() => dovecot.count({ user: yahoo, password: YAHOO_APP_PASSWORD }, 'INBOX'))
      .toBe(inbox - 4);

    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    await page.getByRole('region', { name: 'Quieter since' }).getByText('Blocked', { exact: true }).waitFor();
    await expect
      .poll(() => page.getByRole('region', { name: 'Mail a week' }).getByRole('img').getAttribute('width'))
      .not.toBeNull();
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, 'insights-375');
  });

  it('asks for a mailbox instead of drawing empty charts', async () => {
    for (const width of [1280, 375]) {
      const page = await newPage(width);
      await signUpWithPassword(page, product);
      await page.goto(`${product.url}/genie/insights`);
      const none = page.getByRole('region', { name: 'No mailbox yet' });
      await none.getByRole('heading', { name: 'Add a mailbox to see your insights' }).waitFor();
      await expect(page.getByRole('region', { name: 'Mail a week' }).count()).resolves.toBe(0);
      await expect(page.locator('.insights').getByRole('img').count()).resolves.toBe(0);
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `insights-no-mailbox-${width}`);
      if (width === 375) {
        await none.getByRole('link', { name: 'Add a mailbox' }).click();
        await page.waitForURL('**/genie/add-account');
      }
    }
  });
});
