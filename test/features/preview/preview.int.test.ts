import { describe, expect, it, vi } from 'vitest';
import { openClient } from '#server/mail/imap/connection.js';
import { withTestApp, yahooOnDovecot } from '#test/fixtures/app.js';
import { peersForThisFile, withDovecot } from '#test/fixtures/peers.js';
import { Client, createTestApp, DIALECTS, type TestApp, uniqueEmail } from '#test/helpers/app.js';
import { type ImapProxy, startImapProxy } from '#test/helpers/imap-proxy.js';
import { daysAgo } from '#test/helpers/mail.js';
import { freePort } from '#test/helpers/net.js';

// The message preview end to end: a Yahoo mailbox (hosts overridden to a real Dovecot) is
// scanned, and a newsletter is fetched from the mailbox on demand, sanitized and answered as HTML.

const NOT_FOUND = 'Preview not found, please check your email for the message';

const dovecot = withDovecot();

function newsletter(subject: string, n: number): string {
  const html =
    '<html><head><style>body{background:url(https://track.example/bg.png)}</style></head><body>' +
    '<h1>Weekly picks</h1><script>document.title = "pwned"</script>' +
    '<img src="https://track.example/open.gif" onerror="alert(1)" alt="logo">' +
    '<p>Read <a href="https://news.example/read">the issue</a>.</p></body></html>';
  return [
    'From: Daily News <news@daily.example>',
    'To: someone@example.com',
    `Subject: ${subject}`,
    `Date: ${daysAgo(n).toUTCString()}`,
    `Message-ID: <preview-${subject.replace(/\W/g, '')}-${Date.now()}@daily.example>`,
    'List-Unsubscribe: <https://daily.example/u/1>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Weekly picks (text part)',
    '--b1',
    'Content-Type: text/html; charset=utf-8',
    '',
    html,
    '--b1--',
    '',
  ].join('\r\n');
}

