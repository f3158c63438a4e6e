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
import type { Repositories } from '../repositories.js';
import { decodeBrandCursor, decodeCursor, encodeBrandCursor, encodeCursor } from './cursor.js';
import type { StoredBrand, StoredMessage, StoredSubscription } from './repository.js';

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

  const presentBrand = (b: StoredBrand, senders: StoredSubscription[]): BrandRow => ({
    brand: b.brand,
    senders: senders.map(present),
    messageCount: b.messageCount,
    messagesPerMonth: Math.round((b.recentCount / 3) * 10) / 10,
    readRate: b.readKnown > 0 ? Math.min(1, b.readCount / b.readKnown) : null,
    lastMessageAt: iso(b.lastMessageAt),
  });

  return {
    /**
     * GET /get-unsubscribe-emails?group=brand: the category's brands matching `q` in the order (by their
     * senders' newest mail, messages, read rate or messages a month together), each with its senders;
     * paged like listPage. The grouping and the order are one SQL query; the page's senders a second.
     */
    async listBrands(userId: string, query: ListQuery): Promise<BrandsResponse> {
      const { category, sort, limit } = query;
      const q = query.q ? query.q : undefined;
      if (limit === undefined && query.cursor !== undefined) {
        throw new InvalidInputError(CURSOR_WITHOUT_LIMIT_MESSAGE);
      }
      const after = query.cursor === undefined ? undefined : decodeBrandCursor(sort, query.cursor);
      const { brands: rows, matching } = await repo.brandPage(userId, {
        category,
        order: sort,
        q,
        after,
        limit: limit === undefined ? undefined : limit + 1,
      });
      // The page's window count is the total on a first page; past it (a cursor), or on an empty page,
      // the brands before the cursor are counted too.
      const total =
        limit === undefined
          ? undefined
          : after === undefined && matching !== null
            ? matching
            : await repo.brandCount(userId, category, q);
      const page = limit === undefined ? rows : rows.slice(0, limit);
      const senders = await repo.sendersOfBrands(
        userId,
        category,
        page.map((b) => b.brand),
      );
      const byBrand = new Map<string, StoredSubscription[]>();
      for (const s of senders) {
        const list = byBrand.get(s.brand);
        if (list) list.push(s);
        else byBrand.set(s.brand, [s]);
      }
      const data = page.map((b) => presentBrand(b, byBrand.get(b.brand) ?? []));
      if (limit === undefined) return { data };
      const last = page.at(-1);
      return {
        data,
        nextCursor:
          rows.length > limit && last
            ? encodeBrandCursor(sort, { value: last.sortValue, brand: last.brand })
            : null,
        total,
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

    async messages(userId: string, senderId: string): Promise<SubscriptionMessage[]> {
      if (!(await repo.ownsSender(userId, senderId))) throw new NotFoundError('Subscription not found.');
      return (await repo.messagesOf([senderId])).map(presentMessage);
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
