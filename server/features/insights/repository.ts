import { sql } from 'kysely';
import type { SubscriptionCategory } from '#contract/api.js';
import type { Db } from '#server/db/index.js';
import { sendersStamp } from '#server/db/senders-stamp.js';

// The SQL of the Insights screen (docs/decisions/083-insights.md). Every read starts from the user's
// senders (senders_user_category) and reaches their message references through the (sender_id, date,
// seen) index, so a read costs what the user's mail in the window costs, whatever the other users hold.

export interface WeekCount {
  /** Weeks since the window's start (0 is the oldest). */
  week: number;
  category: SubscriptionCategory;
  messages: number;
}

export interface TopSenderRow {
  id: string;
  name: string;
  address: string;
  category: SubscriptionCategory;
  recentCount: number;
  readCount: number;
  readKnown: number;
}

export interface QuieterRow {
  id: string;
  name: string;
  address: string;
  actedAt: number;
  blocked: boolean;
  /** References dated in the window before the action. */
  before: number;
  /** References dated at or after the action. */
  since: number;
  /** References dated `lateAfterMs` or more after the action. */
  late: number;
}

export function createInsightsRepository(db: Db) {
  return {
    /** A string that changes when the user's senders may have (db/senders-stamp.ts). */
    stamp: sendersStamp(db),

    /** The subscriptions' dated references in [start, start + weeks × weekMs), by week and category. */
    async weekly(userId: string, start: number, weeks: number, weekMs: number): Promise<WeekCount[]> {
      const end = start + weeks * weekMs;
      const rows = await sql<{ w: number | string; category: SubscriptionCategory; n: number | string }>`
        select (m.date - cast(${start} as bigint)) / cast(${weekMs} as bigint) as w, s.category as category,
          count(*) as n
        from senders s
        join messages m on m.sender_id = s.id
        where s.user_id = ${userId} and s.is_subscription = 1
          and m.date >= cast(${start} as bigint) and m.date < cast(${end} as bigint)
        group by 1, 2
      `.execute(db);
      return rows.rows.map((r) => ({ week: Number(r.w), category: r.category, messages: Number(r.n) }));
    },

    /** References of the user's subscriptions without a known date (the weekly chart cannot place them). */
    async undated(userId: string): Promise<number> {
      const row = await db
        .selectFrom('senders as s')
        .innerJoin('messages as m', 'm.sender_id', 's.id')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('s.user_id', '=', userId)
        .where('s.is_subscription', '=', 1)
        .where('m.date', 'is', null)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** The subscriptions with the most mail of the last 90 days (senders.recent_count), most first. */
    async topSenders(userId: string, limit: number): Promise<TopSenderRow[]> {
      const rows = await db
        .selectFrom('senders')
        .select(['id', 'sender_name', 'address', 'category', 'recent_count', 'read_count', 'read_known'])
        .where('user_id', '=', userId)
        .where('is_subscription', '=', 1)
        .where('recent_count', '>', 0)
        .orderBy('recent_count', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.sender_name,
        address: r.address,
        category: r.category,
        recentCount: Number(r.recent_count),
        readCount: Number(r.read_count),
        readKnown: Number(r.read_known),
      }));
    },

    /**
     * Every unsubscribed (or blocked) subscription with its dated references in the `beforeMs` before
     * the action, since it, and from `lateAfterMs` after it. Blocked: a block rule of its address is in
     * place in its mailbox.
     */
    async quieter(userId: string, beforeMs: number, lateAfterMs: number): Promise<QuieterRow[]> {
      const rows = await sql<{
        id: string;
        sender_name: string;
        address: string;
        unsubscribed_at: number | string;
        blocked: number | string;
        before_n: number | string | null;
        since_n: number | string | null;
        late_n: number | string | null;
      }>`
        select s.id, s.sender_name, s.address, s.unsubscribed_at,
          case when exists (
            select 1 from block_rules b where b.mailbox_id = s.mailbox_id and b.address = s.address
          ) then 1 else 0 end as blocked,
          sum(case when m.date < s.unsubscribed_at then 1 else 0 end) as before_n,
          sum(case when m.date >= s.unsubscribed_at then 1 else 0 end) as since_n,
          sum(case when m.date >= s.unsubscribed_at + cast(${lateAfterMs} as bigint) then 1 else 0 end) as late_n
        from senders s
        left join messages m on m.sender_id = s.id and m.date >= s.unsubscribed_at - cast(${beforeMs} as bigint)
        where s.user_id = ${userId} and s.is_subscription = 1 and s.category = 'unsubscribed'
          and s.unsubscribed_at is not null
        group by s.id, s.sender_name, s.address, s.unsubscribed_at, s.mailbox_id
      `.execute(db);
      return rows.rows.map((r) => ({
        id: r.id,
        name: r.sender_name,
        address: r.address,
        actedAt: Number(r.unsubscribed_at),
        blocked: Number(r.blocked) === 1,
        before: Number(r.before_n ?? 0),
        since: Number(r.since_n ?? 0),
        late: Number(r.late_n ?? 0),
      }));
    },
  };
}

export type InsightsRepository = ReturnType<typeof createInsightsRepository>;