/** A user with a Yahoo mailbox of two newsletters (and `extra`), scanned; its subscription and messages. */
async function connectUser(t: TestApp, extra: string[] = []) {
  const email = uniqueEmail('preview').replace('@example.com', '@yahoo.com');
  const password = 'app-password-1234';
  await dovecot.addUser({ user: email, password });
  await dovecot.deliver(email, 'INBOX', newsletter('Issue 1', 3));
  await dovecot.deliver(email, 'INBOX', newsletter('Issue 2', 2));
  for (const raw of extra) await dovecot.deliver(email, 'INBOX', raw);
  const client = new Client(t.app);
  expect(
    (await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' })).statusCode,
  ).toBe(200);
  const res = await client.post('/auth/yahoo', { email, appPassword: password });
  expect(res.statusCode).toBe(200);
  await t.app.jobs.idle();
  const subs = (await client.call('GET /get-unsubscribe-emails', { query: { category: 'uncategorized' } }))
    .data;
  const news = subs.find((s) => s.address === 'news@daily.example')!;
  const messages = (await client.call('GET /get-subscriptions/:id', { params: { id: news.id } })).data;
  return { email, password, client, news, messages };
}

describe.each(DIALECTS)('message preview on %s', (dialect) => {
  const t = withTestApp(dialect, () => yahooOnDovecot(dovecot));

  const connectedUser = (extra: string[] = []) => connectUser(t, extra);

  it('answers the sanitized HTML: no script, no handler, no remote image unless asked', async () => {
    const { client, news, messages } = await connectedUser();
    expect(messages.map((m) => m.subject)).toEqual(['Issue 2', 'Issue 1']);

    const res = await client.post('/get-message-preview', {
      subscriptionId: news.id,
      messageId: messages[0]!.id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; img-src data:; .*sandbox/);
    const html = res.body;
    expect(html).toContain('<h1>Weekly picks</h1>');
    expect(html).toContain('img-src data:;');
    expect(html).not.toMatch(/<script|onerror|pwned|track\.example/i);
    expect(html).toContain('alt="Image not loaded"');
    expect(html).toContain('<a href="https://news.example/read" target="_blank" rel="noopener noreferrer">');

    const loaded = await client.post('/get-message-preview', {
      subscriptionId: news.id,
      messageId: messages[0]!.id,
      loadImages: true,
    });
    expect(loaded.statusCode).toBe(200);
    expect(loaded.body).toContain('src="https://track.example/open.gif"');
    expect(loaded.body).toContain('img-src data: https: http:;');
    expect(loaded.body).not.toMatch(/<script|onerror|bg\.png/i);

    // Nothing of the body was stored.
    const stored = JSON.stringify(await t.db.selectFrom('messages').selectAll().execute());
    expect(stored).not.toContain('Weekly picks');
  });

  it('answers 40 previews asked at once, logging in to the mail server a few at a time', async () => {
    const { client, news, messages } = await connectedUser();
    // Dovecot, like real servers, refuses more than a handful of connections per user and address at once
    // (mail_max_userip_connections, 10 by default): one login per preview would fail most of these.
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        client.post('/get-message-preview', { subscriptionId: news.id, messageId: messages[i % 2]!.id }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(40).fill(200));
  });

  it('answers 502 with the reason when the mail server cannot be reached', async () => {
    const { email, client, news, messages } = await connectedUser();
    // The server went away: the mailbox now points at a port where nothing listens.
    await t.db
      .updateTable('mailboxes')
      .set({ provider: 'imap', imap_host: '127.0.0.1', imap_port: await freePort(), imap_secure: 0 })
      .where('email', '=', email)
      .execute();
    const res = await client.post('/get-message-preview', {
      subscriptionId: news.id,
      messageId: messages[0]!.id,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/127\.0\.0\.1|reach|connect/i);
  });

  it('lists the messages of a sender address, and 404 for an address that is no subscription', async () => {
    const { client, messages } = await connectedUser();
    const res = await client.post('/get-messages-by-sender-address', { senderAddress: 'News@Daily.example' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: messages });
    const none = await client.post('/get-messages-by-sender-address', { senderAddress: 'nobody@x.example' });
    expect(none.statusCode).toBe(404);
  });

  it('answers 404 with the spec text for a message deleted from the mailbox', async () => {
    const { email, password, client, news, messages } = await connectedUser();
    const target = messages[1]!;
    const uid = Number(target.id.split('/').pop());
    const imap = await openClient({
      host: '127.0.0.1',
      port: dovecot.port,
      secure: false,
      user: email,
      password,
      allowedHosts: new Set(['127.0.0.1']),
    });
    try {
      await imap.mailboxOpen('INBOX');
      expect(await imap.messageDelete(String(uid), { uid: true })).toBe(true);
    } finally {
      await imap.logout();
    }
    const res = await client.post('/get-message-preview', { subscriptionId: news.id, messageId: target.id });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: NOT_FOUND });
    // An id of the right shape whose UIDVALIDITY is not the folder's: gone as well.
    const stale = messages[0]!.id.replace(/\/\d+\/(\d+)$/, '/1/$1');
    const res2 = await client.post('/get-message-preview', { subscriptionId: news.id, messageId: stale });
    expect(res2.statusCode).toBe(404);
  });

  it('answers 404 with the spec text for a message its MIME parser gives up on', async () => {
    // More parts than the parser accepts (mailparser stops at 1,000 child nodes and throws).
    const parts = Array.from(
      { length: 1500 },
      (_, i) => `--b1\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`,
    );
    const raw = [
      'From: Daily News <news@daily.example>',
      'Subject: Pathological',
      `Date: ${daysAgo(1).toUTCString()}`,
      'List-Unsubscribe: <https://daily.example/u/1>',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      `${parts.join('')}--b1--`,
      '',
    ].join('\r\n');
    const { client, news, messages } = await connectedUser([raw]);
    const target = messages.find((m) => m.subject === 'Pathological');
    expect(target).toBeDefined();
    const res = await client.post('/get-message-preview', { subscriptionId: news.id, messageId: target!.id });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: NOT_FOUND });
  });

  it('answers 404 for another user’s subscription and message', async () => {
    const owner = await connectedUser();
    const other = await connectedUser();
    const res = await other.client.post('/get-message-preview', {
      subscriptionId: owner.news.id,
      messageId: owner.messages[0]!.id,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: NOT_FOUND });
  });

  it('marks the mailbox for sign-in again when the password is refused, and answers 401 with the way back', async () => {
    const { email, client, news, messages } = await connectedUser();
    // The user changes the app password (the helper resolves once Dovecot uses the new one).
    await dovecot.addUser({ user: email, password: 'changed-password-5678' });
    const res = await client.post('/get-message-preview', {
      subscriptionId: news.id,
      messageId: messages[0]!.id,
    });
    expect(res.statusCode).toBe(401);
    const redirectUrl = `/add-mailbox?provider=yahoo&email=${encodeURIComponent(email)}`;
    expect(res.json()).toMatchObject({ redirectUrl });
    expect((await client.get('/get-email-accounts')).json().data).toEqual([
      expect.objectContaining({ email, status: 'reauth' }),
    ]);
  });

  it('asks for the message ids', async () => {
    const { client } = await connectedUser();
    expect((await client.post('/get-message-preview', { subscriptionId: 'x' })).statusCode).toBe(400);
  });
});

