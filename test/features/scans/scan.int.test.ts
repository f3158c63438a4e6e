import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Subscription, subscriptionsResponseSchema } from '#contract/api.js';
import { SecretBox } from '#server/lib/crypto.js';
import { createProviderFactory } from '#server/mail/index.js';
import { MailConnectionError, type MailProvider } from '#server/mail/provider.js';
import { withTestApp } from '#test/fixtures/app.js';
import { withDovecot } from '#test/fixtures/peers.js';
import { Client, createTestApp, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { encodeMailboxName } from '#test/helpers/dovecot.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';

// Connecting a Yahoo mailbox (hosts overridden to a real Dovecot) and scanning it end to end
// through the HTTP API, on SQLite and PostgreSQL.

const dovecot = withDovecot();

const overrides = () => dovecot.yahooOverrides();

async function yahooUser(): Promise<{ email: string; password: string }> {
  const email = uniqueEmail('scan').replace('@example.com', '@yahoo.com');
  const password = 'app-password-1234';
  await dovecot.addUser({ user: email, password });
  return { email, password };
}

const NEWS = 'Daily News <news@daily.example>';
const UNSUB = '<https://daily.example/u/1>, <mailto:leave@daily.example?subject=stop>';

async function seedMailbox(user: string): Promise<void> {
  const d = (from: string, subject: string, n: number, extra = {}) =>
    dovecot.deliver(user, 'INBOX', rawMessage({ from, subject, date: daysAgo(n), ...extra }));
  await d(NEWS, 'News 1', 5, { listUnsubscribe: UNSUB, listUnsubscribePost: 'List-Unsubscribe=One-Click' });
  await d(NEWS, 'News 2', 4, { listUnsubscribe: UNSUB });
  await d('=?utf-8?q?Daily_News_=E2=9C=93?= <NEWS@daily.example>', 'News 3', 1, { listUnsubscribe: UNSUB });
  // The same sender without list headers still counts toward its messages.
  await d(NEWS, 'A personal note from the editor', 3);
  await d('Friend <friend@example.org>', 'Lunch?', 2);
  await d('Friend <friend@example.org>', 'Re: Lunch?', 1);
  await d('Dev List <dev@lists.example>', 'Release 2.0', 6, { listId: '<dev.lists.example>' });
  const cafe = encodeMailboxName('Newsletters/Café');
  await dovecot.deliver(
    user,
    cafe,
    rawMessage({ from: NEWS, subject: 'News 0', date: daysAgo(9), listUnsubscribe: UNSUB }),
  );
  await dovecot.deliver(
    user,
    cafe,
    rawMessage({ from: 'Shop <deals@shop.example>', subject: 'Sale', date: daysAgo(8), precedence: 'bulk' }),
  );
  await dovecot.deliver(
    user,
    'Trash',
    rawMessage({
      from: 'Old <old@trash.example>',
      subject: 'Old',
      date: daysAgo(1),
      listUnsubscribe: '<https://trash.example/u>',
    }),
  );
  await dovecot.deliver(
    user,
    'Junk',
    rawMessage({
      from: 'Spam <spam@junk.example>',
      subject: 'Win',
      date: daysAgo(1),
      listUnsubscribe: '<https://junk.example/u>',
    }),
  );
}

describe.each(DIALECTS)('connecting and scanning an IMAP mailbox on %s', (dialect) => {
  const t = withTestApp(dialect, () => ({
    MAIL_PROVIDER_OVERRIDES: overrides(),
    SCAN_INTERVAL: '1s',
    IMAP_ALLOWED_HOSTS: '127.0.0.1',
  }));
  let url: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
  });

  async function signedUp() {
    const client = new Client(t.app);
    const res = await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    expect(res.statusCode).toBe(200);
    return client;
  }

  it('verifies the app password, scans every folder but trash and junk, and counts exactly', async () => {
    const { email, password } = await yahooUser();
    await seedMailbox(email);
    const client = await signedUp();
    const res = await client.post('/auth/yahoo', { email, appPassword: password });
    expect(res.json()).toEqual({ redirectUrl: '/genie/subscriptions' });
    await t.app.jobs.idle();

    const list = await client.get('/get-unsubscribe-emails?category=uncategorized');
    expect(list.statusCode).toBe(200);
    const { data } = client.json(list, subscriptionsResponseSchema);
    expect(data.map((s) => [s.address, s.messageCount])).toEqual([
      ['news@daily.example', 5],
      ['dev@lists.example', 1],
      ['deals@shop.example', 1],
    ]);
    const news = data[0]!;
    expect(news).toMatchObject({ senderName: 'Daily News ✓', category: 'uncategorized', account: email });
    expect(news.lastMessageAt).toBe(daysAgo(1).toISOString());

    const messages = await client.get(`/get-subscriptions/${news.id}`);
    expect(messages.json().data.map((m: { subject: string }) => m.subject)).toEqual([
      'News 3',
      'A personal note from the editor',
      'News 2',
      'News 1',
      'News 0',
    ]);
    expect((await client.get('/get-unsubscribe-emails?category=kept')).json()).toEqual({ data: [] });
    expect((await client.get('/get-email-accounts')).json().data).toEqual([
      expect.objectContaining({ email, provider: 'yahoo', status: 'active' }),
    ]);
    // Nothing of the personal sender is listed, and no body was stored anywhere.
    const stored = JSON.stringify(await t.db.selectFrom('messages').selectAll().execute());
    expect(stored).not.toContain('never stored');
    expect(stored).not.toContain('Lunch');
  });

  it('answers 400 with the server message for a wrong app password and stores nothing', async () => {
    const { email } = await yahooUser();
    const client = await signedUp();
    const res = await client.post('/auth/yahoo', { email, appPassword: 'wrong' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The mail server refused the email address or app password.');
    expect((await client.get('/get-email-accounts')).json()).toEqual({ data: [] });
  });

  it('applies the add-mailbox rules on the server too', async () => {
    const client = await signedUp();
    const notYahoo = await client.post('/auth/yahoo', { email: 'me@gmail.com', appPassword: 'x' });
    expect(notYahoo.json()).toEqual({ message: 'Please enter your Yahoo email address.' });
    const noPassword = await client.post('/auth/icloud', { email: 'me@icloud.com', appPassword: '' });
    expect(noPassword.json()).toEqual({ message: 'App-specific password is required.' });
    expect((await client.post('/auth/nope', { email: 'me@x.com', appPassword: 'x' })).statusCode).toBe(404);
    expect(
      (await new Client(t.app).post('/auth/yahoo', { email: 'me@yahoo.com', appPassword: 'x' })).statusCode,
    ).toBe(403);
  });

  it('answers 502 when the mail server cannot be reached', async () => {
    const client = await signedUp();
    const res = await client.post('/auth/imap', {
      email: 'me@example.net',
      appPassword: 'secret',
      host: '127.0.0.1',
      port: 1,
      secure: false,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/Could not reach the mail server/);
  });

  // 127.0.0.1 itself is allowed in this app (IMAP_ALLOWED_HOSTS), other loopback addresses are not.
  it.each(['10.1.2.3', '169.254.169.254', '167772161', '0177.0.0.2', '0x7f000003', '[::ffff:192.168.0.1]'])(
    'refuses an IMAP server on a private network (%s) that the operator did not allow',
    async (host) => {
      const client = await signedUp();
      const res = await client.post('/auth/imap', {
        email: 'me@example.net',
        appPassword: 'x',
        host,
        port: 993,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'This mail server is on a private network that Inbox Genie may not connect to.',
      });
      expect((await client.get('/get-email-accounts')).json()).toEqual({ data: [] });
    },
  );

  it('pushes subscriptions live, then finds a new sender at the daily check', async () => {
    const { email, password } = await yahooUser();
    await dovecot.deliver(
      email,
      'INBOX',
      rawMessage({ from: NEWS, subject: 'One', date: daysAgo(2), listUnsubscribe: UNSUB }),
    );
    const client = await signedUp();
    const socket = connect(url, {
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: { cookie: client.cookieHeader() },
    });
    sockets.push(socket);
    await new Promise((r) => socket.on('connect', () => r(null)));
    const events: string[] = [];
    const items: Subscription[] = [];
    socket.on('loading-new-subscriptions', () => events.push('loading'));
    socket.on('new-subscription', (item) => {
      events.push(`new:${item.address}`);
      items.push(item);
    });
    socket.on('all-subscriptions-sent', () => events.push('done'));

    await client.post('/auth/yahoo', { email, appPassword: password });
    await t.app.jobs.idle();
    await expect.poll(() => events).toEqual(['loading', 'new:news@daily.example', 'done']);
    expect(items[0]).toMatchObject({ address: 'news@daily.example', messageCount: 1 });

    await dovecot.deliver(
      email,
      'INBOX',
      rawMessage({
        from: 'Weekly <weekly@new.example>',
        subject: 'Hi',
        date: daysAgo(0),
        listUnsubscribe: '<https://new.example/u>',
      }),
    );
    await dovecot.deliver(
      email,
      'INBOX',
      rawMessage({ from: NEWS, subject: 'Two', date: daysAgo(0), listUnsubscribe: UNSUB }),
    );
    const scheduler = t.app.startScheduler();
    try {
      await expect.poll(() => events.includes('new:weekly@new.example'), { timeout: 15_000 }).toBe(true);
    } finally {
      scheduler.stop();
    }
    await t.app.jobs.idle();
    const data = (await client.call('GET /get-unsubscribe-emails')).data;
    // Both newest messages share a date; the address breaks the tie.
    expect(data.map((s) => [s.address, s.messageCount])).toEqual([
      ['news@daily.example', 2],
      ['weekly@new.example', 1],
    ]);
  });

  it('resumes a scan that broke off, with nothing lost and nothing counted twice', async () => {
    const { email, password } = await yahooUser();
    await seedMailbox(email);
    let failures = 0;
    const flaky = await createTestApp(dialect, { MAIL_PROVIDER_OVERRIDES: overrides() }, (config) => ({
      providers: (mailbox) => {
        const real = createProviderFactory({
          secrets: new SecretBox(config.secretKey),
          overridesJson: overrides(),
          batchSize: 2,
        });
        const provider = real(mailbox);
        const wrapped: MailProvider = {
          ...provider,
          verify: () => provider.verify(),
          close: () => provider.close(),
          listFolders: () => provider.listFolders(),
          changesSince: (s) => provider.changesSince(s),
          async *scan(from) {
            let batches = 0;
            for await (const batch of provider.scan(from)) {
              yield batch;
              batches += 1;
              // The connection drops after two committed batches, twice.
              if (batches === 2 && failures < 2) {
                failures += 1;
                throw new MailConnectionError('connection dropped');
              }
            }
          },
        };
        return wrapped;
      },
    }));
    try {
      const client = new Client(flaky.app);
      await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
      const connected = await client.post('/auth/yahoo', { email, appPassword: password });
      expect(connected.json()).toEqual({ redirectUrl: '/genie/subscriptions' });
      await flaky.app.jobs.idle();
      expect(failures).toBe(2);
      const data = (await client.call('GET /get-unsubscribe-emails')).data;
      expect(data.map((s) => [s.address, s.messageCount])).toEqual([
        ['news@daily.example', 5],
        ['dev@lists.example', 1],
        ['deals@shop.example', 1],
      ]);
      const refs = await flaky.db.selectFrom('messages').select(['provider_id', 'subject']).execute();
      expect(new Set(refs.map((r) => r.provider_id)).size).toBe(refs.length);
      // The senders listed from their first message have every reference. The newsletter that also
      // sent a personal note is counted in full, but a batch that held that note and one of its list
      // messages before the sender qualified stored neither reference (a correspondent's mail is never
      // kept), while a batch after it stores both: which of News 1–3 shares a batch with the note depends
      // on the UIDs Dovecot gave the maildir files, which follow the directory's order, not delivery's.
      const subjects = refs.map((r) => r.subject);
      expect(subjects).toEqual(expect.arrayContaining(['News 0', 'Release 2.0', 'Sale']));
      expect(subjects.filter((s) => /^News [123]$/.test(s)).length).toBeGreaterThanOrEqual(2);
      expect(refs.length).toBeLessThanOrEqual(7);
    } finally {
      await flaky.close();
    }
  });

  it('finds nothing in a mailbox of personal mail only, and says so without error', async () => {
    const { email, password } = await yahooUser();
    for (let i = 0; i < 5; i++) {
      await dovecot.deliver(
        email,
        'INBOX',
        rawMessage({ from: `Friend ${i} <f${i}@example.org>`, subject: `Hi ${i}`, date: daysAgo(i) }),
      );
    }
    const client = await signedUp();
    expect((await client.post('/auth/yahoo', { email, appPassword: password })).statusCode).toBe(200);
    await t.app.jobs.idle();
    expect((await client.get('/get-unsubscribe-emails')).json()).toEqual({ data: [] });
    expect((await client.get('/get-email-accounts')).json().data).toEqual([
      expect.objectContaining({ email, status: 'active', lastScannedAt: expect.any(String) }),
    ]);
  });

  it('marks a mailbox whose app password stopped working, and sends the lists to re-authentication', async () => {
    const { email, password } = await yahooUser();
    await dovecot.deliver(
      email,
      'INBOX',
      rawMessage({ from: NEWS, subject: 'One', date: daysAgo(1), listUnsubscribe: UNSUB }),
    );
    const client = await signedUp();
    await client.post('/auth/yahoo', { email, appPassword: password });
    await t.app.jobs.idle();
    expect((await client.get('/get-unsubscribe-emails')).json().data).toHaveLength(1);

    // The user revokes the app password at Yahoo; the next check is refused.
    await dovecot.addUser({ user: email, password: 'a new app password' });
    const scheduler = t.app.startScheduler();
    try {
      await expect
        .poll(async () => (await client.get('/get-email-accounts')).json().data[0].status, {
          timeout: 15_000,
        })
        .toBe('reauth');
    } finally {
      scheduler.stop();
    }
    const res = await client.get('/get-unsubscribe-emails');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      redirectUrl: `/add-mailbox?provider=yahoo&email=${encodeURIComponent(email)}`,
    });

    // Entering the new app password brings the mailbox back with what was found.
    expect((await client.post('/auth/yahoo', { email, appPassword: 'a new app password' })).statusCode).toBe(
      200,
    );
    await t.app.jobs.idle();
    const data = (await client.call('GET /get-unsubscribe-emails')).data;
    expect(data.map((s) => [s.address, s.messageCount])).toEqual([['news@daily.example', 1]]);
  });

  it('keeps a subscription: it moves to the kept list, twice is harmless, and nobody else can', async () => {
    const { email, password } = await yahooUser();
    await seedMailbox(email);
    const client = await signedUp();
    await client.post('/auth/yahoo', { email, appPassword: password });
    await t.app.jobs.idle();
    const [first] = (await client.call('GET /get-unsubscribe-emails')).data;

    const stranger = await signedUp();
    expect((await stranger.post('/keep-subscription', { subscriptionId: first!.id })).statusCode).toBe(404);

    const kept = await client.post('/keep-subscription', { subscriptionId: first!.id });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ id: first!.id, category: 'kept' });
    // The screens sometimes send the id as messageId (docs/product.md §7); a double click keeps it once.
    expect((await client.post('/keep-subscription', { messageId: first!.id })).json().category).toBe('kept');
    const uncategorized = (await client.call('GET /get-unsubscribe-emails')).data;
    expect(uncategorized.map((s) => s.id)).not.toContain(first!.id);
    const keptList = (await client.call('GET /get-unsubscribe-emails', { query: { category: 'kept' } })).data;
    expect(keptList.map((s) => [s.id, s.messageCount])).toEqual([[first!.id, first!.messageCount]]);
    expect((await client.post('/keep-subscription', {})).statusCode).toBe(400);
    expect((await client.get('/get-unsubscribe-emails?category=bogus')).statusCode).toBe(400);
  });

  it('removes a mailbox with all of its subscriptions and message references', async () => {
    const { email, password } = await yahooUser();
    await seedMailbox(email);
    const client = await signedUp();
    await client.post('/auth/yahoo', { email, appPassword: password });
    await t.app.jobs.idle();
    const mailbox = await t.db
      .selectFrom('mailboxes')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(
      (await t.db.selectFrom('senders').select('id').where('mailbox_id', '=', mailbox.id).execute()).length,
    ).toBeGreaterThan(0);

    const res = await client.delete('/delete-email-account', { email: email.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect(
      await t.db.selectFrom('senders').select('id').where('mailbox_id', '=', mailbox.id).execute(),
    ).toEqual([]);
    expect(
      await t.db.selectFrom('messages').select('provider_id').where('mailbox_id', '=', mailbox.id).execute(),
    ).toEqual([]);
    expect((await client.get('/get-email-accounts')).json()).toEqual({ data: [] });
    expect((await client.get('/get-unsubscribe-emails')).json()).toEqual({ data: [] });
    expect((await client.delete('/delete-email-account', { email })).statusCode).toBe(404);
  });
});
