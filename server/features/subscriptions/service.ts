import type {
  Subscription,
  SubscriptionCategory,
  SubscriptionMessage,
  SubscriptionSort,
  SubscriptionsResponse,
} from '#contract/api.js';
import { badRequest, notFound } from '#server/lib/errors.js';
import { capName } from '#server/mail/headers/detect.js';
import type { Repositories } from '../repositories.js';
import type { KeysetPosition, SubscriptionRow } from './repository.js';

// Reading subscriptions: the senders of a user's mailboxes that carry list headers.

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A stored message reference as the screens get it. */
export const presentMessage = (r: {
  provider_id: string;
  subject: string;
  date: number | null;
}): SubscriptionMessage => ({
  id: r.provider_id,
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
}

export const BAD_CURSOR_MESSAGE = 'This cursor is not valid: load the list again from its first page.';
export const CURSOR_WITHOUT_LIMIT_MESSAGE = 'A cursor needs a limit.';

/** The sort value of a row in the order: what its keyset position holds. */
const sortValue = (sort: SubscriptionSort, r: SubscriptionRow): number | null => {
  switch (sort) {
    case 'newest':
      return r.last_message_at === null ? null : Number(r.last_message_at);
    case 'messages':
      return Number(r.message_count);
    case 'readRate':
      return Number(r.read_rank);
    case 'perMonth':
      return Number(r.recent_count);
  }
};

/**
 * The opaque cursor: base64url of JSON `{s, v, i}`, the order, the sort value and the id of the last row
 * of the page. It holds nothing the caller has not just been shown, and it only ever positions a walk
 * in the caller's own rows (the query is the caller's whatever the cursor says), so it is not signed.
 */
export function encodeCursor(sort: SubscriptionSort, position: KeysetPosition): string {
  return Buffer.from(JSON.stringify({ s: sort, v: position.value, i: position.id })).toString('base64url');
}

const hasControlCharacter = (text: string): boolean => {
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) < 0x20) return true;
  return false;
};

/** The position a cursor of this order holds; a 400 for anything else (garbled, forged, another order). */
export function decodeCursor(sort: SubscriptionSort, cursor: string): KeysetPosition {
  // Node's base64url decoder skips characters outside the alphabet: refuse them instead of guessing.
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) throw badRequest(BAD_CURSOR_MESSAGE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(BAD_CURSOR_MESSAGE);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badRequest(BAD_CURSOR_MESSAGE);
  const { s, v, i, ...rest } = parsed as Record<string, unknown>;
  // newest: an epoch-millisecond date (bigint), or null in the undated rows; the other orders: counts
  // and ranks, which are 32-bit integers in the database (PostgreSQL refuses a larger parameter).
  const valueOk =
    sort === 'newest'
      ? v === null || (typeof v === 'number' && Number.isSafeInteger(v))
      : typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2_147_483_647;
  if (
    Object.keys(rest).length > 0 ||
    s !== sort ||
    !valueOk ||
    typeof i !== 'string' ||
    i.length === 0 ||
    i.length > 128 ||
    // PostgreSQL text holds no NUL; ids never hold control characters.
    hasControlCharacter(i)
  ) {
    throw badRequest(BAD_CURSOR_MESSAGE);
  }
  return { value: v as number | null, id: i };
}

export function createSubscriptionsService(repos: Pick<Repositories, 'subscriptions'>) {
  const repo = repos.subscriptions;

  const present = (r: SubscriptionRow): Subscription => ({
    id: r.id,
    address: r.address,
    // Names are cut when parsed; a row stored before that cap is cut here, so no list answer carries it.
    senderName: capName(r.sender_name),
    messageCount: Number(r.message_count),
    category: r.category,
    lastMessageAt: iso(r.last_message_at),
    account: r.account,
    unsubscribedAt: iso(r.unsubscribed_at === null ? null : Number(r.unsubscribed_at)),
    // The last successful receipt says how; a lifted block ('unblock') is not a way of unsubscribing.
    unsubscribeMethod:
      r.category === 'unsubscribed' && r.unsubscribe_method && r.unsubscribe_method !== 'unblock'
        ? r.unsubscribe_method
        : null,
    stillSending: r.still_sending === 1,
    // Counts kept by the scans; min() keeps a row counted inconsistently within the contract's 0 to 1.
    readRate: Number(r.read_known) > 0 ? Math.min(1, Number(r.read_count) / Number(r.read_known)) : null,
    messagesPerMonth: Math.round((Number(r.recent_count) / 3) * 10) / 10,
    via: r.via ?? null,
  });

  return {
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
        if (query.cursor !== undefined) throw badRequest(CURSOR_WITHOUT_LIMIT_MESSAGE);
        return { data: (await repo.page(userId, { category, order: sort, q })).map(present) };
      }
      const after = query.cursor === undefined ? undefined : decodeCursor(sort, query.cursor);
      const [rows, total] = await Promise.all([
        // One row more than the page says whether a next page exists (the total cannot: rows may move
        // between categories while the user pages).
        repo.page(userId, { category, order: sort, q, after, limit: limit + 1 }),
        repo.count(userId, category, q),
      ]);
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
        throw notFound('Subscription not found.');
      }
      const [item] = await repo.byIds(userId, [senderId]);
      if (!item) throw notFound('Subscription not found.');
      return present(item);
    },

    async messages(userId: string, senderId: string): Promise<SubscriptionMessage[]> {
      if (!(await repo.ownsSender(userId, senderId))) throw notFound('Subscription not found.');
      return (await repo.messagesOf([senderId])).map(presentMessage);
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