// The connections previews use are pooled (docs/decisions/089-pooled-mail-connections.md). Each app below
// reaches Dovecot through a proxy of its own, which counts the logins it carries and can cut every
// connection; `yahooOnDovecot` with the proxy's port.
function viaProxy(proxy: ImapProxy): Record<string, string> {
  const imap = { host: proxy.host, port: proxy.port, secure: false };
  return { MAIL_PROVIDER_OVERRIDES: JSON.stringify({ yahoo: { imap } }), IMAP_ALLOWED_HOSTS: '127.0.0.1' };
}

const startProxy = () => startImapProxy({ upstream: { host: dovecot.host, port: dovecot.port } });

function logins(proxy: ImapProxy): number {
  return proxy.commands.filter((c) => c === 'LOGIN' || c === 'AUTHENTICATE').length;
}

/** Until the proxy carries no connection (a generous bound: this waits on closes, it does not time them). */
async function noConnections(proxy: ImapProxy): Promise<void> {
  await vi.waitFor(() => expect(proxy.connections()).toBe(0), { timeout: 10_000, interval: 50 });
}

function previewOf(user: Awaited<ReturnType<typeof connectUser>>) {
  return (i: number) =>
    user.client.post('/get-message-preview', {
      subscriptionId: user.news.id,
      messageId: user.messages[i % 2]!.id,
    });
}

