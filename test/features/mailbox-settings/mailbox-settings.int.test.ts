import { describe, expect, it } from 'vitest';
import { MESSAGES } from '#contract/validation.js';
import { MAILBOX_SETTINGS_RATE_LIMIT } from '#server/http/routes/mailbox-settings.js';
import { withTestApp } from '#test/fixtures/app.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { autoconfigXml, startAutoconfigServer } from '#test/helpers/autoconfig-server.js';
import { startDnsFake } from '#test/helpers/dns-fake.js';

// GET /mailbox-settings?email=: the IMAP server suggested for an address, found from its domain. Every
// lookup stays on this machine: DNS goes to a small DNS server on 127.0.0.1 (DNS_SERVERS) that knows only
// the names below, and the domains' autoconfig files come from a local HTTPS server whose certificate
// names them. 93.184.216.34 stands for a public address (judged, never contacted); 127.0.0.1 is allowed
// (IMAP_ALLOWED_HOSTS, as self-hosters allow their own hosts), which is how the autoconfig server is reached.

const PUBLIC = '93.184.216.34';
const FILE = '/mail/config-v1.1.xml';
const WELL_KNOWN = '/.well-known/autoconfig/mail/config-v1.1.xml';
const LOCAL = ['127.0.0.1'];

const { dns, web } = peersForThisFile({
  dns: () =>
    startDnsFake({
      // SRV: two IMAPS servers (the lower priority wins) and a STARTTLS one.
      '_imaps._tcp.srv.example.test': {
        SRV: [
          { priority: 20, weight: 0, port: 993, target: 'backup.srv.example.test' },
          { priority: 10, weight: 0, port: 993, target: 'imap.srv.example.test' },
        ],
      },
      '_imap._tcp.srv.example.test': {
        SRV: [{ priority: 0, weight: 0, port: 143, target: 'imap.srv.example.test' }],
      },
      'imap.srv.example.test': { A: [PUBLIC] },
      'backup.srv.example.test': { A: [PUBLIC] },
      // IMAPS explicitly not offered ("."), STARTTLS on 143.
      '_imaps._tcp.starttls.example.test': { SRV: [{ priority: 0, weight: 0, port: 0, target: '.' }] },
      '_imap._tcp.starttls.example.test': {
        SRV: [{ priority: 0, weight: 0, port: 143, target: 'mail.starttls.example.test' }],
      },
      'mail.starttls.example.test': { AAAA: ['2606:2800:220:1::1'] },
      // SRV records pointing inside: a private network and the cloud metadata address.
      '_imaps._tcp.inside.example.test': {
        SRV: [
          { priority: 10, weight: 0, port: 993, target: 'intranet.inside.example.test' },
          { priority: 20, weight: 0, port: 993, target: 'metadata.inside.example.test' },
        ],
      },
      'intranet.inside.example.test': { A: ['10.0.0.7'] },
      'metadata.inside.example.test': { A: ['169.254.169.254'] },
      // Autoconfig files: at autoconfig.<domain>, at the domain's well-known path, one naming a private host.
      'autoconfig.sub.example.test': { A: LOCAL },
      'imap.sub.example.test': { A: [PUBLIC] },
      'known.example.test': { A: LOCAL },
      'mail.known.example.test': { A: [PUBLIC] },
      'autoconfig.lan.example.test': { A: LOCAL },
      'mail.lan.example.test': { A: ['192.168.1.5'] },
      // A domain whose web server never answers, and two whose files are hostile.
      'autoconfig.slow.example.test': { A: LOCAL },
      'autoconfig.huge.example.test': { A: LOCAL },
      'autoconfig.laughs.example.test': { A: LOCAL },
      'imap.huge.example.test': { A: [PUBLIC] },
      'imap.laughs.example.test': { A: [PUBLIC] },
      // A company's domain whose mail is at Google (MX), with no SRV records or file of its own.
      'workspace.example.test': { MX: [{ priority: 1, exchange: 'aspmx.l.google.com' }] },
    }),
  web: () =>
    startAutoconfigServer([
      'autoconfig.sub.example.test',
      'known.example.test',
      'autoconfig.lan.example.test',
      'autoconfig.slow.example.test',
      'autoconfig.huge.example.test',
      'autoconfig.laughs.example.test',
    ]),
});

