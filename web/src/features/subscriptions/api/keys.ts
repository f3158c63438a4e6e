import type { SubscriptionCategory, SubscriptionSort } from '#contract/api.js';
import { USER_KEY } from '../../../lib/query-keys';

/** The subscriptions' keys in the query cache, under the signed-in user's. */
export const subscriptionKeys = {
  /** Every subscription list; `list(category)` is one of them. */
  lists: [...USER_KEY, 'subscriptions'] as const,
  list: (category: SubscriptionCategory) => [...USER_KEY, 'subscriptions', category] as const,
  /** The pages of one category's list in one order and for one search (under `list(category)`). */
  pages: (category: SubscriptionCategory, sort: SubscriptionSort, q: string) =>
    [...USER_KEY, 'subscriptions', category, sort, q] as const,
  /** The grouped lists (brands/): under `lists` (refreshed with them), beside every `list(category)`. */
  allBrands: [...USER_KEY, 'subscriptions', 'brands'] as const,
  brandLists: (category: SubscriptionCategory) => [...USER_KEY, 'subscriptions', 'brands', category] as const,
  brands: (category: SubscriptionCategory, sort: SubscriptionSort, q: string) =>
    [...USER_KEY, 'subscriptions', 'brands', category, sort, q] as const,
  messages: (id: string) => [...USER_KEY, 'subscription-messages', id] as const,
  /** Client state fed by the live events only (scan running, progress): see live.ts. */
  scan: [...USER_KEY, 'scan'] as const,
};
