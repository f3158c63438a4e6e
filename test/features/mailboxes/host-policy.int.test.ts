import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseHostList } from '#server/lib/address-policy.js';
import { SecretBox } from '#server/lib/crypto.js';
import { MailHostForbiddenError } from '#server/mail/imap/connection.js';
import { createProviderFactory } from '#server/mail/index.js';
import { withTestApp } from '#test/fixtures/app.js';
import { withDovecot } from '#test/fixtures/peers.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { startSmtpPeer } from '#test/helpers/smtp-peer.js';

// Mail server hosts are resolved and judged at every connect (DNS rebinding, a name re-pointed at a
// private address after the mailbox was added). The test plays DNS with an injected resolver: the
// names below exist only in its table, so a connection that works went to the address it judged.
// 127.0.0.1 (Dovecot, the SMTP peer) is allowed by IMAP_ALLOWED_HOSTS; 127.0.0.2 is not, and a trap
// listens there on the same ports to see whether anything still connects.

const dns = new Map<string, string[]>();
const asked: string[] = [];
async function lookup(host: string): Promise<string[]> {
  asked.push(host);
  const answer = dns.get(host);
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer;
}

/** A listener on 127.0.0.2 that counts the connections it gets. */
async function trap(port: number): Promise<{ connections: number; close(): Promise<void> }> {
  const state = { connections: 0 };
  const server: Server = createServer((socket) => {
    state.connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.2', resolve);
  });
  return Object.assign(state, {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

const dovecot = withDovecot();

describe.each(DIALECTS)('a custom IMAP host on %s', (dialect) => {
  // No preview connection is kept (mailPoolIdleMs 0), so each preview connects, and is judged, anew: a kept
  // one goes on talking to the address judged when it opened (docs/decisions/089-pooled-mail-connections.md).
  const t = withTestApp(
    dialect,
    () => ({ IMAP_ALLOWED_HOSTS: '127.0.0.1' }),
    () => ({ lookup, mailPoolIdleMs: 0 }),
  );

  it('is refused on scan and preview once it resolves to an address that is not allowed, though it was allowed when added', async () => {
    const host = `imap-${randomBytes(4).toString('hex')}.custom.test`;
    dns.set(host, ['127.0.0.1']);
    const email = uniqueEmail('rebind');
    const password = 'app-password-rebind';
    await dovecot.addUser({ user: email, password });
    for (const n of [2, 1]) {
      await dovecot.deliver(
        email,
        'INBOX',
        rawMessage({
          from: 'Daily News <news@daily.example>',
          subject: `Issue ${n}`,
          date: daysAgo(n),
          listUnsubscribe: '<https://daily.example/u/1>',
        }),
      );
    }
    const client = new Client(t.app);
    expect(
      (await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' })).statusCode,
    ).toBe(200);
    const added = await client.post('/auth/imap', {
      email,
      appPassword: password,
      host,
      port: dovecot.port,
      secure: false,
    });
    expect(added.json()).toEqual({ redirectUrl: expect.any(String) });
    await t.app.jobs.idle();
    // The name is known only to the injected resolver: the scan connected to the address it judged.
    const subs = (await client.call('GET /get-unsubscribe-emails')).data;
    const news = subs.find((s) => s.address === 'news@daily.example')!;
    expect(news.messageCount).toBe(2);
    const messages = (await client.call('GET /get-subscriptions/:id', { params: { id: news.id } })).data;
    const preview = () =>
      client.post('/get-message-preview', { subscriptionId: news.id, messageId: messages[0]!.id });
    expect((await preview()).statusCode).toBe(200);

    // The name now points at another loopback address, where something listens on the same port.
    const trapped = await trap(dovecot.port);
    try {
      dns.set(host, ['127.0.0.2']);
      const before = asked.length;
      expect((await preview()).statusCode).not.toBe(200);
      const mailbox = await t.db
        .selectFrom('mailboxes')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      await t.app.jobs.enqueue('scan-mailbox', { mailboxId: mailbox.id }, { key: `mailbox:${mailbox.id}` });
      await t.app.jobs.idle();
      const row = await t.db
        .selectFrom('mailboxes')
        .select(['status', 'last_error'])
        .where('id', '=', mailbox.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('error');
      expect(row.last_error).toContain('private network');
      // Each connect asked the resolver again, and none reached the re-pointed address.
      expect(asked.slice(before).filter((h) => h === host).length).toBeGreaterThanOrEqual(2);
      expect(trapped.connections).toBe(0);
    } finally {
      await trapped.close();
    }
  });
});

describe('a preset SMTP host', () => {
  it('sends while it resolves to an allowed address, and is refused once re-pointed', async () => {
    const user = uniqueEmail('send').replace('@example.com', '@yahoo.com');
    const password = 'app-password-send';
    const peer = await startSmtpPeer({ user, password });
    const secrets = new SecretBox(randomBytes(32).toString('hex'));
    // Only the port is overridden: the host stays Yahoo's preset name, judged at each send.
    const providers = createProviderFactory({
      secrets,
      overridesJson: JSON.stringify({
        yahoo: {
          imap: { host: dovecot.host, port: dovecot.port, secure: false },
          smtp: { port: peer.port, secure: false },
        },
      }),
      imapAllowedHosts: parseHostList('127.0.0.1'),
      lookup,
    });
    const mailbox = providers({
      id: 'mb-send',
      provider: 'yahoo',
      email: user,
      secret: secrets.seal(password),
      server: null,
    });
    const trapped = await trap(peer.port);
    try {
      dns.set('smtp.mail.yahoo.com', ['127.0.0.1']);
      const sent = await mailbox.send({ to: 'leave@news.example', subject: 'unsubscribe', text: '' });
      expect(sent.accepted).toBe(true);
      expect(peer.received).toHaveLength(1);

      dns.set('smtp.mail.yahoo.com', ['127.0.0.2']);
      await expect(
        mailbox.send({ to: 'leave@news.example', subject: 'unsubscribe', text: '' }),
      ).rejects.toBeInstanceOf(MailHostForbiddenError);
      expect(peer.received).toHaveLength(1);
      expect(trapped.connections).toBe(0);
    } finally {
      await trapped.close();
      await mailbox.close();
      await peer.stop();
    }
  });
});
