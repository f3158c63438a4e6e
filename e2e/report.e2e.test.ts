import { describe, expect, it } from 'vitest';
import { renderReport } from '#server/features/report/render.js';
import { weekOf } from '#server/features/report/week.js';
import { horizontalOverflow, productForThisFile, screenshot, signUpWithPassword } from './harness.js';

// The weekly report's switch in Settings, in Chromium at 375 px: off for a new account, saved when turned
// on (still on after a reload), and the report's unsubscribe page for a link that is not ours; the mail's
// HTML part as a 375 px wide mail client shows it. The report's content, headers and one-click
// unsubscribe are tested in test/features/report.

const { product, open } = productForThisFile();

describe('the weekly report in Settings', () => {
  it('is off by default and stays on once turned on, readable at 375 px', async () => {
    const { page } = await open(375);
    await signUpWithPassword(page, product);
    await page.goto(`${product.url}/genie/settings`);
    const report = page.getByRole('switch', { name: /Email me a weekly report/ });
    await report.waitFor();
    expect(await report.isChecked()).toBe(false);

    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/update-settings') && r.request().method() === 'PUT',
    );
    await report.click();
    expect((await saved).status()).toBe(200);
    expect(await report.isChecked()).toBe(true);
    await page.reload();
    await page.getByRole('switch', { name: /Email me a weekly report/ }).waitFor();
    expect(await page.getByRole('switch', { name: /Email me a weekly report/ }).isChecked()).toBe(true);
    // The other switches kept their values.
    expect(await page.getByRole('switch', { name: /Block senders that keep sending/ }).isChecked()).toBe(
      false,
    );
    await screenshot(page, 'report-settings-375');
    expect(await horizontalOverflow(page)).toBe(0);

    // A report's unsubscribe link that is not one of ours: a page that says so, and a way to Settings.
    const answer = await page.goto(`${product.url}/report/unsubscribe?token=${'A'.repeat(43)}`);
    expect(answer?.status()).toBe(404);
    await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
    await screenshot(page, 'report-unsubscribe-unknown-375');
    expect(await horizontalOverflow(page)).toBe(0);
    await page.getByRole('link', { name: 'Your settings' }).click();
    await page.waitForURL('**/genie/settings');
    expect(await page.getByRole('switch', { name: /Email me a weekly report/ }).isChecked()).toBe(true);
  });

  it("shows the report's HTML part without overflow at 375 px", async () => {
    const { page } = await open(375);
    const monday = Date.UTC(2025, 10, 17);
    const origin = 'https://genie.example';
    const long = 'A sender with a very long name that goes on <and on@example.com>';
    const { html } = renderReport(
      {
        week: weekOf(monday),
        newSubscriptions: {
          total: 14,
          listed: [
            { name: 'Shop Deals', address: 'deals@shop.example', category: 'uncategorized', messageCount: 5 },
            {
              name: long,
              address: 'a-very-long-address-of-a-newsletter@subdomain.example.com',
              category: 'uncategorized',
              messageCount: 1,
            },
          ],
        },
        moves: [
          {
            cause: 'rule',
            destination: { kind: 'folder', path: 'Newsletters/Shopping' },
            messages: 12,
            senders: 3,
          },
          { cause: 'rule', destination: { kind: 'trash' }, messages: 4, senders: 1 },
          { cause: 'screener', destination: { kind: 'folder', path: 'Screener' }, messages: 3, senders: 2 },
        ],
        movedSenders: [{ cause: 'rule', name: 'Shop Deals', address: 'deals@shop.example', messages: 9 }],
        stillSending: {
          total: 1,
          listed: [
            {
              name: 'Stubborn',
              address: 'stubborn@spam.example',
              unsubscribedAt: monday - 40 * 86_400_000,
              lastMessageAt: monday + 86_400_000,
            },
          ],
        },
        avoided: { messages: 412, senders: 23 },
      },
      {
        subscriptions: `${origin}/genie/subscriptions`,
        unsubscribed: `${origin}/genie/unsubscribed`,
        rules: `${origin}/genie/rules`,
        settings: `${origin}/genie/settings`,
        unsubscribe: `${origin}/report/unsubscribe?token=${'A'.repeat(43)}`,
      },
    );
    await page.setContent(html);
    await page.getByRole('heading', { name: 'Mail avoided since you joined' }).waitFor();
    await screenshot(page, 'report-mail-375');
    expect(await horizontalOverflow(page)).toBe(0);
  });
});
