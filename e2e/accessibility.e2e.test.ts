import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/index.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { seedSenders } from '#test/helpers/seed.js';
import { SCREENSHOTS, screenshot, screenshotViewport, withDovecotProduct } from './harness.js';

// Accessibility checked by a tool, not by eye: axe-core (through @axe-core/playwright, loaded only here,
// never in the product's bundle) runs on every screen, public and signed in, with a sender expanded, the
// preview open and dialogs open, at 1280 and 375 px; no violation of serious or critical impact is allowed.
// Then the focus ring of a checkbox, a button, a link, a text field and a select, reached by the keyboard:
// a solid outline of at least 2 px whose colour has 3:1 contrast against what surrounds it (WCAG 2.2).

const { product, open, userWithYahooMailbox } = withDovecotProduct();

const WIDTHS = [1280, 375] as const;
const row = (page: Page, address: string) => page.getByRole('row').filter({ hasText: address });

const newsletter = (name: string, address: string, subject: string, days: number) =>
  rawMessage({
    from: `${name} <${address}>`,
    subject,
    date: daysAgo(days),
    listUnsubscribe: `<mailto:leave@${address.split('@')[1]}>`,
  });

const MAILBOX = [
  newsletter('Weekly Digest', 'weekly@news.example', 'Issue 1', 3),
  newsletter('Weekly Digest', 'weekly@news.example', 'Issue 2', 2),
  newsletter('Shop Deals', 'deals@shop.example', 'Big sale', 4),
  newsletter('Runners Club', 'club@runners.example', 'Sunday run', 6),
  rawMessage({ from: 'Mum <mum@family.example>', subject: 'Sunday?', date: daysAgo(1) }),
];

/** Each screen's serious and critical violations, one line per rule and element, for the failure message. */
async function violations(page: Page, screen: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    // The newsletter inside the preview is the sender's HTML, not ours to fix; the frame itself is checked.
    .exclude('iframe[title="Message preview"]')
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) => `${screen}: ${v.id} (${v.impact}) at ${n.target.join(' ')}: ${n.failureSummary ?? v.help}`,
      ),
    );
}

/** Waits for a screen to have drawn: its h1 shown, and its spinners gone (for at most 5 s). */
async function settle(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await expect
    .poll(() => page.locator('.spinner-border:visible').count(), { timeout: 5_000 })
    .toBe(0)
    .catch(() => undefined);
}

/** Runs axe on what the page shows now and keeps a screenshot of it (`a11y-<name>-<width>`). */
async function check(page: Page, name: string, width: number, found: string[], whole = true) {
  const file = `a11y-${name}-${width}`;
  await (whole ? screenshot(page, file) : screenshotViewport(page, file));
  found.push(...(await violations(page, `${name} at ${width}px`)));
}

const PUBLIC_SCREENS: [string, string][] = [
  ['home', '/'],
  ['pricing', '/pricing'],
  ['how-it-works', '/howitworks'],
  ['about', '/about'],
  ['blog', '/blog'],
  ['sign-in', '/signin'],
  ['sign-in-password', '/signin/password'],
  ['sign-up', '/signup'],
  ['create-account', '/create-account'],
  ['reset-password', '/reset-password'],
  ['reset-password-sent', '/reset-password/sent'],
  ['reset-password-confirm', '/reset-password/confirm?token=abc'],
  ['confirm-email', '/confirm-email?token=abc'],
  ['privacy', '/privacy'],
  ['not-found', '/no-such-page'],
];

const SIGNED_IN_SCREENS: [string, string][] = [
  ['kept', '/genie/kept'],
  ['unsubscribed', '/genie/unsubscribed'],
  ['brands', '/genie/subscriptions?group=brand'],
  ['rules', '/genie/rules'],
  ['activity', '/genie/activity'],
  ['insights', '/genie/insights'],
  ['settings', '/genie/settings'],
  ['accounts', '/genie/accounts'],
  ['add-account', '/genie/add-account'],
  ['add-mailbox', '/add-mailbox?provider=yahoo'],
  ['connect-mailbox', '/connect-mailbox'],
  ['billing', '/genie/billing'],
];

