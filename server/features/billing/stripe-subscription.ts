import type Stripe from 'stripe';
import type { Plan } from '#contract/api.js';
import type { StripeSettings } from '#server/integrations/stripe.js';
import type { StripeSubscriptionCopy } from './repository.js';

// What a Stripe subscription means to the product: which statuses give premium, which one of several
// decides the plan, which one is kept when a user pays twice, and what of it is copied to the database.
// Pure: no calls to Stripe.

export type Interval = 'month' | 'year';

/** Statuses that give premium. A subscription cancelled at period end stays `active` until that end. */
export const PREMIUM_STATUSES = new Set(['active', 'trialing']);
/** Statuses Stripe may still turn into a paid one: the user is sent to the portal, not to a new Checkout. */
export const OPEN_STATUSES = new Set(['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'paused']);

/** The subscription that decides the plan: a premium one first, then one still open, then the newest. */
export function decidingSubscription(subs: readonly Stripe.Subscription[]): Stripe.Subscription | null {
  const rank = (s: Stripe.Subscription) =>
    PREMIUM_STATUSES.has(s.status) ? 2 : OPEN_STATUSES.has(s.status) ? 1 : 0;
  let best: Stripe.Subscription | null = null;
  for (const s of subs) {
    if (!best || rank(s) > rank(best) || (rank(s) === rank(best) && s.created > best.created)) best = s;
  }
  return best;
}

/**
 * The order in which live subscriptions are kept when a user has several: one not set to end first, then
 * the longer interval (a year paid for is the larger commitment), then the one paid first (the later is
 * the duplicate), then the id (every sync picks the same).
 */
export function keepFirst(a: Stripe.Subscription, b: Stripe.Subscription): number {
  const ending = (s: Stripe.Subscription) => (s.cancel_at_period_end || s.cancel_at !== null ? 1 : 0);
  const yearly = (s: Stripe.Subscription) => (s.items.data[0]?.price.recurring?.interval === 'year' ? 0 : 1);
  return (
    ending(a) - ending(b) ||
    yearly(a) - yearly(b) ||
    a.created - b.created ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** Whether a subscription is one this product sold (one of its prices, or made by its Checkout). */
export function isOurs(sub: Stripe.Subscription, prices: StripeSettings['prices']): boolean {
  const price = sub.items.data[0]?.price.id;
  return price === prices.month || price === prices.year || Boolean(sub.metadata?.userId);
}

/**
 * What is copied of a subscription. The period and price sit on the subscription's item in current API
 * versions (the subscription-level current_period_end is gone since 2025-03-31).
 */
export function copyOf(sub: Stripe.Subscription | null): { copy: StripeSubscriptionCopy; plan: Plan } {
  if (!sub) {
    return {
      copy: {
        subscriptionId: null,
        status: null,
        priceId: null,
        interval: null,
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
      },
      plan: 'free',
    };
  }
  const item = sub.items.data[0];
  const interval: string | undefined = item?.price.recurring?.interval;
  const legacyEnd = (sub as unknown as { current_period_end?: number }).current_period_end;
  const periodEnd = item?.current_period_end ?? legacyEnd ?? null;
  const live = PREMIUM_STATUSES.has(sub.status);
  return {
    copy: {
      subscriptionId: sub.id,
      status: sub.status,
      priceId: item?.price.id ?? null,
      interval: interval === 'month' || interval === 'year' ? interval : null,
      currentPeriodEnd: periodEnd === null ? null : periodEnd * 1000,
      // The portal may cancel "at period end" with either flag, depending on the API version.
      cancelAtPeriodEnd: live && (sub.cancel_at_period_end || sub.cancel_at !== null),
    },
    plan: live ? 'premium' : 'free',
  };
}
