import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTestApp } from '#test/fixtures/app.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { seedSender } from '#test/helpers/seed.js';

// GET /get-subscriptions/:id in pages (the row's "Show more"): `limit` and `cursor` walk a sender's
// messages newest first, undated ones last, each once; without `limit` the spec's unpaged answer; a bad
// cursor is 400 in words; another user's sender is 404. On SQLite and PostgreSQL.

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 1);

describe.each(DIALECTS)("a sender's messages in pages on %s", (dialect) => {
  const t = withTestApp(dialect);

  /** A signed-in user whose mailbox has one sender of `dated` dated messages (some on the same day) and 2 undated. */
  async function userWithMessages(dated: number) {
    const client = new Client(t.app);
    const email = uniqueEmail('pages');
    expect((await client.post('/auth/signup', { email, password: 'long enough' })).statusCode).toBe(200);
    const { id: userId } = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const mailboxId = randomUUID();
    await t.db
      .insertInto('mailboxes')
      .values({
        id: mailboxId,
        user_id: userId,
        email: `${mailboxId}@yahoo.com`,
        provider: 'yahoo',
        secret: null,
        created_at: NOW,
      })
      .execute();
    const senderId = await seedSender(t.db, {
      userId,
      mailboxId,
      address: 'news@pages.example',
      name: 'Pages',
      messageCount: dated + 2,
      listMessageCount: dated + 2,
      lastMessageAt: NOW,
    });
    const rows = [
      // Pairs share a date: the provider id orders them.
      ...Array.from({ length: dated }, (_, i) => ({
        provider_id: `m${String(i).padStart(3, '0')}`,
        date: NOW - Math.floor(i / 2) * DAY,
      })),
      { provider_id: 'undated-a', date: null },
      { provider_id: 'undated-b', date: null },
    ];
    await t.db
      .insertInto('messages')
      .values(
        rows.map((r) => ({
          ...r,
          mailbox_id: mailboxId,
          sender_id: senderId,
          folder: 'INBOX',
          subject: `Issue ${r.provider_id}`,
          seen: null,
        })),
      )
      .execute();
    return { client, senderId };
  }

  it('walks every message once, newest first and undated last, ten at a time', async () => {
    const { client, senderId } = await userWithMessages(23);
    const all = (await client.call('GET /get-subscriptions/:id', { params: { id: senderId } })).data;
    expect(all).toHaveLength(25);
    // Without a limit there is no cursor (the spec's answer).
    const unpaged = await client.call('GET /get-subscriptions/:id', { params: { id: senderId } });
    expect(unpaged.nextCursor).toBeUndefined();

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.call('GET /get-subscriptions/:id', {
        params: { id: senderId },
        query: cursor ? { limit: 10, cursor } : { limit: 10 },
      });
      pages += 1;
      expect(page.data.length).toBeLessThanOrEqual(10);
      seen.push(...page.data.map((m) => m.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(25);
    const dated = Array.from({ length: 23 }, (_, i) => `m${String(i).padStart(3, '0')}`);
    // Same-day pairs come in the provider id's descending order; the undated ones close the walk.
    const expected = dated
      .map((id, i) => ({ id, day: Math.floor(i / 2) }))
      .sort((a, b) => a.day - b.day || (a.id < b.id ? 1 : -1))
      .map((m) => m.id);
    expect(seen).toEqual([...expected, 'undated-b', 'undated-a']);
  });

  it('answers a last page without a cursor, a bad cursor with 400 in words, and another user 404', async () => {
    const { client, senderId } = await userWithMessages(4);
    const page = await client.call('GET /get-subscriptions/:id', {
      params: { id: senderId },
      query: { limit: 10 },
    });
    expect(page.data).toHaveLength(6);
    expect(page.nextCursor).toBeNull();

    const bad = await client.call('GET /get-subscriptions/:id', {
      params: { id: senderId },
      query: { limit: 2, cursor: 'not a cursor!' },
      status: 400,
    });
    expect(JSON.stringify(bad)).toMatch(/cursor is not valid/);
    await client.call('GET /get-subscriptions/:id', {
      params: { id: senderId },
      query: 'limit=0',
      status: 400,
    });
    await client.call('GET /get-subscriptions/:id', {
      params: { id: senderId },
      query: 'limit=101',
      status: 400,
    });

    const other = await userWithMessages(1);
    const first = await other.client.call('GET /get-subscriptions/:id', {
      params: { id: other.senderId },
      query: { limit: 1 },
    });
    expect(first.nextCursor).toEqual(expect.any(String));
    // The first user's session with the other user's sender (and its cursor): not found.
    await client.call('GET /get-subscriptions/:id', {
      params: { id: other.senderId },
      query: { limit: 1, cursor: first.nextCursor ?? '' },
      status: 404,
    });
  });
});
