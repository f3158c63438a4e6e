import { sql } from 'kysely';
import type { Db } from '#server/db/index.js';
import type { SubscriptionCategory } from '#server/db/schema.js';
import type { StoredSubscription, SubscriptionRows } from './rows-repository.js';
import { containsPattern, ORDER_DIRECTIONS, type PageQuery } from './subscription.js';

// The subscription list's pages and totals: a category in one of the orders, by keyset, with the total of
// the category (and the search). The first page is benchmarked (bench:list): every statement is prepared
// once per shape (server/db/prepared.ts).

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

export function createListPageRepository(db: Db, shared: SubscriptionRows) {
  const { sqlite, subscriptions, matching, prepared, toSubscription } = shared;

  /** The values of a page query and its builders; `shape` names everything that changes the SQL. */
  function pageQuery(userId: string, query: PageQuery) {
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
    return { values, shape, base, limited };
  }

  /**
   * A category's subscriptions matching `q`, in the order, from `after` on, at most `limit` of them.
   * A page of `newest` reads its dated rows, then (when the page is not full yet) its undated ones: the index
   * holds nulls first in PostgreSQL's ascending order and last in SQLite's, so "undated last" would
   * be a sort in one of them as a single ORDER BY; as two index ranges it is the same in both.
   */
  async function pageRows(userId: string, query: PageQuery) {
    const { column, direction } = ORDERS[query.order];
    const compare = direction === 'desc' ? '<' : '>';
    const { after, limit } = query;
    const { values, shape, base, limited } = pageQuery(userId, query);

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
  };
}
