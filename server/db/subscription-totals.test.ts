import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_CATEGORIES } from '#contract/api.js';
import { createSubscriptionsRepository } from '../features/subscriptions/repository.js';
import { type DatabaseHandle, openDatabase } from './index.js';

// SQLite keeps each user's subscriptions per category in subscription_totals by triggers (migration
// 0011): after any mix of the writes the product makes to senders, the totals must equal a count.
describe('subscription totals (SQLite triggers)', () => {
  let dir: string;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ig-totals-'));
    handle = await openDatabase({ databaseUrl: null, dataDir: dir });
  });
  afterAll(async () => {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Every (user, category) with subscriptions, as the totals say and as a count says. */
  async function both() {
    const { db } = handle;
    const counted = await db
      .selectFrom('senders')
      .select(['user_id', 'category', (eb) => eb.fn.countAll<number>().as('n')])
      .where('is_subscription', '=', 1)
      .groupBy(['user_id', 'category'])
      .execute();
    const kept = await db
      .selectFrom('subscription_totals')
      .select(['user_id', 'category', 'n'])
      .where('n', '!=', 0)
      .execute();
    const key = (r: { user_id: string; category: string; n: number }) => `${r.user_id} ${r.category} ${r.n}`;
    return { counted: counted.map(key).sort(), kept: kept.map(key).sort() };
  }

  it('stay equal to a count through inserts, upserts, category moves and cascading deletes', async () => {
    const { db } = handle;
    let seed = 7;
    const rnd = () => {
      seed = (seed + 0x6d2b79f5) >>> 0;
      let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const users = ['u1', 'u2', 'u3'];
    const mailboxes: Array<{ id: string; user: string }> = [];
    for (const user of users) {
      await db
        .insertInto('users')
        .values({ id: user, email: `${user}@example.com`, password_hash: null, created_at: 0 })
        .execute();
      for (const n of [1, 2]) {
        const id = `${user}-m${n}`;
        await db
          .insertInto('mailboxes')
          .values({
            id,
            user_id: user,
            email: `${id}@example.com`,
            provider: 'yahoo',
            secret: null,
            created_at: 0,
          })
          .execute();
        mailboxes.push({ id, user });
      }
    }
    let next = 0;
    for (let step = 0; step < 400; step++) {
      const what = rnd();
      const all = await db.selectFrom('senders').select(['id', 'mailbox_id', 'address']).execute();
      if (what < 0.45 || all.length === 0) {
        // A scan's upsert: a new address, or an existing one seen again with or without list headers.
        const mailbox = pick(mailboxes);
        const address = rnd() < 0.5 || all.length === 0 ? `s${next++}@example.com` : pick(all).address;
        await db
          .insertInto('senders')
          .values({
            id: `id${next++}`,
            user_id: mailbox.user,
            mailbox_id: mailbox.id,
            address,
            is_subscription: rnd() < 0.7 ? 1 : 0,
            category: pick(SUBSCRIPTION_CATEGORIES),
            created_at: 0,
            updated_at: 0,
          })
          .onConflict((oc) =>
            oc.columns(['mailbox_id', 'address']).doUpdateSet({
              is_subscription: sql<number>`max(senders.is_subscription, excluded.is_subscription)`,
              message_count: sql<number>`senders.message_count + 1`,
            }),
          )
          .execute();
      } else if (what < 0.65) {
        await db
          .updateTable('senders')
          .set({ category: pick(SUBSCRIPTION_CATEGORIES) })
          .where('id', '=', pick(all).id)
          .execute();
      } else if (what < 0.72) {
        // A set-based write (all of one mailbox at once), including flips of is_subscription.
        await db
          .updateTable('senders')
          .set({ is_subscription: rnd() < 0.5 ? 1 : 0, category: pick(SUBSCRIPTION_CATEGORIES) })
          .where('mailbox_id', '=', pick(mailboxes).id)
          .execute();
      } else if (what < 0.85) {
        await db
          .updateTable('senders')
          .set({ message_count: 5, updated_at: 1 })
          .where('id', '=', pick(all).id)
          .execute();
      } else if (what < 0.94) {
        await db.deleteFrom('senders').where('id', '=', pick(all).id).execute();
      } else {
        // A mailbox removed: its senders go by ON DELETE CASCADE.
        const mailbox = pick(mailboxes);
        await db.deleteFrom('mailboxes').where('id', '=', mailbox.id).execute();
        await db
          .insertInto('mailboxes')
          .values({
            id: mailbox.id,
            user_id: mailbox.user,
            email: `${mailbox.id}@example.com`,
            provider: 'yahoo',
            secret: null,
            created_at: 0,
          })
          .execute();
      }
      const { counted, kept } = await both();
      expect(kept, `after step ${step}`).toEqual(counted);
    }
    expect((await both()).counted.length).toBeGreaterThan(3);

    // The list's total reads them, and an account deletion takes them along.
    const repo = createSubscriptionsRepository(db);
    for (const category of SUBSCRIPTION_CATEGORIES) {
      const row = await db
        .selectFrom('senders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', 'u1')
        .where('is_subscription', '=', 1)
        .where('category', '=', category)
        .executeTakeFirstOrThrow();
      expect(await repo.count('u1', category)).toBe(Number(row.n));
    }
    await db.deleteFrom('users').where('id', '=', 'u1').execute();
    expect(
      await db.selectFrom('subscription_totals').selectAll().where('user_id', '=', 'u1').execute(),
    ).toEqual([]);
    expect(await repo.count('u1', 'uncategorized')).toBe(0);
  });

  it('are counted afresh at every start', async () => {
    const { db } = handle;
    await sql`update subscription_totals set n = n + 100`.execute(db);
    expect((await both()).kept).not.toEqual((await both()).counted);
    await handle.close();
    handle = await openDatabase({ databaseUrl: null, dataDir: dir });
    const { counted, kept } = await both();
    expect(kept).toEqual(counted);
  });
});
