import { type ExpressionBuilder, SqliteAdapter, sql } from 'kysely';
import type { Db } from '#server/db/index.js';
import { preparedQueries } from '#server/db/prepared.js';
import type { Database, ReceiptMethod, SubscriptionCategory } from '#server/db/schema.js';
import { sendersStamp } from '#server/db/senders-stamp.js';

// SQL of subscriptions: the senders of a user's mailboxes that are lists, with the mailbox they wrote to
// and how they were unsubscribed, and the references to their messages.

/** Orders of the list (contract SUBSCRIPTION_SORTS). */
export type SubscriptionOrder = 'newest' | 'messages' | 'readRate' | 'perMonth';

/**
 * Which way each order runs, for senders and brands alike: the highest value first, except the read rate
 * (least read first).
 */
export const ORDER_DIRECTIONS = {
  newest: 'desc',
  messages: 'desc',
  readRate: 'asc',
  perMonth: 'desc',
} as const satisfies Record<SubscriptionOrder, 'asc' | 'desc'>;

/**
 * Each order is one column of a keyset index of migration 0009 (user_id, is_subscription, category,
 * column, id) read in one direction, id being the tie-breaker in the same direction: every page is a
 * range of that index, read forwards (ascending) or backwards (descending), never a sort of the
 * category. Only last_message_at can be null (an unknown date): those rows come last, after the dated
 * ones, in both dialects (see `page`).
 */
const ORDERS = {
  newest: { column: 'senders.last_message_at', direction: ORDER_DIRECTIONS.newest },
  messages: { column: 'senders.message_count', direction: ORDER_DIRECTIONS.messages },
  // read_rank is 1001 while unknown: ascending puts the unknown read rates last.
  readRate: { column: 'senders.read_rank', direction: ORDER_DIRECTIONS.readRate },
  perMonth: { column: 'senders.recent_count', direction: ORDER_DIRECTIONS.perMonth },
} as const;

/** Where a page starts: after the row with this sort value and id (the previous page's last row). */
export interface KeysetPosition {
  /** The sort column's value; null only for `newest`, in the undated rows that come last. */
  value: number | null;
  id: string;
}

export interface PageQuery {
  category: SubscriptionCategory;
  order: SubscriptionOrder;
  /** Case-insensitive (ASCII letters) substring of the sender's name or address, taken literally. */
  q?: string;
  after?: KeysetPosition;
  /** At most this many rows; none: all of them. */
  limit?: number;
  /** PostgreSQL: each row also carries the total of the category (and `q`) as `total_n`. */
  withTotal?: boolean;
}

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
  rule: {
    folder: string | null;
    folderName: string | null;
    keepNewest: number | null;
    expireAfterDays: number | null;
    expireAction: 'trash' | 'archive' | null;
  } | null;
  /** How the last successful receipt handled it (unsubscribed list only; null elsewhere). */
  unsubscribeMethod: ReceiptMethod | null;
}

/** A brand's row of the grouped list: its senders' counts summed over the category. */
export interface StoredBrand {
  brand: string;
  /** The sort value of the order the page was read in (its keyset position with the brand). */
  sortValue: number;
  lastMessageAt: number | null;
  messageCount: number;
  readCount: number;
  readKnown: number;
  recentCount: number;
  /** How many of the category's senders it has. */
  senderCount: number;
}

/** Where a page of brands starts: after the brand with this sort value (the previous page's last). */
export interface BrandPosition {
  value: number;
  brand: string;
}

export interface BrandGroupsQuery {
  category: SubscriptionCategory;
  order: SubscriptionOrder;
  /** Matches the brand, or the name or address of any of its senders (as containsPattern). */
  q?: string;
}

/** A reference to one of a subscription's messages (never its content). */
export interface StoredMessage {
  providerId: string;
  subject: string;
  date: number | null;
}

const nullableNumber = (v: number | null) => (v === null ? null : Number(v));

