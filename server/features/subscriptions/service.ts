import type {
  BrandRow,
  BrandsResponse,
  Subscription,
  SubscriptionCategory,
  SubscriptionMessage,
  SubscriptionSort,
  SubscriptionsResponse,
} from '#contract/api.js';
import { InvalidInputError, NotFoundError } from '#server/lib/errors.js';
import { createStampedCache } from '#server/lib/stamped-cache.js';
import type { Repositories } from '../repositories.js';
import { brandName } from './brand.js';
import {
  decodeBrandCursor,
  decodeCursor,
  decodeMessageCursor,
  encodeBrandCursor,
  encodeCursor,
  encodeMessageCursor,
} from './cursor.js';
import {
  type BrandPosition,
  ORDER_DIRECTIONS,
  type StoredBrand,
  type StoredMessage,
  type StoredSubscription,
} from './repository.js';

// Reading subscriptions: the senders of a user's mailboxes that carry list headers.

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A stored message reference as the screens get it. */
export const presentMessage = (r: StoredMessage): SubscriptionMessage => ({
  id: r.providerId,
  subject: r.subject,
  date: iso(r.date),
});

/** The list call's query once the contract's schema has checked it (defaults applied). */
export interface ListQuery {
  category: SubscriptionCategory;
  sort: SubscriptionSort;
  q?: string;
  limit?: number;
  cursor?: string;
  /** `brand`: one row per brand (listBrands); `sender` or none: one per sender. */
  group?: 'sender' | 'brand';
}

export const CURSOR_WITHOUT_LIMIT_MESSAGE = 'A cursor needs a limit.';

/** The sort value of a row in the order: what its keyset position holds. */
const sortValue = (sort: SubscriptionSort, r: StoredSubscription): number | null => {
  switch (sort) {
    case 'newest':
      return r.lastMessageAt;
    case 'messages':
      return r.messageCount;
    case 'readRate':
      return r.readRank;
    case 'perMonth':
      return r.recentCount;
  }
};

/** How long a kept grouping is trusted at most, and how many (user, category, order) are kept. */
const BRAND_GROUPS_TTL_MS = 60_000;
const BRAND_GROUPS_KEPT = 500;

/**
 * The index of the first brand past a cursor's position in groups sorted by (sortValue, brand) in the
 * order's direction; brands compare byte-wise, as the SQL sorts them (ASCII: a brand is punycode).
 */
function firstPast(groups: readonly StoredBrand[], at: BrandPosition, descending: boolean): number {
  const past = (b: StoredBrand) =>
    descending
      ? b.sortValue < at.value || (b.sortValue === at.value && b.brand < at.brand)
      : b.sortValue > at.value || (b.sortValue === at.value && b.brand > at.brand);
  let low = 0;
  let high = groups.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (past(groups[middle] as StoredBrand)) high = middle;
    else low = middle + 1;
  }
  return low;
}

