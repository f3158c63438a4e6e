import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ONE_CLICK_BODY, oneClickUnsubscribe } from '#server/features/unsubscribe/one-click-request.js';
import { parseHostList } from '#server/lib/address-policy.js';
import { certDir, type HttpsSender, startHttpsSender } from '#test/helpers/https-sender.js';

// RFC 8058 one-click against a local HTTPS sender whose certificate comes from the test CA, trusted
// only through NODE_EXTRA_CA_CERTS (set by test/helpers/global-setup.ts before the workers start).

let sender: HttpsSender;
/** A second listener on 127.0.0.2: a forbidden redirect target that must never see a connection. */
let internal: HttpsSender;
const allowed = parseHostList('127.0.0.1');

beforeAll(async () => {
  sender = await startHttpsSender();
  internal = await startHttpsSender({ host: '127.0.0.2' });
});

afterAll(async () => {
  await sender.close();
  await internal.close();
});

afterEach(() => {
  sender.requests.length = 0;
  sender.connections = 0;
  internal.requests.length = 0;
  internal.connections = 0;
});

describe('one-click POST as the sender sees it', () => {
  it('posts exactly List-Unsubscribe=One-Click, form-encoded, without cookies or credentials', async () => {
    sender.respond('/u/abc?t=1', { status: 200 });
    const receipt = await oneClickUnsubscribe(`${sender.origin}/u/abc?t=1`, { allowedHosts: allowed });
    expect(receipt).toMatchObject({
      method: 'one-click',
      target: `${sender.origin}/u/abc?t=1`,
      ok: true,
      httpStatus: 200,
      error: null,
    });
    expect(Number.isNaN(Date.parse(receipt.at))).toBe(false);
    expect(sender.requests).toHaveLength(1);
    const [req] = sender.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/u/abc?t=1', body: ONE_CLICK_BODY });
    expect(req!.body).toBe('List-Unsubscribe=One-Click');
    expect(req!.contentType).toBe('application/x-www-form-urlencoded');
    expect(req!.cookie).toBeUndefined();
    expect(req!.authorization).toBeUndefined();
  });

  it('counts 202 as success too', async () => {
    sender.respond('/accepted', { status: 202 });
    const receipt = await oneClickUnsubscribe(`${sender.origin}/accepted`, { allowedHosts: allowed });
    expect(receipt).toMatchObject({ ok: true, httpStatus: 202, error: null });
  });

  it('reports a 500 as a failure without throwing', async () => {
    sender.respond('/broken', { status: 500 });
    const receipt = await oneClickUnsubscribe(`${sender.origin}/broken`, { allowedHosts: allowed });
    expect(receipt).toMatchObject({ ok: false, httpStatus: 500 });
    expect(receipt.error).toMatch(/500/);
  });

  it('gives up on a hanging endpoint after the timeout', async () => {
    sender.respond('/hang', { hang: true });
    const t0 = Date.now();
    const receipt = await oneClickUnsubscribe(`${sender.origin}/hang`, {
      allowedHosts: allowed,
      timeoutMs: 300,
    });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(receipt).toMatchObject({ ok: false, httpStatus: null });
    expect(receipt.error).toMatch(/Timed out/);
    expect(sender.requests).toHaveLength(1);
  });

  it('follows a 307 to the same sender, keeping the POST', async () => {
    sender.respond('/old', { status: 307, redirectTo: '/new' });
    sender.respond('/new', { status: 200 });
    const receipt = await oneClickUnsubscribe(`${sender.origin}/old`, { allowedHosts: allowed });
    expect(receipt).toMatchObject({ ok: true, httpStatus: 200 });
    expect(sender.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/old', ONE_CLICK_BODY],
      ['POST', '/new', ONE_CLICK_BODY],
    ]);
  });
});

describe('what one-click refuses', () => {
  it('refuses plain http (RFC 8058 §3.1)', async () => {
    const receipt = await oneClickUnsubscribe(`http://127.0.0.1:${sender.port}/u`, { allowedHosts: allowed });
    expect(receipt).toMatchObject({ ok: false, httpStatus: null });
    expect(receipt.error).toMatch(/https/);
    expect(sender.connections).toBe(0);
  });

  it.each([
    'https://127.0.0.1:PORT/u',
    'https://2130706433:PORT/u',
    'https://0x7f000001:PORT/u',
    'https://[::ffff:127.0.0.1]:PORT/u',
    'https://localhost:PORT/u',
  ])('the SSRF guard refuses %s when not allowed, before connecting', async (spelling) => {
    const receipt = await oneClickUnsubscribe(spelling.replace('PORT', String(sender.port)));
    expect(receipt).toMatchObject({ ok: false, httpStatus: null });
    expect(receipt.error).toMatch(/^Refused: .*may not contact/);
    expect(sender.connections).toBe(0);
    expect(sender.requests).toHaveLength(0);
  });

  it('refuses a redirect from the allowed sender to 127.0.0.2 at the hop', async () => {
    sender.respond('/to-internal', { status: 307, redirectTo: `${internal.origin}/admin` });
    const receipt = await oneClickUnsubscribe(`${sender.origin}/to-internal`, { allowedHosts: allowed });
    expect(receipt).toMatchObject({ ok: false, httpStatus: null });
    expect(receipt.error).toMatch(/^Refused: 127\.0\.0\.2/);
    expect(sender.requests).toHaveLength(1);
    expect(internal.connections).toBe(0);
  });

  it('refuses a redirect to the metadata address at the hop', async () => {
    sender.respond('/to-metadata', { redirectTo: 'http://169.254.169.254/latest/meta-data/' });
    const receipt = await oneClickUnsubscribe(`${sender.origin}/to-metadata`, { allowedHosts: allowed });
    expect(receipt).toMatchObject({ ok: false, httpStatus: null });
    expect(receipt.error).toMatch(/^Refused: 169\.254\.169\.254/);
  });

  it('refuses a redirect to 127.0.0.2 spelled as a decimal number', async () => {
    // 2130706434 is 127.0.0.2; the URL parser normalises it, the connector refuses it.
    sender.respond('/to-decimal', { status: 308, redirectTo: `https://2130706434:${internal.port}/` });
    const receipt = await oneClickUnsubscribe(`${sender.origin}/to-decimal`, { allowedHosts: allowed });
    expect(receipt.error).toMatch(/^Refused: 127\.0\.0\.2/);
    expect(internal.connections).toBe(0);
  });
});

describe('TLS through NODE_EXTRA_CA_CERTS', () => {
  it('the worker was started with the test CA (set in globalSetup)', () => {
    const file = process.env.NODE_EXTRA_CA_CERTS;
    expect(file).toBe(path.join(certDir(), 'ca.crt'));
    expect(readFileSync(file!, 'utf8')).toContain('BEGIN CERTIFICATE');
  });

  it('fails against a certificate from an unknown CA', async () => {
    const rogue = await startHttpsSender({ cert: 'rogue-leaf' });
    try {
      const receipt = await oneClickUnsubscribe(`${rogue.origin}/u`, { allowedHosts: allowed });
      expect(receipt).toMatchObject({ ok: false, httpStatus: null });
      expect(receipt.error).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|self.signed|unable to verify/i);
      expect(rogue.requests).toHaveLength(0);
    } finally {
      await rogue.close();
    }
  });
});
