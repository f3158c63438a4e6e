import { describe, expect, it } from 'vitest';
import type { DnsResolver } from '#server/lib/dns-resolver.js';
import { dkimSign, dkimTxtRecord, TEST_SELECTOR } from '#test/helpers/dkim.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { verifyOneClickSignature } from './dkim.js';

// The rule of RFC 8058 §3.1 on messages signed as senders sign them, with the key published by a resolver
// that answers for every domain (and one that has no key at all).

const URI = 'https://shop.example/u/1';
const SENDER = 'news@shop.example';
const published: DnsResolver = async (name) => {
  if (name.startsWith(`${TEST_SELECTOR}._domainkey.`)) return [[dkimTxtRecord()]];
  throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
};
const unsigned = (extra: Partial<Parameters<typeof rawMessage>[0]> = {}) =>
  rawMessage({
    from: `Shop <${SENDER}>`,
    subject: 'Sale',
    date: daysAgo(1),
    listUnsubscribe: `<${URI}>`,
    listUnsubscribePost: 'List-Unsubscribe=One-Click',
    dkim: false,
    ...extra,
  });
const verify = (raw: string, resolver = published) =>
  verifyOneClickSignature(Buffer.from(raw), SENDER, URI, resolver);

describe('verifyOneClickSignature', () => {
  it("passes a message signed by the sender's domain over both fields, and names the domain", async () => {
    expect(await verify(dkimSign(unsigned()))).toEqual({ ok: true, domain: 'shop.example', result: 'pass' });
    // A parent domain's signature aligns (relaxed alignment).
    const parent = rawMessage({
      from: 'Shop <news@mail.shop.example>',
      subject: 'Sale',
      date: daysAgo(1),
      listUnsubscribe: `<${URI}>`,
      listUnsubscribePost: 'List-Unsubscribe=One-Click',
      dkim: false,
    });
    const ok = await verifyOneClickSignature(
      Buffer.from(dkimSign(parent, { domain: 'shop.example' })),
      'news@mail.shop.example',
      URI,
      published,
    );
    expect(ok.ok).toBe(true);
  });

  it('refuses a message without a signature (a forgery needs none)', async () => {
    expect(await verify(unsigned())).toEqual({ ok: false, domain: null, result: 'no DKIM signature' });
  });

  it("refuses another domain's valid signature", async () => {
    const verdict = await verify(dkimSign(unsigned(), { domain: 'bulk-mailer.example' }));
    expect(verdict).toMatchObject({ ok: false, domain: 'bulk-mailer.example' });
    expect(verdict.result).toMatch(/not for the sender/);
  });

  it('refuses a signature whose h= leaves out List-Unsubscribe-Post or List-Unsubscribe', async () => {
    for (const left of ['list-unsubscribe-post', 'list-unsubscribe']) {
      const fields = [
        'from',
        'to',
        'subject',
        'date',
        'message-id',
        'list-unsubscribe',
        'list-unsubscribe-post',
      ];
      const verdict = await verify(dkimSign(unsigned(), { fields: fields.filter((f) => f !== left) }));
      expect(verdict, left).toMatchObject({
        ok: false,
        result: 'pass, but the List-Unsubscribe fields are not signed',
      });
    }
  });

  it('refuses a List-Unsubscribe added above the signed one, and a body or field changed after signing', async () => {
    const signed = dkimSign(unsigned());
    const added = signed.replace('From:', `List-Unsubscribe: <https://evil.example/u>\r\nFrom:`);
    expect((await verify(added)).ok).toBe(false);
    const changed = signed.replace(`<${URI}>`, '<https://shop.example/u/2>');
    expect(
      (await verifyOneClickSignature(Buffer.from(changed), SENDER, 'https://shop.example/u/2', published)).ok,
    ).toBe(false);
    expect((await verify(signed.replace('never stored', 'rewritten'))).ok).toBe(false);
  });

  it('refuses a message from another sender, or without this link, or when the key is not published', async () => {
    const signed = dkimSign(unsigned());
    expect(
      (await verifyOneClickSignature(Buffer.from(signed), 'other@shop.example', URI, published)).ok,
    ).toBe(false);
    expect(
      (await verifyOneClickSignature(Buffer.from(signed), SENDER, 'https://shop.example/x', published)).ok,
    ).toBe(false);
    const none: DnsResolver = async (name) => {
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    };
    expect(await verify(signed, none)).toMatchObject({ ok: false, domain: 'shop.example' });
  });
});
