// The keys of the query cache. Everything that belongs to the signed-in user sits under USER, so that
// signing in or out drops it in one call (the next user never sees the previous one's lists).
import type { SubscriptionCategory, SubscriptionSort } from '#contract/api.js';

const USER = ['user'] as const;

export const queryKeys = {
  user: USER,
  signinStatus: ['signin-status'] as const,
  publicConfig: ['public-config'] as const,
  /** The blog's cards and posts: the same for everyone. */
  blogPosts: ['blog-posts'] as const,
  blogPost: (id: string) => ['blog-post', id] as const,
  /** The plans' prices: the same for everyone. */
  prices: ['prices'] as const,
  /** Every subscription list; `subscriptions(category)` is one of them. */
  subscriptionLists: [...USER, 'subscriptions'] as const,
  subscriptions: (category: SubscriptionCategory) => [...USER, 'subscriptions', category] as const,
  /** The pages of one category's list in one order and for one search (under `subscriptions(category)`). */
  subscriptionPages: (category: SubscriptionCategory, sort: SubscriptionSort, q: string) =>
    [...USER, 'subscriptions', category, sort, q] as const,
  subscriptionMessages: (id: string) => [...USER, 'subscription-messages', id] as const,
  emailAccounts: [...USER, 'email-accounts'] as const,
  settings: [...USER, 'settings'] as const,
  /** Whether the user's address is proven (GET /auth/email-verification). */
  emailStatus: [...USER, 'email-status'] as const,
  subscriptionStatus: [...USER, 'subscription-status'] as const,
  /** The Billing screen's state (GET /get-billing). */
  billing: [...USER, 'billing'] as const,
  /** Client state fed by the live events only (scan running, progress): see live.ts. */
  scan: [...USER, 'scan'] as const,
};