/** A kept and an unsubscribed sender of the mailbox, written into the product's database. */
async function seedOtherLists(email: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl: null, dataDir: product.dataDir });
  try {
    const mailbox = await handle.db
      .selectFrom('mailboxes')
      .select(['id', 'user_id'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const base = { userId: mailbox.user_id, mailboxId: mailbox.id, messageCount: 4, listMessageCount: 4 };
    await seedSenders(handle.db, [
      { ...base, address: 'kept@letters.example', name: 'Kept Letter', category: 'kept' },
      {
        ...base,
        address: 'gone@letters.example',
        name: 'Gone Letter',
        category: 'unsubscribed',
        unsubscribedAt: Date.now() - 86_400_000,
      },
    ]);
  } finally {
    await handle.close();
  }
}

describe.each(WIDTHS)('accessibility at %i px', (width) => {
  it('finds no serious or critical violation on the public screens', { timeout: 120_000 }, async () => {
    const { page } = await open(width);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const found: string[] = [];
    for (const [name, path] of PUBLIC_SCREENS) {
      await page.goto(`${product.url}${path}`);
      await settle(page);
      await check(page, name, width, found);
    }
    // A post of the blog, opened from the list.
    await page.goto(`${product.url}/blog`);
    await page.locator('.blog-card').first().click();
    await page.waitForURL('**/blogDetails/**');
    await settle(page);
    await check(page, 'blog-post', width, found);
    expect(found).toEqual([]);
  });

  it('finds no serious or critical violation on the signed-in screens and dialogs', {
    timeout: 180_000,
  }, async () => {
    const { page, yahoo } = await userWithYahooMailbox('a11y', MAILBOX, { width });
    await row(page, 'club@runners.example').waitFor({ timeout: 20_000 });
    await seedOtherLists(yahoo);
    const found: string[] = [];
    await check(page, 'subscriptions', width, found, false);

    // A sender expanded into its messages, then one of them in the preview.
    await page.getByRole('button', { name: 'Show messages from weekly@news.example' }).click();
    await page.getByRole('button', { name: 'Read Issue 2' }).waitFor();
    await check(page, 'subscriptions-expanded', width, found, false);
    await page.getByRole('button', { name: 'Read Issue 2' }).click();
    const preview = page.getByRole('dialog');
    await preview.getByRole('heading', { name: 'Issue 2' }).waitFor();
    await preview.locator('iframe[title="Message preview"]').waitFor();
    await check(page, 'preview', width, found, false);
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });

    // A row's More menu, then the Organise dialog from it.
    await page.getByRole('button', { name: 'More weekly@news.example' }).click();
    const organiseItem = page.getByRole('menuitem', { name: 'Organise…' });
    await organiseItem.waitFor();
    await check(page, 'more-menu', width, found, false);
    await organiseItem.click();
    const organise = page.getByRole('dialog');
    await organise.waitFor();
    await check(page, 'organise-dialog', width, found, false);
    await page.keyboard.press('Escape');
    await organise.waitFor({ state: 'detached' });

    // A confirmation: Block for a selection of senders (always asked, since it moves mail).
    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page
      .getByRole('region', { name: 'Selected senders' })
      .getByRole('button', { name: 'Block' })
      .click();
    const ask = page.getByRole('dialog').filter({ hasText: /Block \d+ senders\?/ });
    await ask.waitFor();
    await check(page, 'bulk-confirmation', width, found, false);
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });

    for (const [name, path] of SIGNED_IN_SCREENS) {
      await page.goto(`${product.url}${path}`);
      await settle(page);
      await check(page, name, width, found);
    }
    expect(found).toEqual([]);
  });
});

/** What the keyboard's focus ring of the focused element looks like, and its contrast with what is around it. */
interface Ring {
  tag: string;
  width: number;
  style: string;
  contrast: number;
}