export function createSubscriptionsService(repos: Pick<Repositories, 'subscriptions'>) {
  const repo = repos.subscriptions;

  const present = (r: StoredSubscription): Subscription => ({
    id: r.id,
    address: r.address,
    senderName: r.senderName,
    messageCount: r.messageCount,
    category: r.category,
    lastMessageAt: iso(r.lastMessageAt),
    account: r.account,
    unsubscribedAt: iso(r.unsubscribedAt),
    // The last successful receipt says how; a lifted block ('unblock') is not a way of unsubscribing.
    unsubscribeMethod:
      r.category === 'unsubscribed' && r.unsubscribeMethod && r.unsubscribeMethod !== 'unblock'
        ? r.unsubscribeMethod
        : null,
    stillSending: r.stillSending,
    // Counts kept by the scans; min() keeps a row counted inconsistently within the contract's 0 to 1.
    readRate: r.readKnown > 0 ? Math.min(1, r.readCount / r.readKnown) : null,
    messagesPerMonth: Math.round((r.recentCount / 3) * 10) / 10,
    via: r.via,
    rule: r.rule,
    screened: r.screened,
  });

  /** A brand's row, its figures summed from its senders as read now. */
  const presentBrand = (brand: string, senders: StoredSubscription[]): BrandRow => {
    let messageCount = 0;
    let recentCount = 0;
    let readCount = 0;
    let readKnown = 0;
    let lastMessageAt: number | null = null;
    for (const s of senders) {
      messageCount += s.messageCount;
      recentCount += s.recentCount;
      readCount += s.readCount;
      readKnown += s.readKnown;
      if (s.lastMessageAt !== null && (lastMessageAt === null || s.lastMessageAt > lastMessageAt)) {
        lastMessageAt = s.lastMessageAt;
      }
    }
    return {
      brand,
      name: brandName(senders),
      senders: senders.map(present),
      messageCount,
      messagesPerMonth: Math.round((recentCount / 3) * 10) / 10,
      readRate: readKnown > 0 ? Math.min(1, readCount / readKnown) : null,
      lastMessageAt: iso(lastMessageAt),
    };
  };
  const brandGroups = createStampedCache<StoredBrand[]>({
    ttlMs: BRAND_GROUPS_TTL_MS,
    maxEntries: BRAND_GROUPS_KEPT,
  });

  return {
    /**
     * GET /get-unsubscribe-emails?group=brand: the category's brands matching `q` in the order (by their
     * senders' newest mail, messages, read rate or messages a month together), each with its senders
     * (docs/decisions/088-brand-pages.md). With `limit` a page holds whole brands with at most `limit`
     * senders in all (one brand when a single brand has more), so a page carries about what a page of
     * senders does; the cursor is the page's last brand and its sort value, as listPage's.
     * The grouping (all the category's brands in the order) is kept per user, category and order while the
     * user's senders stamp holds; the page's senders, and the figures shown from them, are read afresh.
     */
    async listBrands(userId: string, query: ListQuery): Promise<BrandsResponse> {
      const { category, sort, limit } = query;
      const q = query.q ? query.q : undefined;
      if (limit === undefined && query.cursor !== undefined) {
        throw new InvalidInputError(CURSOR_WITHOUT_LIMIT_MESSAGE);
      }
      const after = query.cursor === undefined ? undefined : decodeBrandCursor(sort, query.cursor);
      const groupsQuery = { category, order: sort, q };
      const groups = q
        ? await repo.brandGroups(userId, groupsQuery)
        : await brandGroups.get(`${userId} ${category} ${sort}`, await repo.stamp(userId), () =>
            repo.brandGroups(userId, groupsQuery),
          );
      const start = after === undefined ? 0 : firstPast(groups, after, ORDER_DIRECTIONS[sort] === 'desc');
      let end = limit === undefined ? groups.length : start;
      for (let senders = 0; end < groups.length && limit !== undefined; end++) {
        const count = groups[end]?.senderCount ?? 0;
        if (end > start && senders + count > limit) break;
        senders += count;
      }
      const page = groups.slice(start, end);
      const byBrand = await repo.sendersOfBrands(
        userId,
        category,
        page.map((b) => b.brand),
      );
      // A brand whose senders all left the category since the grouping was kept is left out.
      const data = page.flatMap((b) => {
        const of = byBrand.get(b.brand);
        return of ? [presentBrand(b.brand, of)] : [];
      });
      if (limit === undefined) return { data };
      const last = page.at(-1);
      return {
        data,
        nextCursor:
          end < groups.length && last
            ? encodeBrandCursor(sort, { value: last.sortValue, brand: last.brand })
            : null,
        total: groups.length,
      };
    },

    /** A whole category, newest mail first (undated last). */
    async list(userId: string, category: SubscriptionCategory): Promise<Subscription[]> {
      return (await repo.page(userId, { category, order: 'newest' })).map(present);
    },

    /**
     * GET /get-unsubscribe-emails: without `limit` the whole category (matching `q`) in the order, as
     * the spec's call answers it; with it one page, the cursor of the next (null after the last page)
     * and how many match in all.
     */
    async listPage(userId: string, query: ListQuery): Promise<SubscriptionsResponse> {
      const { category, sort, limit } = query;
      const q = query.q ? query.q : undefined;
      if (limit === undefined) {
        if (query.cursor !== undefined) throw new InvalidInputError(CURSOR_WITHOUT_LIMIT_MESSAGE);
        return { data: (await repo.page(userId, { category, order: sort, q })).map(present) };
      }
      const after = query.cursor === undefined ? undefined : decodeCursor(sort, query.cursor);
      // One row more than the page says whether a next page exists (the total cannot: rows may move
      // between categories while the user pages).
      const { rows, total } = await repo.pageWithTotal(userId, {
        category,
        order: sort,
        q,
        after,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        data: page.map(present),
        nextCursor:
          rows.length > limit && last
            ? encodeCursor(sort, { value: sortValue(sort, last), id: last.id })
            : null,
        total,
      };
    },

    async byIds(userId: string, ids: string[]): Promise<Subscription[]> {
      if (ids.length === 0) return [];
      return (await repo.byIds(userId, ids)).map(present);
    },

    /** Keep or unsubscribed: moves the user's subscription to a category. Idempotent. */
    async setCategory(
      userId: string,
      senderId: string,
      category: SubscriptionCategory,
    ): Promise<Subscription> {
      if (!(await repo.setCategory(userId, senderId, category, Date.now()))) {
        throw new NotFoundError('Subscription not found.');
      }
      const [item] = await repo.byIds(userId, [senderId]);
      if (!item) throw new NotFoundError('Subscription not found.');
      return present(item);
    },

    /** The sender's messages: its newest 500 without `limit`, with it one page and the next page's cursor. */
    async messages(
      userId: string,
      senderId: string,
      page: { limit?: number; cursor?: string } = {},
    ): Promise<{ data: SubscriptionMessage[]; nextCursor?: string | null }> {
      if (!(await repo.ownsSender(userId, senderId))) throw new NotFoundError('Subscription not found.');
      if (page.limit === undefined) return { data: (await repo.messagesOf([senderId])).map(presentMessage) };
      const after = page.cursor ? decodeMessageCursor(page.cursor) : null;
      const rows = await repo.messagePage(senderId, page.limit, after);
      const shown = rows.slice(0, page.limit);
      const last = shown[shown.length - 1];
      return {
        data: shown.map(presentMessage),
        nextCursor:
          rows.length > page.limit && last
            ? encodeMessageCursor({ date: last.date ?? 0, providerId: last.providerId })
            : null,
      };
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