/** `q` as a LIKE pattern: lower-cased like the columns are, its own `%`, `_` and `!` escaped by `!`. */
export function containsPattern(q: string): string {
  const lowered = q.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  return `%${lowered.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

export function createSubscriptionsRepository(db: Db) {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  /**
   * A column lower-cased the same way in both dialects: SQLite's lower() changes ASCII letters only, and
   * so does PostgreSQL's under the "C" collation (its default collation would also fold É to é), so a
   * search matches the same senders on both.
   */
  const lowered = (column: 'senders.address' | 'senders.sender_name') =>
    sqlite ? sql<string>`lower(${sql.ref(column)})` : sql<string>`lower(${sql.ref(column)} collate "C")`;

  /** The user's subscriptions, with the columns the screens show. */
  const subscriptions = (userId: string, withMethod = true) =>
    db
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
        'sender_rules.folder as rule_folder',
        'sender_rules.folder_name as rule_folder_name',
        'sender_rules.keep_newest as rule_keep_newest',
        'sender_rules.expire_after_days as rule_expire_after_days',
        'sender_rules.expire_action as rule_expire_action',
        'mailboxes.email as account',
        // How it was unsubscribed is shown in the unsubscribed list only: the other lists skip the
        // lookup. In a limited query it runs for the rows of the page only (it is in the select list).
        (eb) =>
          withMethod
            ? eb
                .selectFrom('unsubscribe_receipts')
                .select('unsubscribe_receipts.method')
                .whereRef('unsubscribe_receipts.sender_id', '=', 'senders.id')
                .where('unsubscribe_receipts.ok', '=', 1)
                .orderBy('unsubscribe_receipts.created_at', 'desc')
                .limit(1)
                .$asScalar()
                .$castTo<ReceiptMethod | null>()
                .as('unsubscribe_method')
            : sql<ReceiptMethod | null>`null`.as('unsubscribe_method'),
      ])
      .where('senders.user_id', '=', userId)
      .where('senders.is_subscription', '=', 1);

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
  /** Brands per statement of sendersOfBrands (a page of 50 senders holds at most 50 brands). */
  const BRAND_SLOTS = 64;

  type Row = Awaited<ReturnType<ReturnType<typeof subscriptions>['execute']>>[number];
  const toSubscription = (r: Row): StoredSubscription => ({
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
    rule:
      r.rule_folder === null && r.rule_keep_newest === null && r.rule_expire_after_days === null
        ? null
        : {
            folder: r.rule_folder,
            folderName: r.rule_folder_name,
            keepNewest: r.rule_keep_newest,
            expireAfterDays: r.rule_expire_after_days,
            expireAction: r.rule_expire_action,
          },
  });

  /**
   * A category's subscriptions matching `q`, in the order, from `after` on, at most `limit` of them.
   * A page of `newest` reads its dated rows, then (when the page is not full yet) its undated ones: the index
   * holds nulls first in PostgreSQL's ascending order and last in SQLite's, so "undated last" would
   * be a sort in one of them as a single ORDER BY; as two index ranges it is the same in both.
   */
  async function pageRows(userId: string, query: PageQuery) {
    const { column, direction } = ORDERS[query.order];
    const compare = direction === 'desc' ? '<' : '>';
    const { after, limit, q } = query;
    const withMethod = query.category === 'unsubscribed';
    const values = {
      userId,
      category: query.category,
      pattern: q ? containsPattern(q) : '',
      afterValue: after?.value ?? 0,
      afterId: after?.id ?? '',
      limit: limit ?? 0,
    };
    type Values = typeof values;
    // Everything that changes the SQL; the values above do not.
    const shape = (part: string) =>
      [
        'page',
        query.order,
        part,
        withMethod ? 'method' : '',
        q ? 'q' : '',
        after ? (after.value === null ? 'after-undated' : 'after') : '',
        limit === undefined ? '' : 'limit',
        query.withTotal ? 'total' : '',
      ].join(' ');
    const base = (v: Values) => {
      const rows = subscriptions(v.userId, withMethod)
        .where('senders.category', '=', v.category)
        .where(matching(q ? v.pattern : undefined));
      if (!query.withTotal) return rows;
      // An uncorrelated subquery: PostgreSQL counts it once per statement (an InitPlan), not per row.
      const search = q
        ? sql` and (lower(t.sender_name collate "C") like ${v.pattern} escape '!' or lower(t.address collate "C") like ${v.pattern} escape '!')`
        : sql``;
      // The same builder type either way; pageWithTotal reads the column.
      return rows.select(
        sql<
          number | string
        >`(select count(*) from senders as t where t.user_id = ${v.userId} and t.is_subscription = 1 and t.category = ${v.category}${search})`.as(
          'total_n',
        ),
      ) as unknown as typeof rows;
    };
    const limited = <T extends { limit(n: number): T }>(qb: T, v: Values) =>
      limit === undefined ? qb : qb.limit(v.limit);

    if (query.order !== 'newest') {
      if (after && after.value === null) throw new Error('only newest has null sort values');
      return prepared(shape('all'), values, (v) => {
        let qb = base(v);
        if (after) {
          qb = qb.where((eb) =>
            eb(eb.refTuple(column, 'senders.id'), compare, eb.tuple(v.afterValue, v.afterId)),
          );
        }
        return limited(qb.orderBy(column, direction).orderBy('senders.id', direction), v);
      });
    }

    if (limit === undefined) {
      if (after) throw new Error('a keyset position needs a limit');
      // The whole category (the spec's unpaged call) is read in full anyway: it keeps the order it
      // always had, ties on a date broken by the address, with the undated last in both dialects.
      return prepared(shape('all'), values, (v) =>
        base(v)
          .orderBy('senders.last_message_at', (ob) => ob.desc().nullsLast())
          .orderBy('senders.address')
          .orderBy('senders.id', 'desc'),
      );
    }

    const rows = [];
    if (!after || after.value !== null) {
      rows.push(
        ...(await prepared(shape('dated'), values, (v) => {
          let dated = base(v).where('senders.last_message_at', 'is not', null);
          if (after) {
            dated = dated.where((eb) =>
              eb(
                eb.refTuple('senders.last_message_at', 'senders.id'),
                '<',
                eb.tuple(v.afterValue, v.afterId),
              ),
            );
          }
          return limited(dated.orderBy('senders.last_message_at', 'desc').orderBy('senders.id', 'desc'), v);
        })),
      );
    }
    const left = limit - rows.length;
    if (left > 0) {
      rows.push(
        ...(await prepared(shape('undated'), { ...values, limit: left }, (v) => {
          let undated = base(v).where('senders.last_message_at', 'is', null);
          if (after && after.value === null) undated = undated.where('senders.id', '<', v.afterId);
          return limited(undated.orderBy('senders.id', 'desc'), v);
        })),
      );
    }
    return rows;
  }

  /**
   * Each order over a brand's senders, as an aggregate of the group: the newest message (-1 while none is
   * dated, so those come last), the messages, read per mille (1001 while unknown, last in ascending
   * order), the recent messages.
   */
  const BRAND_ORDERS = {
    newest: {
      value: sql<number>`coalesce(max(senders.last_message_at), -1)`,
      direction: ORDER_DIRECTIONS.newest,
    },
    messages: { value: sql<number>`sum(senders.message_count)`, direction: ORDER_DIRECTIONS.messages },
    readRate: {
      value: sql<number>`case when sum(senders.read_known) = 0 then 1001 else (1000 * sum(senders.read_count)) / sum(senders.read_known) end`,
      direction: ORDER_DIRECTIONS.readRate,
    },
    perMonth: { value: sql<number>`sum(senders.recent_count)`, direction: ORDER_DIRECTIONS.perMonth },
  } as const;
  // Brands compare byte-wise in both dialects (PostgreSQL's default collation skips dots and dashes).
  const brandKey = sqlite ? sql`senders.brand` : sql`senders.brand collate "C"`;
  const loweredBrand = sqlite
    ? sql<string>`lower(senders.brand)`
    : sql<string>`lower(senders.brand collate "C")`;

  /**
   * The category's brands as one GROUP BY over the index (user_id, is_subscription, category, brand) of
   * migration 0018: `q` keeps the groups where the brand or any sender matches (in HAVING).
   */
  const groupedBrands = (userId: string, query: BrandGroupsQuery) => {
    const { value, direction } = BRAND_ORDERS[query.order];
    const pattern = query.q ? containsPattern(query.q) : undefined;
    const conditions = [sql`1 = 1`];
    if (pattern !== undefined) {
      conditions.push(
        sql`max(case when ${loweredBrand} like ${pattern} escape '!' or ${lowered('senders.sender_name')} like ${pattern} escape '!' or ${lowered('senders.address')} like ${pattern} escape '!' then 1 else 0 end) = 1`,
      );
    }
    return { value, direction, having: sql.join(conditions, sql` and `), userId };
  };

  /** How many of the category's subscriptions match `q`. */
  async function countOf(userId: string, category: SubscriptionCategory, q?: string): Promise<number> {
    if (sqlite && !q) {
      // Kept by triggers (migration 0011): one row, whatever the size of the category.
      const [total] = await prepared('total', { userId, category }, (v) =>
        db
          .selectFrom('subscription_totals')
          .select('n')
          .where('user_id', '=', v.userId)
          .where('category', '=', v.category),
      );
      return Number(total?.n ?? 0);
    }
    const values = { userId, category, pattern: q ? containsPattern(q) : '' };
    const [row] = await prepared(`count ${q ? 'q' : ''}`, values, (v) =>
      db
        .selectFrom('senders')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('senders.user_id', '=', v.userId)
        .where('senders.is_subscription', '=', 1)
        .where('senders.category', '=', v.category)
        .where(matching(q ? v.pattern : undefined)),
    );
    return Number(row?.n ?? 0);
  }

  return {
    /**
     * A category's brands matching `q`, all of them, in the order (ties by brand, byte-wise): one GROUP BY
     * over the category's senders, whose cost grows with the category; the list pages it in the service
     * (docs/decisions/088-brand-pages.md).
     */
    async brandGroups(userId: string, query: BrandGroupsQuery): Promise<StoredBrand[]> {
      const { value, direction, having } = groupedBrands(userId, query);
      const dir = sql.raw(direction);
      const { rows } = await sql<{
        brand: string;
        sort_value: number | string;
        last_message_at: number | string | null;
        message_count: number | string;
        read_count: number | string;
        read_known: number | string;
        recent_count: number | string;
        sender_count: number | string;
      }>`select senders.brand as brand, ${value} as sort_value, count(*) as sender_count,
          max(senders.last_message_at) as last_message_at, sum(senders.message_count) as message_count,
          sum(senders.read_count) as read_count, sum(senders.read_known) as read_known,
          sum(senders.recent_count) as recent_count
        from senders
        where senders.user_id = ${userId} and senders.is_subscription = 1 and senders.category = ${query.category}
        group by senders.brand
        having ${having}
        order by ${value} ${dir}, ${brandKey} ${dir}`.execute(db);
      return rows.map((r) => ({
        brand: r.brand,
        sortValue: Number(r.sort_value),
        lastMessageAt: r.last_message_at === null ? null : Number(r.last_message_at),
        messageCount: Number(r.message_count),
        readCount: Number(r.read_count),
        readKnown: Number(r.read_known),
        recentCount: Number(r.recent_count),
        senderCount: Number(r.sender_count),
      }));
    },

    /** A string that changes when the user's senders may have (db/senders-stamp.ts). */
    stamp: sendersStamp(db),

    /** The category's subscriptions of these brands, by brand, each brand's newest mail first (undated last). */
    async sendersOfBrands(
      userId: string,
      category: SubscriptionCategory,
      brands: readonly string[],
    ): Promise<Map<string, StoredSubscription[]>> {
      const byBrand = new Map<string, StoredSubscription[]>();
      if (brands.length === 0) return byBrand;
      // Built once per number of slots (db/prepared.ts): the brands in chunks of BRAND_SLOTS, the last
      // padded up to a power of two with a brand no sender has (''), so a handful of SQL texts serve every
      // page. Sorted here: an ORDER BY in SQL made SQLite walk the category's whole newest-first index
      // (senders_page_newest) and filter by brand, not seek the brands in senders_brand (bench:list).
      const withMethod = category === 'unsubscribed';
      const rows: Array<Row & { brand: string }> = [];
      for (let at = 0; at < brands.length; at += BRAND_SLOTS) {
        const chunk = brands.slice(at, at + BRAND_SLOTS);
        const slots = 2 ** Math.ceil(Math.log2(chunk.length));
        const values: Record<string, string> = { userId, category };
        for (let i = 0; i < slots; i++) values[`b${i}`] = chunk[i] ?? '';
        rows.push(
          ...(await prepared(`brand senders ${withMethod ? 'm' : ''} x${slots}`, values, (v) =>
            subscriptions(v.userId as string, withMethod)
              .select('senders.brand')
              .where('senders.category', '=', v.category as SubscriptionCategory)
              .where(
                'senders.brand',
                'in',
                Array.from({ length: slots }, (_, i) => v[`b${i}`] as string),
              ),
          )),
        );
      }
      for (const r of rows) {
        const list = byBrand.get(r.brand);
        if (list) list.push(toSubscription(r));
        else byBrand.set(r.brand, [toSubscription(r)]);
      }
      for (const list of byBrand.values()) {
        list.sort(
          (a, b) =>
            (b.lastMessageAt ?? Number.NEGATIVE_INFINITY) - (a.lastMessageAt ?? Number.NEGATIVE_INFINITY) ||
            (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
        );
      }
      return byBrand;
    },

    /** A category's subscriptions matching `q`, in the order, from `after` on, at most `limit` of them. */
    async page(userId: string, query: PageQuery): Promise<StoredSubscription[]> {
      return (await pageRows(userId, query)).map(toSubscription);
    },

    /** How many of the category's subscriptions match `q`. */
    count: countOf,

    /**
     * A page and the total of its category (and `q`). On PostgreSQL one statement (the count a scalar
     * subquery of the page's, so one round trip less per page; a page with no rows counts apart); on
     * SQLite the page and the row the triggers keep.
     */
    async pageWithTotal(
      userId: string,
      query: PageQuery & { limit: number },
    ): Promise<{ rows: StoredSubscription[]; total: number }> {
      if (sqlite) {
        const [rows, total] = await Promise.all([
          pageRows(userId, query),
          countOf(userId, query.category, query.q),
        ]);
        return { rows: rows.map(toSubscription), total };
      }
      const rows = await pageRows(userId, { ...query, withTotal: true });
      const first = rows[0] as { total_n?: number | string } | undefined;
      const total =
        first?.total_n === undefined ? await countOf(userId, query.category, query.q) : Number(first.total_n);
      return { rows: rows.map(toSubscription), total };
    },

    async byIds(userId: string, ids: readonly string[]): Promise<StoredSubscription[]> {
      return (await subscriptions(userId).where('senders.id', 'in', ids).execute()).map(toSubscription);
    },

    /** Moves the user's subscription to a category; false when it is not theirs (or not a subscription). */
    async setCategory(
      userId: string,
      senderId: string,
      category: SubscriptionCategory,
      now: number,
    ): Promise<boolean> {
      const updated = await db
        .updateTable('senders')
        .set({
          category,
          updated_at: now,
          // Set once when the sender becomes unsubscribed; cleared when it moves elsewhere.
          unsubscribed_at:
            category === 'unsubscribed' ? sql<number>`coalesce(unsubscribed_at, ${now})` : null,
          ...(category === 'unsubscribed' ? {} : { still_sending: 0 }),
        })
        .where('id', '=', senderId)
        .where('user_id', '=', userId)
        .where('is_subscription', '=', 1)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },

    /** Whether the sender is the user's (any sender, listed or not). */
    async ownsSender(userId: string, senderId: string): Promise<boolean> {
      const row = await db
        .selectFrom('senders')
        .select('id')
        .where('id', '=', senderId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The newest 500 message references of the senders, newest first. */
    async messagesOf(senderIds: readonly string[]): Promise<StoredMessage[]> {
      const rows = await db
        .selectFrom('messages')
        .select(['provider_id', 'subject', 'date'])
        .where('sender_id', 'in', senderIds)
        .orderBy('date', 'desc')
        .limit(500)
        .execute();
      return rows.map((r) => ({
        providerId: r.provider_id,
        subject: r.subject,
        date: nullableNumber(r.date),
      }));
    },
  };
}

export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;