// Run in the page (as a string: the e2e files are compiled without the DOM's types). Around the ring is
// the background of the nearest ancestor that paints an opaque one; contrast as WCAG computes it.
const FOCUS_RING = `(() => {
  const el = document.activeElement;
  const css = getComputedStyle(el);
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lin = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  let background = 'rgb(255, 255, 255)';
  for (let around = el.parentElement; around; around = around.parentElement) {
    const c = rgb(getComputedStyle(around).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] === 1)) { background = getComputedStyle(around).backgroundColor; break; }
  }
  const [a, b] = [luminance(rgb(css.outlineColor)), luminance(rgb(background))];
  const type = el.getAttribute('type');
  return {
    tag: el.tagName.toLowerCase() + (type ? '[' + type + ']' : ''),
    width: parseFloat(css.outlineWidth),
    style: css.outlineStyle,
    contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
  };
})()`;

const focusRing = (page: Page): Promise<Ring> => page.evaluate<Ring>(FOCUS_RING);

/** Focuses `target` by the keyboard (Tab from the control before it), as a keyboard user reaches it. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  await target.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect.poll(() => target.and(page.locator(':focus')).count()).toBe(1);
}

/** The control and 24 px around it, at twice the size (`e2e/screenshots/<name>.png`), to see its ring. */
async function closeUp(page: Page, control: Locator, name: string): Promise<void> {
  const box = await control.boundingBox();
  if (!box) throw new Error(`${name}: the control is not on the screen`);
  await page.screenshot({
    path: path.join(SCREENSHOTS, `${name}.png`),
    clip: {
      x: Math.max(0, box.x - 24),
      y: Math.max(0, box.y - 24),
      width: box.width + 48,
      height: box.height + 48,
    },
  });
}

const expectVisibleRing = (ring: Ring) => {
  expect(ring, `${ring.tag}'s focus ring`).toMatchObject({ style: 'solid' });
  expect(ring.width, `${ring.tag}'s focus ring width`).toBeGreaterThanOrEqual(2);
  expect(ring.contrast, `${ring.tag}'s focus ring contrast`).toBeGreaterThanOrEqual(3);
};

describe('focus rings', () => {
  it('shows a solid ring of 2 px or more with 3:1 contrast on each kind of control', async () => {
    // A link, a text field and a button of the public site.
    const { page: site } = await open(1280);
    await site.goto(`${product.url}/signin/password`);
    await settle(site);
    const siteControls: [string, Locator][] = [
      ['site-link', site.getByRole('link', { name: 'Forgot Password?' })],
      ['site-field', site.getByLabel('Email')],
      ['site-button', site.getByRole('button', { name: 'Sign In', exact: true })],
    ];
    for (const [name, control] of siteControls) {
      await tabTo(site, control);
      expectVisibleRing(await focusRing(site));
      await closeUp(site, control, `a11y-focus-${name}-1280`);
    }

    // The signed-in screen's controls, on the light page and on the dark sidebar.
    const { page } = await userWithYahooMailbox('focus', MAILBOX.slice(0, 3));
    await row(page, 'deals@shop.example').waitFor({ timeout: 20_000 });
    const controls: [string, Locator][] = [
      ['checkbox', row(page, 'deals@shop.example').getByRole('checkbox')],
      ['button', page.getByRole('button', { name: 'Keep Subscription deals@shop.example' })],
      ['menu-button', page.getByRole('button', { name: 'More deals@shop.example' })],
      ['sidebar-link', page.getByRole('link', { name: 'Settings' })],
      ['search', page.getByLabel('Search by name or address')],
      ['select', page.getByLabel('Sort')],
    ];
    for (const [name, control] of controls) {
      await tabTo(page, control);
      expectVisibleRing(await focusRing(page));
      await closeUp(page, control, `a11y-focus-${name}-1280`);
    }
  });
});
