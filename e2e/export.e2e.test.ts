import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { horizontalOverflow, screenshot, withDovecotProduct } from './harness.js';

// Taking one's data away, in the browser: the two links of Settings' "Your data" download the JSON of
// everything stored about the user and the subscription list as CSV, named by the server, with this
// user's mailbox and senders in them. Screenshots of the section at 1280 and 375 px.

const { userWithYahooMailbox } = withDovecotProduct();

const news = (from: string, subject: string, n: number) =>
  rawMessage({ from, subject, date: daysAgo(n), listUnsubscribe: '<https://news.example/unsubscribe?u=1>' });

describe('downloading your data', () => {
  it('downloads everything as JSON and the subscription list as CSV from Settings', async () => {
    const { page, yahoo } = await userWithYahooMailbox('export', [
      news('Weekly Digest <weekly@news.example>', 'Issue 1', 2),
      news('=HYPERLINK("https://evil.example") <promo@shop.example>', 'Sale', 1),
    ]);
    await page.getByRole('row').filter({ hasText: 'weekly@news.example' }).waitFor();
    await page.goto(`${new URL(page.url()).origin}/genie/settings`);
    await page.getByRole('heading', { name: 'Your data' }).waitFor();
    await screenshot(page, 'export-settings-1280');

    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download everything (JSON)' }).click(),
    ]);
    expect(json.suggestedFilename()).toMatch(/^inbox-genie-export-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await readFile((await json.path())!, 'utf8'));
    const text = JSON.stringify(exported);
    expect(text).toContain(yahoo);
    expect(text).toContain('weekly@news.example');
    expect(text).not.toContain('app password');

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the subscription list (CSV)' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    const lines = (await readFile((await csv.path())!, 'utf8')).split('\r\n');
    expect(lines[0]).toMatch(/address/i);
    expect(lines.some((l) => l.includes('weekly@news.example'))).toBe(true);
    // A sender's name that a spreadsheet would run as a formula is written as text.
    expect(lines.some((l) => /(^|,)"?=/.test(l))).toBe(false);
    expect(lines.some((l) => l.includes('promo@shop.example') && l.includes("'=HYPERLINK"))).toBe(true);
  });

  it('shows Your data without overflow at 375 px', async () => {
    const { page } = await userWithYahooMailbox(
      'export-narrow',
      [news('Weekly <weekly@news.example>', 'A', 1)],
      {
        width: 375,
      },
    );
    await page.goto(`${new URL(page.url()).origin}/genie/settings`);
    await page.getByRole('heading', { name: 'Your data' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'export-settings-375');
    expect(await horizontalOverflow(page)).toBe(0);
  });
});
