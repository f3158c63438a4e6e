import { type ExpressionBuilder, SqliteAdapter, sql } from 'kysely';
import type { SenderRule } from '#contract/api.js';
import type { Db } from '#server/db/index.js';
import { preparedQueries } from '#server/db/prepared.js';
import type { Database, ReceiptMethod, SubscriptionCategory } from '#server/db/schema.js';
import { JOINED_RULE_COLUMNS, ruleOfJoined } from '../organise/rule-repository.js';

// What the list's queries share: the select of a subscription (a listed sender with its mailbox, its rule
// and how it was unsubscribed) and its mapper, the search filter, and the prepared statements (one cache
// of compiled shapes for the page, the brands and the totals alike).

/** A subscription as stored: a listed sender of one of the user's mailboxes, with its counts. */
export interface StoredSubscription {
  id: string;
  address: string;
  senderName: string;
  messageCount: number;
  category: SubscriptionCategory;
  lastMessageAt: number | null;
  unsubscribedAt: number | null;
  /** Its mail still arrived more than the grace period after it was unsubscribed. */
  stillSending: boolean;
  /** Messages read, and messages whose read state is known. */
  readCount: number;
  readKnown: number;
  /** The sort key of "least read first" (read per mille, 1001 while nothing is known). */
  readRank: number;
  /** Messages dated within the 90 days before the last scan or check. */
  recentCount: number;
  /** The posting address of the discussion list its mail came through, if any. */
  via: string | null;
  /** The address of the mailbox it wrote to. */
  account: string;
  /** Its mail waits in the Screener folder for the user's decision. */
  screened: boolean;
  /** Its rule (features/organise), or null. */
  rule: SenderRule | null;
  /** How the last successful receipt handled it (unsubscribed list only; null elsewhere). */
  unsubscribeMethod: ReceiptMethod | null;
}

export const nullableNumber = (v: number | null) => (v === null ? null : Number(v));

/** The method of the sender's last unsubscribe that worked (the unsubscribed list and the export show it). */
export function lastWorkingMethod(eb: ExpressionBuilder<Database, 'senders'>) {
  return eb
    .selectFrom('unsubscribe_receipts')
    .select('unsubscribe_receipts.method')
    .whereRef('unsubscribe_receipts.sender_id', '=', 'senders.id')
    .where('unsubscribe_receipts.ok', '=', 1)
    .orderBy('unsubscribe_receipts.created_at', 'desc')
    .limit(1)
    .$asScalar()
    .$castTo<ReceiptMethod | null>();
}

/** A user's subscriptions, with the columns the screens show. */
function selectSubscriptions(db: Db, userId: string, withMethod: boolean) {
  return db
    .selectFrom('senders')
    .innerJoin('mailboxes', 'mailboxes.id', 'senders.mailbox_id')
    .leftJoin('sender_rules', 'sender_rules.sender_id', 'senders.id')
    .select([
      'senders.id',
      'senders.address',
      'senders.sender_name',
      'senders.message_count',
      'senders.category',
      'senders.last_message_at',
      'senders.unsubscribed_at',
      'senders.still_sending',
      'senders.read_count',
      'senders.read_known',
      'senders.read_rank',
      'senders.recent_count',
      'senders.via',
      'senders.screened',
      ...JOINED_RULE_COLUMNS,
      'mailboxes.email as account',
      // How it was unsubscribed is shown in the unsubscribed list only: the other lists skip the
      // lookup. In a limited query it runs for the rows of the page only (it is in the select list).
      (eb) =>
        withMethod
          ? lastWorkingMethod(eb).as('unsubscribe_method')
          : sql<ReceiptMethod | null>`null`.as('unsubscribe_method'),
    ])
    .where('senders.user_id', '=', userId)
    .where('senders.is_subscription', '=', 1);
}

/** A subscription's row as read by `subscriptions`. */
export type SubscriptionRow = Awaited<ReturnType<ReturnType<typeof selectSubscriptions>['execute']>>[number];

export const toSubscription = (r: SubscriptionRow): StoredSubscription => ({
  id: r.id,
  address: r.address,
  senderName: r.sender_name,
  messageCount: Number(r.message_count),
  category: r.category,
  lastMessageAt: nullableNumber(r.last_message_at),
  unsubscribedAt: nullableNumber(r.unsubscribed_at),
  stillSending: r.still_sending === 1,
  readCount: Number(r.read_count),
  readKnown: Number(r.read_known),
  readRank: Number(r.read_rank),
  recentCount: Number(r.recent_count),
  via: r.via ?? null,
  account: r.account,
  unsubscribeMethod: r.unsubscribe_method ?? null,
  screened: r.screened === 1,
  rule: ruleOfJoined(r),
});

export function createSubscriptionRows(db: Db) {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  /**
   * A column lower-cased the same way in both dialects: SQLite's lower() changes ASCII letters only, and
   * so does PostgreSQL's under the "C" collation (its default collation would also fold É to é), so a
   * search matches the same senders on both.
   */
  const lowered = (column: 'senders.address' | 'senders.sender_name') =>
    sqlite ? sql<string>`lower(${sql.ref(column)})` : sql<string>`lower(${sql.ref(column)} collate "C")`;

  /** selectSubscriptions on this connection (the unsubscribe method looked up unless told not to). */
  const subscriptions = (userId: string, withMethod = true) => selectSubscriptions(db, userId, withMethod);

  /** The category's rows matching a `containsPattern`: the filter of a page and of its total. */
  const matching = (pattern: string | undefined) => (eb: ExpressionBuilder<Database, 'senders'>) => {
    if (pattern === undefined) return eb.and([]);
    return eb.or([
      eb(lowered('senders.sender_name'), 'like', sql<string>`${pattern} escape '!'`),
      eb(lowered('senders.address'), 'like', sql<string>`${pattern} escape '!'`),
    ]);
  };

  // The list's queries run on every screen and page: built once per shape (server/db/prepared.ts).
  const prepared = preparedQueries(db);
  return { sqlite, lowered, subscriptions, matching, prepared, toSubscription };
}

export type SubscriptionRows = ReturnType<typeof createSubscriptionRows>;