describe.each(DIALECTS)('IMAP settings suggested from the address on %s', (dialect) => {
  const t = withTestApp(
    dialect,
    () => ({ DNS_SERVERS: dns.address, IMAP_ALLOWED_HOSTS: '127.0.0.1' }),
    () => ({ autoconfigPort: web.port }),
  );

  async function signedIn(): Promise<Client> {
    const c = new Client(t.app);
    await c.call('POST /auth/signup', { body: { email: uniqueEmail(), password: 'long enough' } });
    return c;
  }
  const suggest = async (email: string, c?: Client) =>
    (c ?? (await signedIn())).call('GET /mailbox-settings', { query: { email } });

  it('takes the SRV records: IMAPS at the lowest priority, or STARTTLS when IMAPS is "."', async () => {
    const c = await signedIn();
    expect(await suggest('joe@srv.example.test', c)).toEqual({
      imap: { host: 'imap.srv.example.test', port: 993, secure: true },
      source: 'srv',
    });
    expect(await suggest('ann@StartTLS.example.test', c)).toEqual({
      imap: { host: 'mail.starttls.example.test', port: 143, secure: false },
      source: 'srv',
    });
  });

  it('reads the autoconfig file at autoconfig.<domain>, and at the domain’s well-known path', async () => {
    web.respond('autoconfig.sub.example.test', FILE, {
      body: autoconfigXml({ hostname: 'imap.%EMAILDOMAIN%', port: 993, socketType: 'SSL' }),
    });
    web.respond('known.example.test', WELL_KNOWN, {
      body: autoconfigXml({ hostname: 'mail.known.example.test', port: 143, socketType: 'STARTTLS' }),
    });
    const c = await signedIn();
    expect(await suggest('joe@sub.example.test', c)).toEqual({
      imap: { host: 'imap.sub.example.test', port: 993, secure: true },
      source: 'autoconfig',
    });
    expect(await suggest('joe@known.example.test', c)).toEqual({
      imap: { host: 'mail.known.example.test', port: 143, secure: false },
      source: 'autoconfig',
    });
    expect(web.requests).toContain(`known.example.test ${WELL_KNOWN}`);
  });

  it('never suggests a host at a private address, from SRV records or from a file', async () => {
    web.respond('autoconfig.lan.example.test', FILE, {
      body: autoconfigXml({ hostname: 'mail.lan.example.test', port: 993, socketType: 'SSL' }),
    });
    const c = await signedIn();
    expect(await suggest('joe@inside.example.test', c)).toEqual({ imap: null, source: null });
    // Both SRV targets were looked at, and refused for where they point.
    expect(dns.questions).toEqual(
      expect.arrayContaining(['A intranet.inside.example.test', 'A metadata.inside.example.test']),
    );
    expect(await suggest('joe@lan.example.test', c)).toEqual({ imap: null, source: null });
  });

  it('gives up on an autoconfig server that never answers within a few seconds', async () => {
    web.respond('autoconfig.slow.example.test', FILE, { hang: true });
    const started = Date.now();
    expect(await suggest('joe@slow.example.test')).toEqual({ imap: null, source: null });
    expect(Date.now() - started).toBeLessThan(4500);
    expect(web.requests).toContain(`autoconfig.slow.example.test ${FILE}`);
  });

  it('ignores an oversized file and one with a DTD (entities are never expanded)', async () => {
    const valid = autoconfigXml({ hostname: 'imap.%EMAILDOMAIN%', port: 993, socketType: 'SSL' });
    web.respond('autoconfig.huge.example.test', FILE, {
      body: valid.replace('<clientConfig', `<!-- ${'x'.repeat(40_000)} --><clientConfig`),
    });
    const laughs = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE clientConfig [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">',
      '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY host SYSTEM "file:///etc/hostname">]>',
      valid
        .replace('<?xml version="1.0" encoding="UTF-8"?>', '')
        .replace('imap.%EMAILDOMAIN%', 'imap.laughs.example.test&c;'),
    ].join('\n');
    web.respond('autoconfig.laughs.example.test', FILE, { body: laughs });
    const c = await signedIn();
    expect(await suggest('joe@huge.example.test', c)).toEqual({ imap: null, source: null });
    expect(await suggest('joe@laughs.example.test', c)).toEqual({ imap: null, source: null });
  });

  it('falls back on the built-in table: by the address domain, then by the domain’s MX hosts', async () => {
    const c = await signedIn();
    expect(await suggest('joe@yahoo.com', c)).toEqual({
      imap: { host: 'imap.mail.yahoo.com', port: 993, secure: true },
      source: 'table',
    });
    expect(await suggest('joe@workspace.example.test', c)).toEqual({
      imap: { host: 'imap.gmail.com', port: 993, secure: true },
      source: 'table',
    });
  });

  it('answers no suggestion when nothing is found', async () => {
    expect(await suggest('joe@nothing.example.test')).toEqual({ imap: null, source: null });
  });

  it('is for signed-in users, checks the address, and is rate-limited per user', async () => {
    const stranger = new Client(t.app);
    await stranger.call('GET /mailbox-settings', { query: { email: 'joe@srv.example.test' }, status: 403 });
    const c = await signedIn();
    const bad = await c.call('GET /mailbox-settings', { query: { email: 'not an address' }, status: 400 });
    expect(bad.message).toBe(MESSAGES.invalidEmail);
    for (let i = 0; i < MAILBOX_SETTINGS_RATE_LIMIT.max; i++) await suggest('joe@srv.example.test', c);
    const limited = await c.call('GET /mailbox-settings', {
      query: { email: 'joe@srv.example.test' },
      status: 429,
    });
    expect(limited.message).toBe(MESSAGES.tooManyRequests);
  });
});
