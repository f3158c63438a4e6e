import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { subscriptionsResponseSchema } from '#contract/api.js';
import { up as cutStoredNames } from '#server/db/migrations/0015_sender_names_cut_to_the_cap.js';
import { withTestApp, yahooOnDovecot } from '#test/fixtures/app.js';
import { withDovecot } from '#test/fixtures/peers.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';

// What one sender can do to the list through a real scan: a forged From with list headers
// among a correspondent's personal mail (item 15), and a sender with a huge name and thousands of
// unsubscribe URIs (item 10). A Yahoo mailbox, hosts overridden to a real Dovecot, on SQLite and
// PostgreSQL.

const dovecot = withDovecot();

describe.each(DIALECTS)('senders found by a scan on %s', (dialect) => {
  const t = withTestApp(dialect, () => yahooOnDovecot(dovecot));

  /** A Yahoo mailbox holding `messages`, connected and scanned by a new user. */
  async function scanned(messages: string[]): Promise<{ client: Client; mailboxId: string }> {
    const email = uniqueEmail('senders').replace('@example.com', '@yahoo.com');
    const password = 'app-password-1234';
    await dovecot.addUser({ user: email, password });
    for (const raw of messages) await dovecot.deliver(email, 'INBOX', raw);
    const client = new Client(t.app);
    expect(
      (await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' })).statusCode,
    ).toBe(200);
    expect((await client.post('/auth/yahoo', { email, appPassword: password })).statusCode).toBe(200);
    await t.app.jobs.idle();
    const mailbox = await t.db
      .selectFrom('mailboxes')
      .select(['id', 'status'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(mailbox.status).toBe('active');
    return { client, mailboxId: mailbox.id };
  }

  it('does not list a correspondent for one forged list message, and lists a new newsletter from its first', async () => {
    const pal = 'Pal <pal@friends.example>';
    const { client, mailboxId } = await scanned([
      rawMessage({ from: pal, subject: 'Lunch?', date: daysAgo(5) }),
      rawMessage({ from: pal, subject: 'Re: Lunch?', date: daysAgo(4) }),
      rawMessage({ from: pal, subject: 'Photos', date: daysAgo(3) }),
      rawMessage({ from: pal, subject: 'Birthday', date: daysAgo(2) }),
      // Someone else forges Pal's address on bulk mail; it is the newest, so the scan meets it first.
      rawMessage({ from: pal, subject: 'BUY NOW', date: daysAgo(1), precedence: 'bulk' }),
      rawMessage({
        from: 'Weekly <weekly@news.example>',
        subject: 'Issue 1',
        date: daysAgo(2),
        listUnsubscribe: '<https://news.example/u/1>',
      }),
    ]);
    const data = (await client.call('GET /get-unsubscribe-emails')).data;
    expect(data.map((s) => [s.address, s.messageCount])).toEqual([['weekly@news.example', 1]]);
    const senders = await t.db
      .selectFrom('senders')
      .select(['address', 'message_count', 'list_message_count', 'is_subscription'])
      .where('mailbox_id', '=', mailboxId)
      .orderBy('address')
      .execute();
    expect(senders.map((s) => ({ ...s, message_count: Number(s.message_count) }))).toEqual([
      { address: 'pal@friends.example', message_count: 5, list_message_count: 1, is_subscription: 0 },
      { address: 'weekly@news.example', message_count: 1, list_message_count: 1, is_subscription: 1 },
    ]);
  });

  it('stores and lists a 200 KB name cut to 256 characters and at most 10 of 10,000 URIs', async () => {
    const uris = Array.from({ length: 10_000 }, (_, i) => `https://huge.example/u/${i}`);
    const { client, mailboxId } = await scanned([
      rawMessage({
        from: `"${'N'.repeat(200_000)}" <huge@huge.example>`,
        subject: 'Huge',
        date: daysAgo(1),
        listUnsubscribe: uris.map((u) => `<${u}>`).join(',\r\n '),
      }),
    ]);
    const res = await client.get('/get-unsubscribe-emails');
    expect(res.statusCode).toBe(200);
    const { data } = client.json(res, subscriptionsResponseSchema);
    expect(data.map((s) => [s.address, s.senderName])).toEqual([['huge@huge.example', 'N'.repeat(256)]]);
    expect(res.body.length).toBeLessThan(2000);
    const row = await t.db
      .selectFrom('senders')
      .select(['sender_name', 'unsubscribe_http', 'unsubscribe_mailto'])
      .where('mailbox_id', '=', mailboxId)
      .executeTakeFirstOrThrow();
    expect(row.sender_name).toHaveLength(256);
    expect(JSON.parse(row.unsubscribe_http)).toEqual(uris.slice(0, 10));
    expect(JSON.parse(row.unsubscribe_mailto)).toEqual([]);

    // A row stored before names were cut is cut once by migration 0015, so no answer carries it.
    await t.db
      .updateTable('senders')
      .set({ sender_name: 'é'.repeat(200_000) })
      .where('mailbox_id', '=', mailboxId)
      .execute();
    await cutStoredNames(t.db as unknown as Kysely<unknown>);
    const again = await client.get('/get-unsubscribe-emails');
    expect(client.json(again, subscriptionsResponseSchema).data[0]?.senderName).toBe('é'.repeat(256));
    expect(again.body.length).toBeLessThan(2000);
  });
});
