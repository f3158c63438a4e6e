import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  horizontalOverflow,
  productForThisFile,
  screenshot,
  signUpWithPassword,
  uniqueEmail,
} from './harness.js';

// The blog against a folder of 20 small posts (e2e/fixtures/blog): three pages of nine, and one post
// with a table, a task list, unsafe links and raw HTML. Dates are 2025-02-01 … 2025-02-19 and the rich
// post 2025-02-21, newest first: page 1 is the rich post and posts 19 … 12, page 3 posts 02 and 01.

const BLOG_DIR = path.resolve(import.meta.dirname, 'fixtures', 'blog');
const RICH = 'Tables, task lists and unsafe links';

// Pages are closed after each test; a console.error, a page error or an outbound request in any of them
// fails it.
const { product, newPage: open } = productForThisFile(() => ({ BLOG_DIR }));

/**
 * The cards' titles, in order, once the list has arrived — and, given `first`, once the first card
 * reads it. After a page turn react-paginate marks the new page at once, while the router renders the
 * new cards in a transition a moment later; reading the cards before then reads the old page.
 */
async function cardTitles(page: Page, first?: string): Promise<string[]> {
  const firstTitle = page.locator('.blog-card h2').first();
  await (first === undefined ? firstTitle : firstTitle.filter({ hasText: first })).waitFor();
  return page.locator('.blog-card h2').allTextContents();
}

/** The marked page number, once it reads `expected` (after a history move the mark follows a render). */
async function activePage(page: Page, expected: string): Promise<string | null> {
  const current = page.locator('.pagination [aria-current="page"]');
  await current
    .filter({ hasText: new RegExp(`^${expected}$`) })
    .waitFor({ timeout: 5000 })
    .catch(() => {});
  return current.textContent();
}

/**
 * The tab's title, once it reads `expected`: a post names the tab from its data in an effect that runs
 * after the render showing its heading, so a read right after the heading can still see the blog's title.
 */
async function tabTitle(page: Page, expected: string): Promise<string> {
  await page
    .waitForFunction(`document.title === ${JSON.stringify(expected)}`, undefined, { timeout: 5000 })
    .catch(() => {});
  return page.title();
}

