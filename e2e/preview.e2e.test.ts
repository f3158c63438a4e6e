import type { Frame, Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { daysAgo } from '#test/helpers/mail.js';
import {
  addYahooMailbox,
  type OpenedPage,
  screenshot,
  signUpWithPassword,
  uniqueEmail,
  withDovecotProduct,
} from './harness.js';

// Reading a newsletter in the browser: a hostile HTML message on a real Dovecot opens in the
// preview modal with its scripts and event handlers gone, inside a frame sandboxed without scripts,
// and its remote images are not requested until the user asks for them (checked in Chromium).

const PASSWORD = 'app password 1';
const IMAGES_HOST = 'images.example';
const SUBJECT = 'Big news issue 7';

const { dovecot, product, open: openTracked } = withDovecotProduct();
const HOSTILE_HTML = [
  '<!doctype html><html><head><title>Newsletter</title></head><body>',
  '<h1>Big news</h1>',
  `<script>document.title='pwned';parent.postMessage('x','*')</script>`,
  `<img src="https://${IMAGES_HOST}/track.png" alt="tracker" onerror="parent.document.title='pwned'">`,
  '<p onclick="alert(1)">Our best stories of the week.</p>',
  '<p><a href="https://news.example/read">Read online</a></p>',
  '</body></html>',
].join('\r\n');

/** A multipart/alternative newsletter whose HTML part carries a script, handlers and a remote image. */
function htmlNewsletter(): string {
  const boundary = `b-${Date.now()}`;
  return [
    'From: Big News <news@bignews.example>',
    'To: someone@example.com',
    `Subject: ${SUBJECT}`,
    `Date: ${daysAgo(1).toUTCString()}`,
    `Message-ID: <preview-${Date.now()}@bignews.example>`,
    'List-Unsubscribe: <https://bignews.example/unsubscribe>',
    'List-Id: <news.bignews.example>',
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Big news. Read online: https://news.example/read',
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    '',
    HOSTILE_HTML,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

/** A newsletter laid out for a 600 px column (a fixed-width table), with a long headline. */
function wideNewsletter(): string {
  const html = [
    '<html><body style="margin:0">',
    '<table width="600" cellpadding="0" cellspacing="0" style="width:600px"><tr><td style="font-size:18px">',
    '<h1>Extraordinarily comprehensive weekly newsletter headline</h1>',
    '<p>Everything that happened this week, laid out for a six hundred pixel column.</p>',
    '</td></tr></table></body></html>',
  ].join('');
  return [
    'From: Wide Weekly <wide@wide.example>',
    'To: someone@example.com',
    'Subject: Wide issue 1',
    `Date: ${daysAgo(2).toUTCString()}`,
    `Message-ID: <wide-${Date.now()}@wide.example>`,
    'List-Unsubscribe: <https://wide.example/unsubscribe>',
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    html,
    '',
  ].join('\r\n');
}

/** A new account with a new Yahoo mailbox (on Dovecot) holding the hostile newsletter (and the wide one). */
async function userWithNewsletter(expectServerErrors: number[] = [], width = 1280): Promise<OpenedPage> {
  const stamp = Date.now();
  const yahoo = `preview-e2e-${stamp}@yahoo.com`;
  await dovecot.addUser({ user: yahoo, password: PASSWORD });
  await dovecot.deliver(yahoo, 'INBOX', htmlNewsletter());
  await dovecot.deliver(yahoo, 'INBOX', wideNewsletter());
  const o = await openTracked(width, { expectOutbound: [IMAGES_HOST], expectServerErrors });
  const { page } = o;
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await signUpWithPassword(page, product, uniqueEmail('reader'));
  await addYahooMailbox(page, product, yahoo, PASSWORD);
  await page.getByRole('row').filter({ hasText: 'news@bignews.example' }).waitFor();
  return o;
}

/** The preview frame once its document has loaded (the loader gone). */
async function previewFrame(page: Page): Promise<Frame> {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('status').filter({ hasText: 'Loading preview…' }).waitFor({ state: 'detached' });
  const handle = await dialog.locator('iframe[title="Message preview"]').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the preview frame has no document');
  await frame.waitForLoadState('load');
  return frame;
}

describe('previewing a message in the browser', () => {
  it('shows a hostile newsletter without scripts or remote images until asked', async () => {
    const o = await userWithNewsletter();
    const { page } = o;
    const imageRequests: string[] = [];
    page.on('request', (request: Request) => {
      if (new URL(request.url()).hostname === IMAGES_HOST) imageRequests.push(request.url());
    });
    const messages: unknown[] = [];
    await page.exposeFunction('__recordMessage', (data: unknown) => messages.push(data));
    await page.evaluate(`window.addEventListener('message', (e) => window.__recordMessage(e.data))`);
    const title = await page.title();

    await page.getByRole('button', { name: 'Show messages from news@bignews.example' }).click();
    await page.getByRole('button', { name: `Read ${SUBJECT}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: SUBJECT }).waitFor();
    const frame = await previewFrame(page);

    // The frame is sandboxed without scripts (and without the page's origin).
    const iframe = dialog.locator('iframe[title="Message preview"]');
    const sandbox = await iframe.getAttribute('sandbox');
    expect(sandbox).not.toBeNull();
    const tokens = (sandbox ?? '').split(/\s+/);
    expect(tokens).not.toContain('allow-scripts');
    expect(tokens).not.toContain('allow-same-origin');

    // What the frame holds: the text and the link, no script, no handler, no remote image.
    const preview = page.frameLocator('iframe[title="Message preview"]');
    await preview.getByText('Our best stories of the week.').waitFor();
    await expect(preview.locator('script').count()).resolves.toBe(0);
    const link = preview.getByRole('link', { name: 'Read online' });
    await expect(link.getAttribute('target')).resolves.toBe('_blank');
    expect(await link.getAttribute('rel')).toMatch(/noopener/);
    const content = await frame.content();
    expect(content).not.toMatch(/<script/i);
    expect(content).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
    expect(content).not.toContain(`${IMAGES_HOST}/track.png`);

    // Nothing ran and nothing was fetched.
    expect(await page.title()).toBe(title);
    expect(messages).toEqual([]);
    expect(imageRequests).toEqual([]);
    expect(o.blocked).toEqual([]);
    await screenshot(page, 'preview-1280');

    // At 375 px the frame takes the whole width.
    await page.setViewportSize({ width: 375, height: 812 });
    const box = await iframe.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(370);
    await screenshot(page, 'preview-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Asked for, the remote image is requested (the harness aborts it: tests never go online).
    const imageRequested = page.waitForEvent('request', (r) => new URL(r.url()).hostname === IMAGES_HOST);
    await dialog.getByRole('button', { name: 'Load images' }).click();
    await imageRequested;
    await previewFrame(page);
    await dialog.getByRole('button', { name: 'Load images' }).waitFor({ state: 'detached' });
    expect(imageRequests).toContain(`https://${IMAGES_HOST}/track.png`);
    expect(o.blocked).toContain(`https://${IMAGES_HOST}/track.png`);
    await expect(preview.locator('script').count()).resolves.toBe(0);
    expect(await frame.content()).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
    expect(await page.title()).toBe(title);
    expect(messages).toEqual([]);

    await dialog.locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('fits a 600 px newsletter into a phone, with the sender, the date, Keep and Unsubscribe in its header', async () => {
    const { page } = await userWithNewsletter([], 375);
    await page.getByRole('button', { name: 'Show messages from wide@wide.example' }).click();
    await page.getByRole('button', { name: 'Read Wide issue 1' }).click();
    const dialog = page.getByRole('dialog');
    const header = dialog.locator('.modal-header');
    await header.getByRole('heading', { name: 'Wide issue 1' }).waitFor();
    const from = header.locator('.message-preview-from');
    await expect(from.textContent()).resolves.toContain('Wide Weekly');
    await expect(from.textContent()).resolves.toContain('wide@wide.example');
    await expect(from.textContent()).resolves.toMatch(/Nov(ember)? 18|18 Nov/);
    await header.getByRole('button', { name: 'Keep Subscription wide@wide.example' }).waitFor();
    await header.getByRole('button', { name: 'Unsubscribe wide@wide.example' }).waitFor();

    const frame = await previewFrame(page);
    await frame.getByText('Everything that happened this week').waitFor();
    // The message is laid out at its 600 px and scaled to the frame: nothing is cut off at either side.
    const inside = await frame.evaluate<{ scroll: number; client: number }>(
      '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
    );
    expect(inside.scroll).toBeLessThanOrEqual(inside.client);
    const iframe = await dialog.locator('iframe[title="Message preview"]').boundingBox();
    expect(iframe?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((iframe?.x ?? 0) + (iframe?.width ?? 999)).toBeLessThanOrEqual(375);
    const headline = await frame.locator('h1').boundingBox();
    // Measured in the frame's own (unscaled) pixels: the 600 px column is all there.
    expect((headline?.x ?? 0) + (headline?.width ?? 999)).toBeLessThanOrEqual(inside.client);
    // The frame is still sandboxed as before.
    const sandbox = (await dialog.locator('iframe[title="Message preview"]').getAttribute('sandbox')) ?? '';
    expect(sandbox.split(/\s+/)).not.toContain('allow-scripts');
    expect(sandbox.split(/\s+/)).not.toContain('allow-same-origin');
    await screenshot(page, 'preview-wide-375');

    // Keep from the header: the preview closes and the sender leaves the review list.
    await header.getByRole('button', { name: 'Keep Subscription wide@wide.example' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: 'wide@wide.example' }).waitFor({ state: 'detached' });
  });

  it('says why a preview failed, in the modal, with a Retry; and a gone message in words', async () => {
    const { page } = await userWithNewsletter([502]);
    const reason = 'Could not reach the mail server at imap.mail.yahoo.com:993.';
    let answer: { status: number; message: string } | null = { status: 502, message: reason };
    await page.route('**/get-message-preview', (route) => {
      if (!answer) return route.fallback();
      const { status, message } = answer;
      answer = null;
      return route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ message }) });
    });
    const browserDialogs: string[] = [];
    page.on('dialog', (d) => {
      browserDialogs.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('button', { name: 'Show messages from news@bignews.example' }).click();
    await page.getByRole('button', { name: `Read ${SUBJECT}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByRole('alert')
      .filter({ hasText: `Failed to load the preview: ${reason}` })
      .waitFor();
    await screenshot(page, 'preview-failed-1280');
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await previewFrame(page);
    await expect(dialog.getByRole('alert').count()).resolves.toBe(0);
    await dialog.locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The message is gone (404): said in the modal, without a Retry.
    answer = { status: 404, message: 'Message not found' };
    await page.getByRole('button', { name: `Read ${SUBJECT}` }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: 'Preview not found, please check your email for the message' })
      .waitFor();
    await expect(dialog.getByRole('button', { name: 'Retry' }).count()).resolves.toBe(0);
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot(page, 'preview-not-found-375');
    expect(browserDialogs).toEqual([]);
  });
});
