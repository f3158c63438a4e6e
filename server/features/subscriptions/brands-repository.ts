import { sql } from 'kysely';
import type { Db } from '#server/db/index.js';
import type { SubscriptionCategory } from '#server/db/schema.js';
import type { StoredSubscription, SubscriptionRow, SubscriptionRows } from './rows-repository.js';
import {
  type BrandGroupsQuery,
  containsPattern,
  ORDER_DIRECTIONS,
  type StoredBrand,
} from './subscription.js';

// The list grouped by brand (docs/decisions/088-brand-pages.md): the category's brands with their senders'
// counts summed (one GROUP BY), and the senders of a page of brands.

/** Brands per statement of sendersOfBrands (a page of 50 senders holds at most 50 brands). */
const BRAND_SLOTS = 64;

export function createBrandsRepository(db: Db, shared: SubscriptionRows) {
  const { sqlite, lowered, subscriptions, prepared, toSubscription } = shared;

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
      const rows: Array<SubscriptionRow & { brand: string }> = [];
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
  };
}
