import { afterEach, describe, expect, it } from 'vitest';
import { withDovecot } from '#test/fixtures/peers.js';
import { DIALECTS, type TestApp } from '#test/helpers/app.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { type YahooUser, yahooUser } from '#test/helpers/yahoo-user.js';

// What one sender's List-Unsubscribe may make the product do with the user's mailbox: a mailto reaches exactly one address with a short request; a mailto that cannot be sent
// trashes nothing; Keep lifts a block; a block that would trash mail without list headers asks first.
// A Yahoo mailbox on a real Dovecot, its SMTP on a local peer; observed there and in the mailbox.

const dovecot = withDovecot();

describe.each(DIALECTS)('unsubscribe safety on %s', (dialect) => {
  const open: YahooUser[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  async function connected(messages: string[]) {
    const user = await yahooUser(dovecot, dialect, messages);
    open.push(user);
    const { t, client, smtp, email, password } = user;
    const list = async (category = 'uncategorized') =>
      (await client.call('GET /get-unsubscribe-emails', { query: { category } })).data;
    const idOf = async (address: string) => (await list()).find((s) => s.address === address)!.id;
    return { t, client, smtp, email, password, list, idOf };
  }

  const folderCount = (email: string, password: string, folder: string) =>
    dovecot.count({ user: email, password }, folder);

  const receipts = (t: TestApp, senderId: string) =>
    t.db
      .selectFrom('unsubscribe_receipts')
      .select(['method', 'target', 'recipient', 'ok', 'pending', 'detail'])
      .where('sender_id', '=', senderId)
      .orderBy('created_at')
      .execute();

  it('sends a mailto to its first address only, ignoring to=, cc=, bcc= and a body with links', async () => {
    const victims = 'x@victim.example,y@victim.example';
    const { t, client, smtp, email, idOf } = await connected([
      rawMessage({
        from: 'Relay <news@relay.example>',
        subject: 'Offer',
        date: daysAgo(1),
        listUnsubscribe: `<mailto:unsub@relay.example,r1@victim.example?to=${victims}&cc=z@victim.example&bcc=w@victim.example&subject=bye&body=BUY%20NOW%20https://pills.example>`,
      }),
    ]);
    const id = await idOf('news@relay.example');
    const res = await client.post('/unsubscribe', { subscriptionId: id });
    expect(res.json()).toMatchObject({ method: 'mailto', oneClickUnsubscribeSuccess: true });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.mailFrom).toBe(email);
    expect(mail.rcptTo).toEqual(['unsub@relay.example']);
    expect(mail.raw).not.toMatch(/victim/i);
    expect(mail.raw).not.toContain('BUY NOW');
    expect(mail.raw).toMatch(/^Subject: bye$/m);
    expect(
      mail.raw
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join('\n')
        .trim(),
    ).toBe('unsubscribe');
    expect(await receipts(t, id)).toEqual([
      expect.objectContaining({ method: 'mailto', recipient: 'unsub@relay.example', ok: 1, pending: 0 }),
    ]);
  });

  it('sends nothing to an address with an encoded line break', async () => {
    const { client, smtp, idOf } = await connected([
      rawMessage({
        from: 'Inject <news@inject.example>',
        subject: 'Hi',
        date: daysAgo(1),
        listUnsubscribe: '<mailto:unsub@inject.example%0D%0ABcc:%20x@victim.example>',
        listId: '<inject.example>',
      }),
    ]);
    const id = await idOf('news@inject.example');
    const res = await client.post('/unsubscribe', { subscriptionId: id });
    // No safe way to write to the sender: the spec's last resort, a block (all its mail is list mail).
    expect(res.json()).toMatchObject({ method: 'block', blockedAndTrashed: true });
    expect(smtp.received).toHaveLength(0);
  });

  it('answers 502 and trashes nothing when the unsubscribe mail is refused, then blocks on request', async () => {
    const { t, client, smtp, email, password, list, idOf } = await connected([
      rawMessage({
        from: 'Mailer <news@refused.example>',
        subject: 'One',
        date: daysAgo(2),
        listUnsubscribe: '<mailto:leave@refused.example>',
      }),
      rawMessage({
        from: 'Mailer <news@refused.example>',
        subject: 'Two',
        date: daysAgo(1),
        listUnsubscribe: '<mailto:leave@refused.example>',
      }),
    ]);
    const id = await idOf('news@refused.example');
    smtp.mode = 'refuse';
    const refused = await client.post('/unsubscribe', { subscriptionId: id });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({
      offerBlock: true,
      message: expect.stringMatching(/could not be sent/),
    });
    expect((await list()).map((s) => s.id)).toContain(id);
    expect(await folderCount(email, password, 'Trash')).toBe(0);
    expect(await t.db.selectFrom('block_rules').selectAll().execute()).toEqual([]);
    expect(await receipts(t, id)).toEqual([expect.objectContaining({ method: 'mailto', ok: 0, pending: 0 })]);

    // The provider's SMTP is down: the same answer, still nothing trashed.
    await smtp.stop();
    expect((await client.post('/unsubscribe', { subscriptionId: id })).statusCode).toBe(502);
    expect(await folderCount(email, password, 'Trash')).toBe(0);

    // Block is the user's explicit choice.
    const blocked = await client.post('/block-subscription', { subscriptionId: id });
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json()).toMatchObject({ id, category: 'unsubscribed' });
    expect(await folderCount(email, password, 'Trash')).toBe(2);
  });

  it('lifts the block when a blocked sender is kept: new mail stays in the inbox', async () => {
    const club = (subject: string, n: number) =>
      rawMessage({
        from: 'Club <club@keep.example>',
        subject,
        date: daysAgo(n),
        listId: '<club.keep.example>',
      });
    const { t, client, email, password, idOf } = await connected([club('One', 3), club('Two', 2)]);
    const id = await idOf('club@keep.example');
    expect((await client.post('/unsubscribe', { subscriptionId: id })).json()).toMatchObject({
      method: 'block',
      blockedAndTrashed: true,
    });
    expect(await folderCount(email, password, 'Trash')).toBe(2);

    const kept = await client.post('/keep-subscription', { subscriptionId: id });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ id, category: 'kept', blockLifted: true });
    expect(await t.db.selectFrom('block_rules').selectAll().execute()).toEqual([]);
    expect((await receipts(t, id)).map((r) => [r.method, r.ok])).toEqual([
      ['block', 1],
      ['unblock', 1],
    ]);

    await dovecot.deliver(email, 'INBOX', club('Three', 0));
    const before = await t.db.selectFrom('mailboxes').select('last_scanned_at').executeTakeFirstOrThrow();
    const scheduler = t.app.startScheduler();
    try {
      await expect
        .poll(
          async () =>
            (await t.db.selectFrom('mailboxes').select('last_scanned_at').executeTakeFirstOrThrow())
              .last_scanned_at !== before.last_scanned_at,
          { timeout: 15_000 },
        )
        .toBe(true);
    } finally {
      scheduler.stop();
    }
    await t.app.jobs.idle();
    expect(await folderCount(email, password, 'INBOX')).toBe(1);
    expect(await folderCount(email, password, 'Trash')).toBe(2);
  });

  it('asks before a block trashes mail without list headers, and blocks once confirmed', async () => {
    const friend = 'Pat <pat@mixed.example>';
    const { t, client, email, password, idOf } = await connected([
      rawMessage({ from: friend, subject: 'Club news', date: daysAgo(5), listId: '<club.mixed.example>' }),
      rawMessage({ from: friend, subject: 'Club news 2', date: daysAgo(4), listId: '<club.mixed.example>' }),
      rawMessage({ from: friend, subject: 'Lunch?', date: daysAgo(3) }),
      rawMessage({ from: friend, subject: 'Photos', date: daysAgo(2) }),
    ]);
    const id = await idOf('pat@mixed.example');
    const asked = await client.post('/unsubscribe', { subscriptionId: id });
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toMatchObject({
      confirmBlock: true,
      unlistedMessages: 2,
      messages: 4,
      message: expect.stringContaining('2 of the 4 messages from pat@mixed.example'),
    });
    expect(await folderCount(email, password, 'Trash')).toBe(0);
    expect((await client.post('/block-subscription', { subscriptionId: id })).statusCode).toBe(409);
    expect(await t.db.selectFrom('block_rules').selectAll().execute()).toEqual([]);

    const confirmed = await client.post('/unsubscribe', { subscriptionId: id, confirmBlock: true });
    expect(confirmed.json()).toMatchObject({ method: 'block', blockedAndTrashed: true });
    expect(await folderCount(email, password, 'Trash')).toBe(4);
  });
});