describe.each(DIALECTS)('pooled preview connections on %s', (dialect) => {
  // The default idle time (30 s): connections stay warm through a test.
  const warm = peersForThisFile({ proxy: startProxy }).proxy;
  const t = withTestApp(dialect, () => viaProxy(warm));
  // A short idle time, to see a connection closed once unused.
  const brief = peersForThisFile({ proxy: startProxy }).proxy;
  const tBrief = withTestApp(
    dialect,
    () => viaProxy(brief),
    () => ({ mailPoolIdleMs: 200 }),
  );

  it('answers 40 previews of one mailbox on at most 8 logins, and replaces connections cut meanwhile', async () => {
    const user = await connectUser(t);
    const preview = previewOf(user);
    // The sign-up's and the scan's own connections end with them (this is the first test of the app).
    await noConnections(warm);
    const before = logins(warm);
    const codes: number[] = [];
    // Ten one after the other, as a user reading them, then three bursts of ten at once.
    for (let i = 0; i < 10; i++) codes.push((await preview(i)).statusCode);
    for (let batch = 1; batch < 4; batch++) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => preview(batch * 10 + i)));
      codes.push(...answers.map((a) => a.statusCode));
    }
    expect(codes).toEqual(Array(40).fill(200));
    const made = logins(warm) - before;
    expect(made, `${made} logins for 40 previews`).toBeLessThanOrEqual(8);
    // The pool keeps them (3 at most per mailbox) for the next preview.
    expect(warm.connections()).toBeGreaterThan(0);
    expect(warm.connections()).toBeLessThanOrEqual(3);

    // Every connection is cut (the server restarted): the next previews log in again, none fails.
    warm.drop();
    const again = await Promise.all([0, 1, 2, 3].map((i) => preview(i)));
    expect(again.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    warm.drop();
    await noConnections(warm);
    expect((await preview(0)).statusCode).toBe(200);
    expect(logins(warm) - before).toBeLessThanOrEqual(made + 4);
  });

  it('previews a message that arrived after its kept connection opened the folder', async () => {
    const user = await connectUser(t);
    expect((await previewOf(user)(0)).statusCode).toBe(200);
    // The connection is kept with INBOX open; a new issue arrives and the daily check finds it.
    await dovecot.deliver(user.email, 'INBOX', newsletter('Issue 3', 1));
    const mailbox = await t.db
      .selectFrom('mailboxes')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    await t.app.jobs.enqueue('scan-mailbox', { mailboxId: mailbox.id }, { key: `mailbox:${mailbox.id}` });
    await t.app.jobs.idle();
    const messages = (await user.client.call('GET /get-subscriptions/:id', { params: { id: user.news.id } }))
      .data;
    const fresh = messages.find((m) => m.subject === 'Issue 3');
    expect(fresh).toBeDefined();
    const before = logins(warm);
    const res = await user.client.post('/get-message-preview', {
      subscriptionId: user.news.id,
      messageId: fresh!.id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Weekly picks');
    // On the kept connection: no new login.
    expect(logins(warm)).toBe(before);
  });

  it('closes a connection once unused for the idle time, and logs in again for the next preview', async () => {
    const user = await connectUser(tBrief);
    const preview = previewOf(user);
    // The scan's and the sign-up's own connections end with them.
    await noConnections(brief);
    const before = logins(brief);
    expect((await preview(0)).statusCode).toBe(200);
    await noConnections(brief);
    expect(logins(brief) - before).toBe(1);
    expect((await preview(1)).statusCode).toBe(200);
    expect(logins(brief) - before).toBe(2);
  });
});

describe.each(DIALECTS)('pooled preview connections of a removed mailbox on %s', (dialect) => {
  const proxy = peersForThisFile({ proxy: startProxy }).proxy;
  const own = withTestApp(dialect, () => viaProxy(proxy));

  it('logs them out when the mailbox is removed, not at the end of the idle time', async () => {
    const user = await connectUser(own);
    await noConnections(proxy);
    expect((await previewOf(user)(0)).statusCode).toBe(200);
    expect(proxy.connections()).toBeGreaterThan(0);
    expect((await user.client.delete('/delete-email-account', { email: user.email })).statusCode).toBe(200);
    // Kept 30 s otherwise: gone within 5 s, only the removal closes them.
    await vi.waitFor(() => expect(proxy.connections()).toBe(0), { timeout: 5_000, interval: 50 });
  });
});

describe.each(DIALECTS)('pooled preview connections at shutdown on %s', (dialect) => {
  it('closes the pooled connections when the server shuts down', async () => {
    const proxy = await startProxy();
    const own = await createTestApp(dialect, viaProxy(proxy));
    let closed = false;
    try {
      const user = await connectUser(own);
      expect((await previewOf(user)(0)).statusCode).toBe(200);
      // Kept for the next preview (the idle time is 30 s)…
      expect(proxy.connections()).toBeGreaterThan(0);
      await own.close();
      closed = true;
      // …and closed with the app, well before that.
      await vi.waitFor(() => expect(proxy.connections()).toBe(0), { timeout: 5_000, interval: 50 });
    } finally {
      if (!closed) await own.close();
      await proxy.close();
    }
  });
});
