import { sql } from 'kysely';
import type { Db } from '#server/db/index.js';
import type { SubscriptionCategory } from '#server/db/schema.js';
import { createInsightsRepository } from '../insights/repository.js';

// SQL of the weekly report (docs/decisions/084-weekly-report.md): who is due, the claim of a user's week
// (one row of weekly_reports, written before the mail goes out), and what the report says, read from the
// rows the other features keep (senders, moved_messages, messages). Headers, dates and counts only.

/** What the report lists at most of each kind; the totals count everything. */
export const LISTED = 10;

const DAY = 86_400_000;
/** The window before an unsubscribe whose mail gives the sender's usual pace (as messagesPerMonth: 90 days). */
export const PACE_WINDOW_MS = 90 * DAY;

export interface ReportAccount {
  email: string;
  /** The address is proven (docs/decisions/056-proven-addresses-and-takeover.md): only then is mail sent to it. */
  emailVerified: boolean;
  weeklyReport: boolean;
  createdAt: number;
}

export interface ReportSender {
  name: string;
  address: string;
}

export interface NewSubscription extends ReportSender {
  category: SubscriptionCategory;
  messageCount: number;
}

export interface MoveGroup {
  cause: 'rule' | 'screener';
  /** The Destination as stored (JSON text parsed), or null when it no longer parses. */
  destination: { kind: 'folder'; path: string } | { kind: 'trash' } | { kind: 'archive' } | null;
  messages: number;
  senders: number;
}

export interface MovedSender extends ReportSender {
  cause: 'rule' | 'screener';
  messages: number;
}

export interface StillSendingSender extends ReportSender {
  unsubscribedAt: number;
  lastMessageAt: number | null;
}

/** An unsubscribed (or blocked) sender's mail around the action, for the estimate of mail avoided. */
export interface QuietedSender {
  unsubscribedAt: number;
  /** Its messages dated in the PACE_WINDOW_MS before the action. */
  before: number;
  /** Its messages dated at or after the action (mail that came anyway). */
  since: number;
}

const num = (v: number | string | bigint | null | undefined): number => Number(v ?? 0);

function destinationOf(text: string): MoveGroup['destination'] {
  try {
    const value = JSON.parse(text) as { kind?: string; path?: unknown };
    if (value.kind === 'folder' && typeof value.path === 'string')
      return { kind: 'folder', path: value.path };
    if (value.kind === 'trash' || value.kind === 'archive') return { kind: value.kind };
  } catch {
    // An unreadable destination is counted without a place.
  }
  return null;
}

