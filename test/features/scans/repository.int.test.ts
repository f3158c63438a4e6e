import { beforeAll, describe, expect, it } from 'vitest';
import { commitBatch } from '#server/features/scans/batch.js';
import { createScansRepository } from '#server/features/scans/repository.js';
import { headerFieldsFromPairs } from '#server/mail/headers/headers.js';
import type { MessageHeaders } from '#server/mail/provider.js';
import { withTestApp } from '#test/fixtures/app.js';
import { DIALECTS } from '#test/helpers/app.js';

function msg(id: string, date: number, headers: Record<string, string>): MessageHeaders {
  return {
    id,
    folder: 'INBOX',
    date,
    fields: headerFieldsFromPairs(Object.entries(headers).map(([name, value]) => ({ name, value }))),
  };
}

describe.each(DIALECTS)('scan batches written on %s', (dialect) => {
  const t = withTestApp(dialect);
  beforeAll(async () => {
    await t.db
      .insertInto('users')
      .values({ id: 'u1', email: `u1-${Date.now()}@x.example`, password_hash: null, created_at: 0 })
      .execute();
    await t.db
      .insertInto('mailboxes')
      .values({
        id: 'm1',
        user_id: 'u1',
        email: 'u1@x.example',
        provider: 'imap',
        secret: null,
        created_at: 0,
      })
      .execute();
  });

  it('adds counts across batches, keeps the newest name and links, and reports new subscriptions once', async () => {
    const repo = createScansRepository(t.db);
    const mailbox = { id: 'm1', userId: 'u1' };
    const first = await commitBatch(
      repo,
      mailbox,
      [
        msg('a1', 500, {
          From: 'Newest Name <news@x.example>',
          'List-Unsubscribe': '<https://x.example/new>',
        }),
        msg('b1', 400, { From: 'pal@y.example' }),
      ],
      { step: 1 },
      1,
    );
    const second = await commitBatch(
      repo,
      mailbox,
      [
        msg('a2', 100, { From: 'Old Name <news@x.example>', 'List-Unsubscribe': '<https://x.example/old>' }),
        msg('a3', 50, { From: 'Old Name <news@x.example>' }),
        msg('b2', 300, { From: 'pal@y.example', 'List-Id': '<pal.y.example>' }),
        // Replayed (a crash, a rescan after the provider lost its sync state): counted and listed once.
        msg('a1', 500, {
          From: 'Newest Name <news@x.example>',
          'List-Unsubscribe': '<https://x.example/new>',
        }),
      ],
      { step: 2 },
      2,
    );
    const news = await t.db
      .selectFrom('senders')
      .selectAll()
      .where('address', '=', 'news@x.example')
      .executeTakeFirstOrThrow();
    // a1 was replayed in the second batch: counted once.
    expect(news).toMatchObject({
      sender_name: 'Newest Name',
      message_count: 3,
      last_message_at: 500,
      is_subscription: 1,
      unsubscribe_http: JSON.stringify(['https://x.example/new']),
      unsubscribe_seen_at: 500,
    });
    const pal = await t.db
      .selectFrom('senders')
      .selectAll()
      .where('address', '=', 'pal@y.example')
      .executeTakeFirstOrThrow();
    // One list message beside personal mail does not make a correspondent a subscription.
    expect(pal).toMatchObject({
      message_count: 2,
      list_message_count: 1,
      is_subscription: 0,
      list_signal: 1,
      last_message_at: 400,
    });
    expect(news).toMatchObject({ list_message_count: 2 });
    expect(first.newSubscriptionIds).toEqual([news.id]);
    expect(second.newSubscriptionIds).toEqual([]);
    const refs = await t.db
      .selectFrom('messages')
      .select('provider_id')
      .where('mailbox_id', '=', 'm1')
      .orderBy('provider_id')
      .execute();
    expect(refs.map((r) => r.provider_id)).toEqual(['a1', 'a2', 'a3']);
    const mailboxRow = await t.db
      .selectFrom('mailboxes')
      .select('sync_state')
      .where('id', '=', 'm1')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(mailboxRow.sync_state!)).toEqual({ step: 2 });
  });

  it('keeps each batch’s senders’ read and 90-day counts equal to a recount of their references', async () => {
    await t.db
      .insertInto('mailboxes')
      .values({
        id: 'm-rates',
        user_id: 'u1',
        email: 'rates@x.example',
        provider: 'imap',
        secret: null,
        created_at: 0,
      })
      .execute();
    const repo = createScansRepository(t.db);
    const mailbox = { id: 'm-rates', userId: 'u1' };
    const day = 86_400_000;
    const now = 1_000 * day;
    const counts = () =>
      t.db
        .selectFrom('senders')
        .select(['address', 'read_count', 'read_known', 'read_rank', 'recent_count'])
        .where('mailbox_id', '=', 'm-rates')
        .where('is_subscription', '=', 1)
        .orderBy('address')
        .execute();
    let id = 0;
    // Three batches, newest first as a scan walks: read, unread and unknown states, mail inside and
    // outside the 90 days, a sender in every batch and one only in the last, and a replayed message.
    for (const [b, ages] of [
      [0, [1, 5, 30, 60]],
      [1, [80, 95, 120]],
      [2, [200, 400, 89]],
    ] as const) {
      const messages = ages.flatMap((age, i) =>
        ['a', 'b', ...(b === 2 ? ['c'] : [])].map((who) => ({
          ...msg(`r${id++}`, now - age * day, {
            From: `${who}@rates.example`,
            'List-Id': `<${who}.rates.example>`,
          }),
          seen: (i + b) % 3 === 0 ? true : (i + b) % 3 === 1 ? false : undefined,
        })),
      );
      if (b === 2) messages.push({ ...messages[0]!, id: 'r0' });
      await commitBatch(repo, mailbox, messages, { b }, now);
      const running = await counts();
      await repo.refreshSenderStats('m-rates', now);
      expect(running, `after batch ${b}`).toEqual(await counts());
    }
    const [a] = await counts();
    expect(a).toMatchObject({ address: 'a@rates.example', read_known: 7, read_count: 4, recent_count: 6 });
  });

  it('recounts the rates when a first-counted message already had a reference', async () => {
    await t.db
      .insertInto('mailboxes')
      .values({
        id: 'm-ref',
        user_id: 'u1',
        email: 'ref@x.example',
        provider: 'imap',
        secret: null,
        created_at: 0,
      })
      .execute();
    const repo = createScansRepository(t.db);
    const mailbox = { id: 'm-ref', userId: 'u1' };
    const now = 1_000 * 86_400_000;
    const list = { From: 'a@ref.example', 'List-Id': '<a.ref.example>' };
    await commitBatch(repo, mailbox, [{ ...msg('x1', now, list), seen: false }], { b: 0 }, now);
    const sender = await t.db
      .selectFrom('senders')
      .select('id')
      .where('mailbox_id', '=', 'm-ref')
      .executeTakeFirstOrThrow();
    // A reference written by another path than a scan batch, for a message no batch has counted yet.
    await t.db
      .insertInto('messages')
      .values({
        mailbox_id: 'm-ref',
        provider_id: 'x2',
        sender_id: sender.id,
        folder: 'INBOX',
        subject: '',
        date: now,
        seen: 1,
      })
      .execute();
    await commitBatch(
      repo,
      mailbox,
      [
        { ...msg('x2', now, list), seen: false },
        { ...msg('x3', now, list), seen: true },
      ],
      { b: 1 },
      now,
    );
    const counts = () =>
      t.db
        .selectFrom('senders')
        .select(['message_count', 'read_count', 'read_known', 'recent_count'])
        .where('mailbox_id', '=', 'm-ref')
        .executeTakeFirstOrThrow();
    const running = await counts();
    // Each reference counted once: x1 unread, x2 read (the reference kept), x3 read.
    expect(running).toEqual({ message_count: 3, read_count: 2, read_known: 3, recent_count: 3 });
    await repo.refreshSenderStats('m-ref', now);
    expect(await counts()).toEqual(running);
  });

  // The rule holds over the running totals, in whatever order batches bring the
  // spoofed and the personal mail.
  describe('list evidence across batches', () => {
    let n = 0;
    const repo = () => createScansRepository(t.db);
    async function mailbox(): Promise<{ id: string; userId: string }> {
      n += 1;
      const id = `m-evidence-${n}`;
      await t.db
        .insertInto('mailboxes')
        .values({
          id,
          user_id: 'u1',
          email: `${id}@x.example`,
          provider: 'imap',
          secret: null,
          created_at: 0,
        })
        .execute();
      return { id, userId: 'u1' };
    }
    const personal = (id: string) => msg(id, 100, { From: 'Pal <pal@y.example>', Subject: 'Hi' });
    const spoofed = (id: string) => msg(id, 200, { From: 'Pal <pal@y.example>', Precedence: 'bulk' });
    const sender = (mailboxId: string) =>
      t.db
        .selectFrom('senders')
        .select(['id', 'message_count', 'list_message_count', 'is_subscription'])
        .where('mailbox_id', '=', mailboxId)
        .where('address', '=', 'pal@y.example')
        .executeTakeFirstOrThrow();

    it('personal mail first, then one spoofed list message: never listed', async () => {
      const mb = await mailbox();
      await commitBatch(repo(), mb, ['p1', 'p2', 'p3', 'p4'].map(personal), { s: 1 }, 1);
      const result = await commitBatch(repo(), mb, [spoofed('s1')], { s: 2 }, 2);
      expect(result.newSubscriptionIds).toEqual([]);
      expect(await sender(mb.id)).toMatchObject({
        message_count: 5,
        list_message_count: 1,
        is_subscription: 0,
      });
    });

    it('the spoofed message first: listed as a new list, unlisted when the personal mail arrives', async () => {
      const mb = await mailbox();
      const first = await commitBatch(repo(), mb, [spoofed('s1')], { s: 1 }, 1);
      const listed = await sender(mb.id);
      expect(first.newSubscriptionIds).toEqual([listed.id]);
      expect(listed).toMatchObject({ message_count: 1, list_message_count: 1, is_subscription: 1 });
      await commitBatch(repo(), mb, ['p1', 'p2'].map(personal), { s: 2 }, 2);
      expect(await sender(mb.id)).toMatchObject({
        message_count: 3,
        list_message_count: 1,
        is_subscription: 0,
      });
      // A second list message makes it a list that also sends personal notes.
      const third = await commitBatch(repo(), mb, [spoofed('s2')], { s: 3 }, 3);
      expect(third.newSubscriptionIds).toEqual([listed.id]);
      expect(await sender(mb.id)).toMatchObject({
        message_count: 4,
        list_message_count: 2,
        is_subscription: 1,
      });
    });

    it('keeps a sender the user acted on listed when personal mail arrives', async () => {
      const mb = await mailbox();
      await commitBatch(repo(), mb, [spoofed('s1')], { s: 1 }, 1);
      await t.db.updateTable('senders').set({ category: 'kept' }).where('mailbox_id', '=', mb.id).execute();
      await commitBatch(repo(), mb, ['p1', 'p2'].map(personal), { s: 2 }, 2);
      expect(await sender(mb.id)).toMatchObject({
        message_count: 3,
        list_message_count: 1,
        is_subscription: 1,
      });
    });

    it('counts a replayed message once in both counts', async () => {
      const mb = await mailbox();
      await commitBatch(repo(), mb, [spoofed('s1'), personal('p1')], { s: 1 }, 1);
      await commitBatch(repo(), mb, [spoofed('s1'), personal('p1'), spoofed('s2')], { s: 2 }, 2);
      expect(await sender(mb.id)).toMatchObject({
        message_count: 3,
        list_message_count: 2,
        is_subscription: 1,
      });
    });
  });
});
