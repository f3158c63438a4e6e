import { randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretBox } from '#server/lib/crypto.js';
import { parseMailto } from '#server/mail/headers/mailto.js';
import { createProviderFactory } from '#server/mail/index.js';
import {
  MailAuthError,
  MailConnectionError,
  type MailProvider,
  MailSendUnavailableError,
} from '#server/mail/provider.js';
import { withDovecot } from '#test/fixtures/peers.js';
import { type ImapProxy, startImapProxy } from '#test/helpers/imap-proxy.js';
import { seedMailbox } from '#test/helpers/imap-seed.js';
import { type ImapTestUser, newImapUser } from '#test/helpers/imap-user.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { type SmtpPeer, startSmtpPeer } from '#test/helpers/smtp-peer.js';

// The unsubscribe engine's mailbox actions for app-password mailboxes: the mailto request sent
// through SMTP (a local smtp-server peer) and block + trash on a real Dovecot.

const dovecot = withDovecot();
const providers: MailProvider[] = [];
const peers: SmtpPeer[] = [];
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
  await Promise.all(peers.splice(0).map((p) => p.stop()));
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** Dovecot as a server without RFC 6851 MOVE, for which the client has to copy, flag \\Deleted and expunge. */
async function withoutMoveProxy(): Promise<ImapProxy> {
  const proxy = await startImapProxy({ upstream: dovecot, hide: ['MOVE'] });
  cleanups.push(proxy.close);
  return proxy;
}

const newUser = (label: string) => newImapUser(dovecot, label, providers);

async function peerFor(u: { user: string; password: string }): Promise<SmtpPeer> {
  const peer = await startSmtpPeer(u);
  peers.push(peer);
  return peer;
}

/** Sender address of every message, per folder, as another IMAP client sees the mailbox. */
async function senders(u: ImapTestUser): Promise<Record<string, string[]>> {
  const mailbox = await seedMailbox(dovecot, u);
  try {
    return await mailbox.senders();
  } finally {
    await mailbox.close();
  }
}

describe('send (the mailto request) through SMTP', () => {
  it('sends the request from the user to the address, subject and body of the mailto URI', async () => {
    const u = await newUser('send');
    const peer = await peerFor(u);
    const request = parseMailto(
      'mailto:leave@news.example?subject=Remove%20me&body=Please%20unsubscribe%20me',
    );
    if (!request.ok) throw new Error(request.reason);
    const mailto = request.request;
    const p = u.provider({ smtp: { host: peer.host, port: peer.port, secure: false } });

    const result = await p.send({ to: mailto.to, subject: mailto.subject, text: mailto.body });

    expect(result.accepted).toBe(true);
    expect(result.response).toMatch(/^250 /);
    expect(peer.received).toHaveLength(1);
    const [mail] = peer.received;
    expect(mail!.user).toBe(u.user);
    expect(mail!.mailFrom).toBe(u.user);
    expect(mail!.rcptTo).toEqual(['leave@news.example']);
    const parsed = await simpleParser(mail!.raw);
    expect(parsed.from?.value[0]?.address).toBe(u.user);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0]?.address : null).toBe(
      'leave@news.example',
    );
    expect(parsed.subject).toBe('Remove me');
    expect(parsed.text?.trim()).toBe('Please unsubscribe me');
  });

  it('reaches the SMTP host of a preset through MAIL_PROVIDER_OVERRIDES with the stored app password', async () => {
    const u = await newUser('preset');
    const peer = await peerFor(u);
    const secrets = new SecretBox(randomBytes(32).toString('hex'));
    const overridesJson = JSON.stringify({
      yahoo: {
        imap: { host: dovecot.host, port: dovecot.port, secure: false },
        smtp: { host: peer.host, port: peer.port, secure: false },
      },
    });
    const p = createProviderFactory({ secrets, overridesJson })({
      id: 'mb-1',
      provider: 'yahoo',
      email: u.user,
      secret: secrets.seal(u.password),
      server: null,
    });
    providers.push(p);

    const result = await p.send({ to: 'list@shop.example', subject: 'unsubscribe', text: '' });

    expect(result.accepted).toBe(true);
    expect(peer.received.map((m) => [m.user, m.mailFrom, m.rcptTo])).toEqual([
      [u.user, u.user, ['list@shop.example']],
    ]);
    expect((await simpleParser(peer.received[0]!.raw)).subject).toBe('unsubscribe');
  });

  it('reports a refused app password at the SMTP server as MailAuthError, and sends nothing', async () => {
    const u = await newUser('badpw');
    const peer = await peerFor({ user: u.user, password: 'the-right-one' });
    const p = u.provider({ smtp: { host: peer.host, port: peer.port, secure: false } });

    const failure = await p
      .send({ to: 'leave@news.example', subject: 'unsubscribe', text: '' })
      .catch((e) => e);

    expect(failure).toBeInstanceOf(MailAuthError);
    expect(peer.authFailures).toEqual([u.user]);
    expect(peer.received).toHaveLength(0);
  });

  it('reports an SMTP server that is not there as MailConnectionError', async () => {
    const u = await newUser('down');
    const peer = await peerFor(u);
    const port = peer.port;
    await peers.splice(0)[0]!.stop();
    const p = u.provider({ smtp: { host: '127.0.0.1', port, secure: false } });

    await expect(p.send({ to: 'a@b.example', subject: 'unsubscribe', text: '' })).rejects.toBeInstanceOf(
      MailConnectionError,
    );
  });

  it('refuses to send from a custom IMAP host without SMTP settings with MailSendUnavailableError', async () => {
    const u = await newUser('custom');
    const secrets = new SecretBox(randomBytes(32).toString('hex'));
    const p = createProviderFactory({ secrets, overridesJson: null })({
      id: 'mb-2',
      provider: 'imap',
      email: u.user,
      secret: secrets.seal(u.password),
      server: { kind: 'imap', host: dovecot.host, port: dovecot.port, secure: false },
    });
    providers.push(p);

    await expect(p.send({ to: 'a@b.example', subject: 'unsubscribe', text: '' })).rejects.toBeInstanceOf(
      MailSendUnavailableError,
    );
  });
});

