import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { horizontalOverflow, screenshot, screenshotViewport, withDovecotProduct } from './harness.js';

// The subscription list grouped by brand in Chromium, on a Yahoo mailbox played by a real Dovecot: the
// "Group by brand" switch (kept in the address across a reload), a brand expanded into its senders, a
// brand selected as all of its senders, a brand kept as all of its senders, and the layout at 1280 and
// 375 px.

const { userWithYahooMailbox } = withDovecotProduct();

const brandRow = (page: Page, brand: string) => page.locator(`tr.brand-row[data-brand="${brand}"]`);
const senderRow = (page: Page, address: string) =>
  page.getByRole('row').filter({ hasText: address }).and(page.locator('tr:not(.brand-row)'));
const groupSwitch = (page: Page) => page.getByRole('checkbox', { name: 'Group by brand' });

/**
 * Flips the switch and waits for it to show the new state. The switch shows the address's `?group=`, which
 * the router updates after the click's own task: Playwright's check() reads the box right after its click
 * and failed once in CI when the router had not rendered yet.
 */
async function setGrouped(page: Page, on: boolean): Promise<void> {
  const box = groupSwitch(page);
  if ((await box.isChecked()) !== on) await box.click();
  await expect.poll(() => box.isChecked()).toBe(on);
}

const letter = (from: string, days: number, extra: { listId?: string; subject?: string } = {}) =>
  rawMessage({
    from,
    subject: extra.subject ?? `News ${days}`,
    date: daysAgo(days),
    listUnsubscribe: '<mailto:leave@unsubscribe.example>',
    ...(extra.listId ? { listId: extra.listId } : {}),
  });

// shop.co.uk: two addresses on two subdomains (3 messages); club.example: one List-Id sent from two
// providers' domains; solo.example: one sender.
const MAILBOX = [
  letter('Shop News <news@news.shop.co.uk>', 1),
  letter('Shop News <news@news.shop.co.uk>', 8),
  letter('Shop Deals <deals@offers.shop.co.uk>', 2),
  letter('Weekly Club <bounce@mailer.esp-one.example>', 3, { listId: '<weekly.club.example>' }),
  letter('Weekly Club <bounce@send.esp-two.example>', 4, { listId: '<weekly.club.example>' }),
  letter('Solo <hello@solo.example>', 5),
];

describe('the subscription list grouped by brand', () => {
  it('groups by brand, keeps the switch across a reload, expands a brand and keeps a brand as all of its senders', async () => {
    const { page } = await userWithYahooMailbox('brands', MAILBOX);
    await senderRow(page, 'deals@offers.shop.co.uk').waitFor();
    await senderRow(page, 'hello@solo.example').waitFor();

    await setGrouped(page, true);
    await expect.poll(() => new URL(page.url()).searchParams.get('group')).toBe('brand');
    const shop = brandRow(page, 'shop.co.uk');
    await shop.waitFor();
    await page.getByText('3 brands', { exact: true }).waitFor();
    // Named as its senders write their name on most of its mail (two of Shop News', one of Shop Deals'),
    // with the domain under it.
    await expect(shop.locator('.subscription-name').textContent()).resolves.toBe('Shop News');
    await expect(shop.locator('.brand-senders').textContent()).resolves.toBe('shop.co.uk · 2 senders');
    await expect(shop.locator('.subscription-count').textContent()).resolves.toBe('3 Messages');
    await expect(brandRow(page, 'club.example').locator('.subscription-name').textContent()).resolves.toBe(
      'Weekly Club',
    );
    await expect(brandRow(page, 'club.example').locator('.brand-senders').textContent()).resolves.toBe(
      'club.example · 2 senders',
    );
    // The sender rows are folded into their brands.
    await expect(senderRow(page, 'deals@offers.shop.co.uk').isVisible()).resolves.toBe(false);

    // The switch is in the address: a reload shows the brands again.
    await page.reload();
    await brandRow(page, 'shop.co.uk').waitFor();
    await expect(groupSwitch(page).isChecked()).resolves.toBe(true);

    // A brand opens into its senders' own rows, with their own buttons.
    await page.getByRole('button', { name: 'Show the senders of shop.co.uk' }).click();
    await senderRow(page, 'news@news.shop.co.uk').waitFor();
    await senderRow(page, 'deals@offers.shop.co.uk')
      .getByRole('button', { name: 'Keep Subscription deals@offers.shop.co.uk' })
      .waitFor();
    await expect(
      page.getByRole('button', { name: 'Show the senders of shop.co.uk' }).getAttribute('aria-expanded'),
    ).resolves.toBe('true');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'brands-1280');

    // Selecting a brand selects all of its senders (the bulk bar counts them).
    await page.getByRole('checkbox', { name: 'Select all senders of shop.co.uk' }).check();
    await page.getByText('2 selected:').waitFor();
    await expect(page.getByRole('checkbox', { name: 'Select Shop Deals' }).isChecked()).resolves.toBe(true);
    await page.getByRole('checkbox', { name: 'Select Shop Deals' }).uncheck();
    await page.getByText('1 selected:').waitFor();
    await expect
      .poll(() =>
        page
          .getByRole('checkbox', { name: 'Select all senders of shop.co.uk' })
          .evaluate((box) => (box as unknown as { indeterminate: boolean }).indeterminate),
      )
      .toBe(true);
    await page.getByRole('button', { name: 'Clear selection' }).click();

    // Keep on a brand keeps every one of its senders, through the bulk action's progress and summary.
    await page.getByRole('button', { name: 'Keep all from shop.co.uk' }).click();
    await page.getByRole('heading', { name: 'Done', exact: true }).waitFor({ timeout: 30_000 });
    await page.locator('.bulk-summary').getByText('2 senders kept').waitFor();
    await brandRow(page, 'shop.co.uk').waitFor({ state: 'detached' });
    await page.getByText('2 brands', { exact: true }).waitFor();
    await screenshot(page, 'brands-kept-1280');

    // Both are on the Kept list, under their brand; the other brands are still to review.
    await page.goto(new URL('/genie/kept?group=brand', page.url()).toString());
    const kept = brandRow(page, 'shop.co.uk');
    await kept.waitFor();
    await expect(kept.locator('.brand-senders').textContent()).resolves.toBe('shop.co.uk · 2 senders');
    await page.getByText('1 brand', { exact: true }).waitFor();

    // Switched off, the list is one row per sender again, and the address says so.
    await page.goto(new URL('/genie/subscriptions?group=brand', page.url()).toString());
    await brandRow(page, 'club.example').waitFor();
    await setGrouped(page, false);
    await senderRow(page, 'hello@solo.example').waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('group')).toBeNull();
    await expect(brandRow(page, 'club.example').count()).resolves.toBe(0);
  });

  it('fits a phone: 375 px wide, a brand open', async () => {
    const { page } = await userWithYahooMailbox('brands-phone', MAILBOX, { width: 375 });
    await senderRow(page, 'hello@solo.example').waitFor();
    await setGrouped(page, true);
    await brandRow(page, 'club.example').waitFor();
    await page.getByRole('button', { name: 'Show the senders of club.example' }).click();
    await senderRow(page, 'bounce@send.esp-two.example').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'brands-375');
    await page.getByRole('checkbox', { name: 'Select all senders of club.example' }).check();
    await page.getByText('2 selected:').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshotViewport(page, 'brands-bar-375');
  });
});