export function createReportRepository(db: Db) {
  const insights = createInsightsRepository(db);
  return {
    /**
     * Users with the report on and a proven address, old enough for `week`, whose report of `week` nobody
     * claimed yet.
     */
    async dueUsers(week: string, weekEnd: number, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('users')
        .select('id')
        .where('weekly_report', '=', 1)
        .where('email_verified', '=', 1)
        .where('created_at', '<', weekEnd)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('weekly_reports')
                .select('weekly_reports.user_id')
                .whereRef('weekly_reports.user_id', '=', 'users.id')
                .where('weekly_reports.week', '=', week),
            ),
          ),
        )
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    async account(userId: string): Promise<ReportAccount | undefined> {
      const row = await db
        .selectFrom('users')
        .select(['email', 'email_verified', 'weekly_report', 'created_at'])
        .where('id', '=', userId)
        .executeTakeFirst();
      return (
        row && {
          email: row.email,
          emailVerified: num(row.email_verified) === 1,
          weeklyReport: num(row.weekly_report) === 1,
          createdAt: num(row.created_at),
        }
      );
    },

    /**
     * Claims the user's report of `week`: true for the one caller whose row went in, false for every
     * other (another instance, a second job), whatever the interleaving: the primary key decides.
     */
    async claim(userId: string, week: string, tokenHash: string, at: number): Promise<boolean> {
      const result = await db
        .insertInto('weekly_reports')
        .values({ user_id: userId, week, token_hash: tokenHash, claimed_at: at, sent_at: null })
        .onConflict((oc) => oc.columns(['user_id', 'week']).doNothing())
        .executeTakeFirst();
      return num(result.numInsertedOrUpdatedRows) === 1;
    },

    async markSent(userId: string, week: string, at: number): Promise<void> {
      await db
        .updateTable('weekly_reports')
        .set({ sent_at: at })
        .where('user_id', '=', userId)
        .where('week', '=', week)
        .execute();
    },

    /** Gives a claim back after a send that failed (nothing went out): the week is due again. */
    async release(userId: string, week: string, tokenHash: string): Promise<void> {
      await db
        .deleteFrom('weekly_reports')
        .where('user_id', '=', userId)
        .where('week', '=', week)
        .where('token_hash', '=', tokenHash)
        .where('sent_at', 'is', null)
        .execute();
    },

    /** Turns the report off for the user whose report carried the token; false when no report did. */
    async turnOffByToken(tokenHash: string): Promise<boolean> {
      const row = await db
        .selectFrom('weekly_reports')
        .select('user_id')
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (!row) return false;
      await db.updateTable('users').set({ weekly_report: 0 }).where('id', '=', row.user_id).execute();
      return true;
    },

    async tokenKnown(tokenHash: string): Promise<boolean> {
      const row = await db
        .selectFrom('weekly_reports')
        .select('user_id')
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Subscription senders first seen in [start, end): how many, and the biggest LISTED. */
    async newSubscriptions(
      userId: string,
      start: number,
      end: number,
    ): Promise<{ total: number; listed: NewSubscription[] }> {
      const found = db
        .selectFrom('senders')
        .where('user_id', '=', userId)
        .where('is_subscription', '=', 1)
        .where('created_at', '>=', start)
        .where('created_at', '<', end);
      const total = await found.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await found
        .select(['sender_name', 'address', 'category', 'message_count'])
        .orderBy('message_count', 'desc')
        .orderBy('address')
        .limit(LISTED)
        .execute();
      return {
        total: num(total.n),
        listed: rows.map((r) => ({
          name: r.sender_name,
          address: r.address,
          category: r.category,
          messageCount: num(r.message_count),
        })),
      };
    },

    /** What sender rules and the Screener moved in [start, end), by cause and destination. */
    async moves(userId: string, start: number, end: number): Promise<MoveGroup[]> {
      const rows = await db
        .selectFrom('moved_messages')
        .innerJoin('senders', 'senders.id', 'moved_messages.sender_id')
        .select([
          'moved_messages.cause',
          'moved_messages.destination',
          (eb) => eb.fn.countAll<number>().as('messages'),
          (eb) => eb.fn.count<number>('moved_messages.sender_id').distinct().as('senders'),
        ])
        .where('senders.user_id', '=', userId)
        .where('moved_messages.created_at', '>=', start)
        .where('moved_messages.created_at', '<', end)
        .groupBy(['moved_messages.cause', 'moved_messages.destination'])
        .execute();
      return rows
        .map((r) => ({
          cause: r.cause,
          destination: destinationOf(r.destination),
          messages: num(r.messages),
          senders: num(r.senders),
        }))
        .sort((a, b) => a.cause.localeCompare(b.cause) || b.messages - a.messages);
    },

    /** The senders whose mail was moved most in [start, end), per cause. */
    async movedSenders(userId: string, start: number, end: number): Promise<MovedSender[]> {
      const rows = await db
        .selectFrom('moved_messages')
        .innerJoin('senders', 'senders.id', 'moved_messages.sender_id')
        .select([
          'moved_messages.cause',
          'senders.sender_name',
          'senders.address',
          (eb) => eb.fn.countAll<number>().as('messages'),
        ])
        .where('senders.user_id', '=', userId)
        .where('moved_messages.created_at', '>=', start)
        .where('moved_messages.created_at', '<', end)
        .groupBy(['moved_messages.cause', 'senders.id', 'senders.sender_name', 'senders.address'])
        .orderBy(sql`count(*)`, 'desc')
        .orderBy('senders.address')
        .limit(LISTED)
        .execute();
      return rows.map((r) => ({
        cause: r.cause,
        name: r.sender_name,
        address: r.address,
        messages: num(r.messages),
      }));
    },

    /** Unsubscribed senders whose mail still arrives after the grace period (senders.still_sending). */
    async stillSending(userId: string): Promise<{ total: number; listed: StillSendingSender[] }> {
      const flagged = db
        .selectFrom('senders')
        .where('user_id', '=', userId)
        .where('category', '=', 'unsubscribed')
        .where('still_sending', '=', 1);
      const total = await flagged.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await flagged
        .select(['sender_name', 'address', 'unsubscribed_at', 'last_message_at'])
        .orderBy('last_message_at', 'desc')
        .orderBy('address')
        .limit(LISTED)
        .execute();
      return {
        total: num(total.n),
        listed: rows.map((r) => ({
          name: r.sender_name,
          address: r.address,
          unsubscribedAt: num(r.unsubscribed_at),
          lastMessageAt: r.last_message_at === null ? null : num(r.last_message_at),
        })),
      };
    },

    /**
     * Every unsubscribed (or blocked) sender with its mail in the PACE_WINDOW_MS before the action and
     * since: the Insights screen's read of the same figures (features/insights/repository.ts).
     */
    async quietedSenders(userId: string): Promise<QuietedSender[]> {
      const rows = await insights.quieter(userId, PACE_WINDOW_MS, 0);
      return rows.map((r) => ({ unsubscribedAt: r.actedAt, before: r.before, since: r.since }));
    },
  };
}

export type ReportRepository = ReturnType<typeof createReportRepository>;