describe('block on IMAP', () => {
  it('moves exactly that sender’s mail from INBOX and a subfolder into Trash and counts it', async () => {
    const u = await newUser('block');
    const from = (addr: string, n: number) => rawMessage({ from: addr, subject: `m${n}`, date: daysAgo(n) });
    for (let n = 1; n <= 3; n++) await u.deliver('INBOX', from('Deals <deals@shop.example>', n));
    for (let n = 4; n <= 5; n++) await u.deliver('Newsletters', from('DEALS@Shop.Example', n));
    // Look-alikes a substring SEARCH FROM would also match: they stay.
    await u.deliver('INBOX', from('Hot Deals <hotdeals@shop.example>', 6));
    await u.deliver('INBOX', from('deals@shop.example.evil', 7));
    await u.deliver('INBOX', from('Friend <friend@example.org>', 8));
    await u.deliver('Newsletters', from('Other <news@other.example>', 9));
    const p = u.provider();

    const result = await p.moveToTrash({ from: 'deals@shop.example' });

    expect(result).toEqual({ moved: 5, calls: 2 });
    const after = await senders(u);
    expect(after.Trash).toEqual([
      'DEALS@Shop.Example',
      'DEALS@Shop.Example',
      'deals@shop.example',
      'deals@shop.example',
      'deals@shop.example',
    ]);
    expect(after.INBOX).toEqual(['deals@shop.example.evil', 'friend@example.org', 'hotdeals@shop.example']);
    expect(after.Newsletters).toEqual(['news@other.example']);

    // A second block finds nothing left; mail already in the trash is not scanned.
    expect(await p.moveToTrash({ from: 'deals@shop.example' })).toEqual({ moved: 0, calls: 0 });
  });

  it('falls back to COPY + STORE \\Deleted + EXPUNGE on a server without MOVE', async () => {
    const u = await newUser('nomove');
    for (let n = 1; n <= 3; n++) {
      await u.deliver(
        'INBOX',
        rawMessage({ from: 'deals@shop.example', subject: `d${n}`, date: daysAgo(n) }),
      );
    }
    await u.deliver('INBOX', rawMessage({ from: 'friend@example.org', subject: 'hi', date: daysAgo(4) }));
    const proxy = await withoutMoveProxy();
    const p = u.provider({ host: '127.0.0.1', port: proxy.port });

    expect(await p.moveToTrash({ from: 'deals@shop.example' })).toEqual({ moved: 3, calls: 1 });

    expect(proxy.commands).not.toContain('UID MOVE');
    expect(proxy.commands).toEqual(expect.arrayContaining(['UID COPY', 'UID STORE']));
    expect(proxy.commands.some((c) => c === 'UID EXPUNGE' || c === 'EXPUNGE')).toBe(true);
    const after = await senders(u);
    expect(after.Trash).toEqual(['deals@shop.example', 'deals@shop.example', 'deals@shop.example']);
    expect(after.INBOX).toEqual(['friend@example.org']);
  });

  it('has no provider rule: createBlockRule answers null (the app-side rule does the job)', async () => {
    const u = await newUser('rule');
    expect(await u.provider().createBlockRule('deals@shop.example')).toBeNull();
  });
});

describe('fetchMessage (the preview)', () => {
  it('returns the raw source by `folder/uidvalidity/uid`, and null once it is gone or the id is stale', async () => {
    const u = await newUser('preview');
    await u.deliver(
      'INBOX',
      rawMessage({ from: 'News <news@daily.example>', subject: 'Hello', date: daysAgo(1) }),
    );
    const provider = u.provider();
    const ids: string[] = [];
    for await (const batch of provider.scan(null)) ids.push(...batch.messages.map((m) => m.id));
    expect(ids).toHaveLength(1);
    const id = ids[0]!;
    const raw = await provider.fetchMessage(id);
    expect(raw?.toString('utf8')).toContain('Subject: Hello');
    expect(raw?.toString('utf8')).toContain('Hello, this body is never stored.');

    const [, uidValidity, uid] = /^INBOX\/(\d+)\/(\d+)$/.exec(id)!;
    expect(await provider.fetchMessage(`INBOX/${Number(uidValidity) + 1}/${uid}`)).toBeNull();
    expect(await provider.fetchMessage(`INBOX/${uidValidity}/${Number(uid) + 100}`)).toBeNull();
    expect(await provider.fetchMessage(`No such folder/${uidValidity}/${uid}`)).toBeNull();
    expect(await provider.fetchMessage('not an id')).toBeNull();
  });
});
