import { afterEach, describe, expect, it } from 'vitest';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { checkMailbox } from '#test/fixtures/sender-rules.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { startHttpsSender } from '#test/helpers/https-sender.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { type YahooUser, yahooUser } from '#test/helpers/yahoo-user.js';

// The unsubscribe engine end to end: a Yahoo mailbox on a real Dovecot, its SMTP on a local
// peer, senders' endpoints on a local HTTPS server with its own CA; observed at the sender and in the
// mailbox.

const { dovecot, sender } = peersForThisFile({
  dovecot: () => startDovecot(),
  sender: () => startHttpsSender(),
});

describe.each(DIALECTS)('unsubscribing on %s', (dialect) => {
  const open: YahooUser[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  /** A user with a Yahoo mailbox holding `messages`, connected and scanned. */
  async function connected(messages: string[]) {
    const user = await yahooUser(dovecot, dialect, messages, { UNSUBSCRIBE_ALLOWED_HOSTS: '127.0.0.1' });
    open.push(user);
    const { t, client, smtp, email, password } = user;
    const { data: list } = await client.call('GET /get-unsubscribe-emails');
    const byAddress = (address: string) => list.find((s) => s.address === address)!;
    return { t, client, smtp, email, password, byAddress };
  }

  const folderCount = (email: string, password: string, folder: string) =>
    dovecot.count({ user: email, password }, folder);

  const unsubscribe = (client: Client, id: string) =>
    client.call('POST /unsubscribe', { body: { subscriptionId: id } });

  it('posts RFC 8058 one-click once, even when clicked twice, and moves the sender to Unsubscribed', async () => {
    const path = `/one-click/${Date.now()}`;
    sender.respond(path, { status: 202 });
    const { client, byAddress } = await connected([
      rawMessage({
        from: 'Shop <shop@oneclick.example>',
        subject: 'Sale',
        date: daysAgo(1),
        listUnsubscribe: `<${sender.origin}${path}>, <mailto:leave@oneclick.example>`,
        listUnsubscribePost: 'List-Unsubscribe=One-Click',
      }),
    ]);
    const id = byAddress('shop@oneclick.example').id;
    const [a, b] = await Promise.all([unsubscribe(client, id), unsubscribe(client, id)]);
    expect(a).toMatchObject({ subscriptionId: id, method: 'one-click', oneClickUnsubscribeSuccess: true });
    expect(b).toEqual(a);
    expect(await unsubscribe(client, id)).toMatchObject({ oneClickUnsubscribeSuccess: true });
    const hits = sender.requests.filter((r) => r.path === path);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ method: 'POST', body: 'List-Unsubscribe=One-Click', cookie: undefined });
    expect(hits[0]!.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    const unsubscribed = (
      await client.call('GET /get-unsubscribe-emails', { query: { category: 'unsubscribed' } })
    ).data;
    expect(unsubscribed.map((s) => s.id)).toEqual([id]);
  });

  it('runs a Keep clicked during an unsubscribe after it, with its own answer', async () => {
    const path = `/slow/${Date.now()}`;
    sender.respond(path, { status: 200, delayMs: 300 });
    const { client, byAddress } = await connected([
      rawMessage({
        from: 'Shop <shop@both.example>',
        subject: 'Sale',
        date: daysAgo(1),
        listUnsubscribe: `<${sender.origin}${path}>`,
        listUnsubscribePost: 'List-Unsubscribe=One-Click',
      }),
    ]);
    const id = byAddress('shop@both.example').id;
    const unsubscribing = client.post('/unsubscribe', { subscriptionId: id });
    await expect.poll(() => sender.requests.filter((r) => r.path === path).length).toBe(1);
    const kept = await client.post('/keep-subscription', { subscriptionId: id });
    expect((await unsubscribing).json()).toMatchObject({
      method: 'one-click',
      oneClickUnsubscribeSuccess: true,
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ id, category: 'kept' });
    const keptList = (await client.call('GET /get-unsubscribe-emails', { query: { category: 'kept' } })).data;
    expect(keptList.map((s) => s.id)).toEqual([id]);
  });

  it('sends the mailto request from the user’s own mailbox, once', async () => {
    const { client, smtp, email, byAddress } = await connected([
      rawMessage({
        from: 'Digest <digest@mailto.example>',
        subject: 'Weekly',
        date: daysAgo(1),
        listUnsubscribe: '<mailto:leave@mailto.example?subject=remove%20me&body=please>',
      }),
    ]);
    const id = byAddress('digest@mailto.example').id;
    expect(await unsubscribe(client, id)).toMatchObject({
      method: 'mailto',
      oneClickUnsubscribeSuccess: true,
    });
    expect(await unsubscribe(client, id)).toMatchObject({
      method: 'mailto',
      oneClickUnsubscribeSuccess: true,
    });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.user).toBe(email);
    expect(mail.mailFrom).toBe(email);
    expect(mail.rcptTo).toEqual(['leave@mailto.example']);
    expect(mail.raw).toMatch(/^Subject: remove me$/m);
    expect(mail.raw).toContain('please');
  });

  it('falls back to the manual page when the one-click endpoint fails, and records the confirmation', async () => {
    const path = `/broken/${Date.now()}`;
    sender.respond(path, { status: 500 });
    const { client, byAddress } = await connected([
      rawMessage({
        from: 'News <news@manual.example>',
        subject: 'Hello',
        date: daysAgo(1),
        listUnsubscribe: `<${sender.origin}${path}>, <https://manual.example/page>`,
        listUnsubscribePost: 'List-Unsubscribe=One-Click',
      }),
    ]);
    const id = byAddress('news@manual.example').id;
    const result = await unsubscribe(client, id);
    expect(result).toMatchObject({
      method: 'manual',
      manualUnsubscribe: true,
      oneClickUnsubscribeSuccess: false,
      unsubscribeOptions: [`${sender.origin}${path}`, 'https://manual.example/page'],
    });
    // The server never opens the manual page itself.
    expect(sender.requests.filter((r) => r.path === path)).toHaveLength(1);
    expect((await client.call('GET /get-unsubscribe-emails')).data.map((s) => s.id)).toContain(id);
    const confirmed = await client.post('/manual-unsubscribe', { subscriptionId: id });
    expect(confirmed.json()).toMatchObject({ id, category: 'unsubscribed' });
  });

  it("posts one-click only for a message the sender's domain signed (RFC 8058 §3.1), else offers the link", async () => {
    const forgedPath = `/forged/${Date.now()}`;
    const signedPath = `/signed/${Date.now()}`;
    sender.respond(forgedPath, { status: 200 });
    sender.respond(signedPath, { status: 200 });
    const { t, client, byAddress } = await connected([
      // A forgery: the sender's name and a one-click header, no signature (or another domain's).
      rawMessage({
        from: 'Bank <alerts@forged.example>',
        subject: 'Statement',
        date: daysAgo(1),
        listUnsubscribe: `<${sender.origin}${forgedPath}>`,
        listUnsubscribePost: 'List-Unsubscribe=One-Click',
        dkim: false,
      }),
      rawMessage({
        from: 'Shop <news@signed.example>',
        subject: 'Sale',
        date: daysAgo(1),
        listUnsubscribe: `<${sender.origin}${signedPath}>`,
        listUnsubscribePost: 'List-Unsubscribe=One-Click',
      }),
    ]);
    const forged = await unsubscribe(client, byAddress('alerts@forged.example').id);
    expect(forged).toMatchObject({
      method: 'manual',
      oneClickUnsubscribeSuccess: false,
      manualUnsubscribe: true,
      unsubscribeOptions: [`${sender.origin}${forgedPath}`],
    });
    expect(sender.requests.filter((r) => r.path === forgedPath)).toHaveLength(0);
    const signed = await unsubscribe(client, byAddress('news@signed.example').id);
    expect(signed).toMatchObject({ method: 'one-click', oneClickUnsubscribeSuccess: true });
    expect(sender.requests.filter((r) => r.path === signedPath)).toHaveLength(1);
    // The receipts record the domain and the result.
    const details = (
      await t.db
        .selectFrom('unsubscribe_receipts')
        .select(['method', 'ok', 'detail'])
        .orderBy('created_at')
        .execute()
    ).map((r) => [r.method, r.ok, r.detail]);
    expect(details).toEqual([
      ['one-click', 0, 'not sent: DKIM no DKIM signature'],
      ['one-click', 1, 'HTTP 200; DKIM pass (d=signed.example)'],
    ]);
  });

  it('blocks a sender without a link: existing mail to Trash, and the next message too', async () => {
    const list = (subject: string, n: number) =>
      rawMessage({
        from: 'Club <club@block.example>',
        subject,
        date: daysAgo(n),
        listId: '<club.block.example>',
      });
    const { t, client, email, password, byAddress } = await connected([list('One', 3), list('Two', 2)]);
    const id = byAddress('club@block.example').id;
    expect(await folderCount(email, password, 'Trash')).toBe(0);
    expect(await unsubscribe(client, id)).toMatchObject({ method: 'block', blockedAndTrashed: true });
    expect(await folderCount(email, password, 'Trash')).toBe(2);
    expect(await folderCount(email, password, 'INBOX')).toBe(0);

    await dovecot.deliver(email, 'INBOX', list('Three', 0));
    const scheduler = t.app.startScheduler();
    try {
      await expect.poll(() => folderCount(email, password, 'Trash'), { timeout: 15_000 }).toBe(3);
    } finally {
      scheduler.stop();
    }
    await t.app.jobs.idle();
    expect(await folderCount(email, password, 'INBOX')).toBe(0);
  });

  it('blocks a sender without a link for new mail only when "Also move existing mail to Trash" is off', async () => {
    const list = (subject: string, n: number) =>
      rawMessage({
        from: 'Club <club@keep.example>',
        subject,
        date: daysAgo(n),
        listId: '<club.keep.example>',
      });
    const personal = rawMessage({ from: 'Club <club@keep.example>', subject: 'A note', date: daysAgo(1) });
    const { t, client, email, password, byAddress } = await connected([
      list('One', 3),
      list('Two', 2),
      personal,
    ]);
    const id = byAddress('club@keep.example').id;
    // Mail without list headers would need a yes only if it were moved: nothing is asked, nothing moves.
    const answer = await client.call('POST /unsubscribe', {
      body: { subscriptionId: id, moveToTrash: false },
    });
    expect(answer).toMatchObject({ method: 'block', blockedAndTrashed: true, movedToTrash: 0 });
    expect([
      await folderCount(email, password, 'INBOX'),
      await folderCount(email, password, 'Trash'),
    ]).toEqual([3, 0]);

    // The block still takes what comes next, at the next check.
    await dovecot.deliver(email, 'INBOX', list('Three', 0));
    await checkMailbox(t);
    expect([
      await folderCount(email, password, 'INBOX'),
      await folderCount(email, password, 'Trash'),
    ]).toEqual([3, 1]);
  });

  it('keeps a blocked sender and, asked to with the Keep or after it, puts back the mail the block moved to Trash', async () => {
    const list = (from: string, subject: string, n: number) =>
      rawMessage({ from, subject, date: daysAgo(n), listId: `<${from.split('@')[1]}>` });
    const { client, email, password, byAddress } = await connected([
      list('back@block.example', 'One', 3),
      list('back@block.example', 'Two', 2),
      list('stays@block.example', 'Three', 1),
    ]);
    for (const address of ['back@block.example', 'stays@block.example']) {
      await unsubscribe(client, byAddress(address).id);
    }
    expect(await folderCount(email, password, 'Trash')).toBe(3);

    const back = await client.call('POST /keep-subscription', {
      body: { subscriptionId: byAddress('back@block.example').id, restoreFromTrash: true },
    });
    expect(back).toMatchObject({ category: 'kept', blockLifted: true, restoredFromTrash: 2 });
    const stays = await client.call('POST /keep-subscription', {
      body: { subscriptionId: byAddress('stays@block.example').id },
    });
    expect(stays).toMatchObject({ category: 'kept', blockLifted: true });
    expect(stays.restoredFromTrash).toBeUndefined();
    expect(await folderCount(email, password, 'Trash')).toBe(1);
    // Asked after the Keep (the note's "Put its mail back"): the block's moves are still known.
    const later = await client.call('POST /keep-subscription', {
      body: { subscriptionId: byAddress('stays@block.example').id, restoreFromTrash: true },
    });
    expect(later).toMatchObject({ category: 'kept', restoredFromTrash: 1 });
    expect([
      await folderCount(email, password, 'INBOX'),
      await folderCount(email, password, 'Trash'),
    ]).toEqual([3, 0]);
  });

  it('refuses another user’s subscription', async () => {
    const { t, byAddress } = await connected([
      rawMessage({ from: 'a@mine.example', subject: 'x', date: daysAgo(1), listId: '<mine.example>' }),
    ]);
    const stranger = new Client(t.app);
    await stranger.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    const id = byAddress('a@mine.example').id;
    expect((await stranger.post('/unsubscribe', { subscriptionId: id })).statusCode).toBe(404);
    expect((await stranger.post('/manual-unsubscribe', { subscriptionId: id })).statusCode).toBe(404);
  });
});
