import type { SubscriptionCategory } from '#contract/api.js';

// What the subscription list stores and is asked, as the service and the screens see it (camelCase,
// numbers, booleans): the repository's answers and queries. Pure: the SQL is in the *-repository.ts files;
// a subscription (StoredSubscription) is declared beside its mapper, in rows-repository.ts.

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

/** `q` as a LIKE pattern: lower-cased like the columns are, its own `%`, `_` and `!` escaped by `!`. */
export function containsPattern(q: string): string {
  const lowered = q.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  return `%${lowered.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}