describe('the blog in the browser', () => {
  it('lists nine cards a page with their dates, images and links', async () => {
    const page = await open();
    await page.goto(`${product.url}/blog`);
    await page.getByRole('heading', { level: 1, name: 'The Inbox Genie Blog' }).waitFor();
    const titles = await cardTitles(page);
    expect(titles).toEqual([
      RICH,
      ...[19, 18, 17, 16, 15, 14, 13, 12].map((n) => expect.stringContaining(`Fixture post ${n}:`)),
    ]);
    const first = page.locator('.blog-card').first();
    await expect(first.getAttribute('href')).resolves.toBe('/blogDetails/rich-post');
    await expect(first.locator('time').textContent()).resolves.toBe('February 21, 2025');
    await expect(page.locator('.blog-card').nth(8).locator('time').textContent()).resolves.toBe(
      'February 12, 2025',
    );
    // Every card's image is described by its post's title, not the file's own alt text.
    const cards = await page.locator('.blog-card').evaluateAll((els) =>
      els.map((el) => ({
        alt: el.querySelector('img')?.getAttribute('alt') ?? null,
        title: el.querySelector('h2')?.textContent ?? '',
      })),
    );
    for (const card of cards) if (card.alt !== null) expect(card.alt).toBe(card.title);
    const images = page.locator('.blog-card img');
    // Post 19 has no image: its card shows none.
    await expect(images.count()).resolves.toBe(8);
    await expect(
      page.locator('.blog-card').nth(1).getByText('A short summary of fixture post 19').count(),
    ).resolves.toBe(1);
    await expect(activePage(page, '1')).resolves.toBe('1');
    await expect(page.title()).resolves.toBe('Blog — Inbox Genie');
    await screenshot(page, 'blog-1280');
  });

  it('pages with > and <, a page number, and the browser history', async () => {
    const page = await open();
    await page.goto(`${product.url}/blog`);
    await cardTitles(page);
    const labels = await page.locator('.pagination li a').allTextContents();
    expect(labels).toEqual(['<', '1', '2', '3', '>']);

    await page
      .getByRole('button', { name: 'Next page' })
      .or(page.getByRole('link', { name: 'Next page' }))
      .click();
    await page.waitForURL('**/blog?page=2');
    await expect(activePage(page, '2')).resolves.toBe('2');
    expect(await cardTitles(page, 'Fixture post 11')).toEqual(
      [11, 10, 9, 8, 7, 6, 5, 4, 3].map((n) => `Fixture post ${String(n).padStart(2, '0')}: ${topic(n)}`),
    );

    await page.locator('.pagination').getByText('3', { exact: true }).click();
    await page.waitForURL('**/blog?page=3');
    expect(await cardTitles(page, 'Fixture post 02')).toEqual([
      `Fixture post 02: ${topic(2)}`,
      `Fixture post 01: ${topic(1)}`,
    ]);

    await page
      .getByRole('button', { name: 'Previous page' })
      .or(page.getByRole('link', { name: 'Previous page' }))
      .click();
    await page.waitForURL('**/blog?page=2');
    await expect(activePage(page, '2')).resolves.toBe('2');
    // The pagination marks the clicked page at once, before the router's render of ?page=2 is committed;
    // going back before that render would leave the page number the same across it (so react-paginate
    // keeps its own mark). The cards of page 2 show the render is done.
    await cardTitles(page, 'Fixture post 11');

    // Back and forward move between the pages visited.
    await page.goBack();
    await page.waitForURL('**/blog?page=3');
    await expect(activePage(page, '3')).resolves.toBe('3');
    await page.goBack();
    await page.goBack();
    await page.waitForURL(/\/blog$/);
    await expect(activePage(page, '1')).resolves.toBe('1');
    await page.goForward();
    await page.waitForURL('**/blog?page=2');
    expect((await cardTitles(page, 'Fixture post 11'))[0]).toContain('Fixture post 11');

    // A page in the address opens there; one past the end shows the last.
    await page.goto(`${product.url}/blog?page=3`);
    expect(await cardTitles(page)).toHaveLength(2);
    await page.goto(`${product.url}/blog?page=99`);
    await expect(activePage(page, '3')).resolves.toBe('3');
  });

  it('renders a post with its table and task list, empties unsafe addresses and never runs its HTML', async () => {
    const page = await open();
    await page.goto(`${product.url}/blog`);
    await page.locator('.blog-card').filter({ hasText: RICH }).click();
    await page.waitForURL('**/blogDetails/rich-post');
    await page.getByRole('heading', { level: 1, name: RICH }).waitFor();
    await expect(tabTitle(page, `${RICH} — Inbox Genie`)).resolves.toBe(`${RICH} — Inbox Genie`);
    await expect(page.locator('.blog-post time').textContent()).resolves.toBe('February 21, 2025');
    await expect(page.locator('.blog-post-image').getAttribute('src')).resolves.toBe('/blog-images/card.svg');

    const table = page.locator('.blog-body table');
    await expect(table.locator('th').first().textContent()).resolves.toBe('Plan');
    await expect(table.locator('tbody tr').count()).resolves.toBe(2);
    const boxes = page.locator('.blog-body li input[type="checkbox"]');
    await expect(boxes.count()).resolves.toBe(2);
    for (const box of await boxes.all()) await expect(box.isDisabled()).resolves.toBe(true);
    await expect(boxes.nth(0).isChecked()).resolves.toBe(true);
    await expect(boxes.nth(1).isChecked()).resolves.toBe(false);

    await expect(page.getByRole('link', { name: 'Safe link' }).getAttribute('href')).resolves.toBe(
      'https://example.com/safe',
    );
    await expect(page.getByRole('link', { name: 'relative link' }).getAttribute('href')).resolves.toBe(
      '/pricing',
    );
    await expect(page.getByRole('link', { name: 'mail us' }).getAttribute('href')).resolves.toBe(
      'mailto:hi@example.com',
    );
    // javascript: and data: are emptied: an empty href, and an image with no address.
    await expect(page.locator('.blog-body a', { hasText: /^x$/ }).getAttribute('href')).resolves.toBe('');
    await expect(
      page.locator('.blog-body img[alt="y"]').evaluate((img) => img.getAttribute('src') ?? ''),
    ).resolves.toBe('');
    const addresses = await page
      .locator('.blog-body [href], .blog-body [src]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('href') ?? el.getAttribute('src') ?? ''));
    expect(addresses.filter((a) => /^(javascript|data|vbscript):/i.test(a))).toEqual([]);

    // The body image loads lazily and stays inside the column.
    const bodyImage = page.locator('.blog-body img[alt="A body image"]');
    await expect(bodyImage.getAttribute('loading')).resolves.toBe('lazy');

    // Raw HTML is shown as text or dropped, never run.
    await expect(page.locator('.blog-body script').count()).resolves.toBe(0);
    await expect(page.locator('.blog-body img[onerror]').count()).resolves.toBe(0);
    await page.waitForTimeout(300);
    await expect(page.evaluate<unknown>('window.__pwned')).resolves.toBeUndefined();
    await screenshot(page, 'blog-post-1280');
  });

  it('fits 375 px: the list, and a post whose wide table scrolls on its own', async () => {
    const page = await open(375);
    await page.goto(`${product.url}/blog`);
    await cardTitles(page);
    await page.locator('.pagination').waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await screenshot(page, 'blog-375');

    await page.goto(`${product.url}/blogDetails/rich-post`);
    await page.locator('.blog-body table').waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const scroller = page.locator('.blog-table-scroll');
    const { scrollWidth, clientWidth } = await scroller.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    await screenshot(page, 'blog-post-375');
  });

  it('shows the not-found screen for an unknown post', async () => {
    const page = await open();
    await page.goto(`${product.url}/blogDetails/no-such-post`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.goto(`${product.url}/blogDetails/bad%20id!`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });
});

describe('the public site once signed in', () => {
  it('sends a signed-in visitor from the sign-in and sign-up screens to the app', async () => {
    const page = await open();
    await signUpWithPassword(page, product, uniqueEmail('blog-e2e'));
    for (const screen of ['/signin', '/signin/password', '/signup', '/create-account']) {
      await page.goto(`${product.url}${screen}`);
      await page.waitForURL('**/genie/subscriptions');
    }
    // The return path a sign-up link carries still applies.
    await page.goto(`${product.url}/signup?next=${encodeURIComponent('/pricing')}`);
    await page.waitForURL('**/pricing');
  });
});

function topic(n: number): string {
  return [
    'Inbox zero',
    'Newsletters',
    'Unsubscribing',
    'Filters',
    'Privacy',
    'App passwords',
    'Blocking',
    'Weekly review',
    'Labels',
    'Archiving',
    'Digest mail',
    'Receipts',
    'Promotions',
    'Notifications',
    'Spam',
    'Folders',
    'Search',
    'Mobile mail',
    'Shared inboxes',
  ][n - 1]!;
}
