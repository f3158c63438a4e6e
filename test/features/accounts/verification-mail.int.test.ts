import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, it, vi } from 'vitest';
import { withTestApp } from '#test/fixtures/app.js';
import { Client, DIALECTS, type TestApp, uniqueEmail } from '#test/helpers/app.js';

// The mail that proves an address at sign-up (docs/decisions/102-settings-that-say-what-they-do.md): a
// text part and an HTML part saying the same, the same link in both, and nothing of how the product
// treats unconfirmed accounts.

const SUBJECT = 'Confirm your email address for Inbox Genie';

/** The verification mail to `email` in the outbox, as bytes and parsed, once it has been written. */
async function verificationMail(t: TestApp, email: string) {
  const dir = path.join(t.dataDir, 'outbox');
  return vi.waitFor(
    async () => {
      for (const name of await readdir(dir).catch(() => [])) {
        const raw = await readFile(path.join(dir, name));
        const parsed = await simpleParser(raw);
        if (
          parsed.subject === SUBJECT &&
          parsed.to &&
          !Array.isArray(parsed.to) &&
          parsed.to.text === email
        ) {
          return { raw: raw.toString('utf8'), parsed };
        }
      }
      throw new Error(`no verification mail to ${email} yet`);
    },
    { timeout: 5000 },
  );
}

describe.each(DIALECTS)('the verification mail on %s', (dialect) => {
  const t = withTestApp(dialect);

  it('has a text part and an HTML part with the same working link, and no policy text', async () => {
    const client = new Client(t.app);
    const email = uniqueEmail('verify');
    expect((await client.post('/auth/signup', { email, password: 'long enough' })).statusCode).toBe(200);
    const { raw, parsed } = await verificationMail(t, email);

    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/im);
    expect(raw).toMatch(/^Content-Type: text\/plain/im);
    expect(raw).toMatch(/^Content-Type: text\/html/im);
    const text = parsed.text ?? '';
    const html = typeof parsed.html === 'string' ? parsed.html : '';
    expect(html).not.toBe('');

    const linkPattern = /http:\/\/[^\s"<]+\/confirm-email\?token=([A-Za-z0-9_%-]+)/;
    const inText = linkPattern.exec(text);
    const inHtml = linkPattern.exec(html);
    expect(inText?.[1]).toBeDefined();
    expect(inHtml?.[1]).toBe(inText?.[1]);
    expect(html).toContain('>Confirm my address</a>');
    for (const part of [text, html]) {
      expect(part).toContain('Please confirm that this address is yours');
      expect(part).toContain('The link works for 24 hours');
      expect(part).toContain('If you did not create an Inbox Genie account, ignore this mail.');
      // How unconfirmed accounts are handled is the product's business, not the reader's.
      expect(part).not.toMatch(/handed to|whoever proves|not confirmed is/i);
    }
    // The HTML part holds no script and no remote resource: inline styles only.
    expect(html).not.toMatch(/<script|<img|<link|src=/i);

    // The link of the HTML part proves the address, in the browser that signed up.
    const token = decodeURIComponent(inHtml![1]!);
    expect((await client.post('/auth/verify-email', { token })).statusCode).toBe(200);
    expect((await client.call('GET /auth/email-verification')).emailVerified).toBe(true);
  });
});
