import Stripe from 'stripe';
import type { StripeContext } from './stripe-api.js';
import {
  copyOf,
  decidingSubscription,
  isOurs,
  keepFirst,
  OPEN_STATUSES,
  PREMIUM_STATUSES,
} from './stripe-subscription.js';

// The sync: Stripe is the source of truth, so every webhook event, the Checkout success redirect and the
// portal's return re-read the customer's subscriptions from Stripe and write one copy per user with the
// user's plan. Events arriving twice or out of order cannot leave a wrong plan behind.

/** Re-reads a customer's subscriptions from Stripe and stores the copy and the user's plan. */
export function createSync({ settings, stripe: api, repo, now, log }: StripeContext) {
  /**
   * A customer of no known user: its open subscriptions of this product are cancelled at once, each
   * logged (a person may have paid for nothing: the log is what support refunds from). Others (a
   * Stripe account shared with something else) are left alone, logged too.
   */
  async function cancelOrphaned(customerId: string): Promise<void> {
    const subs = await api.subscriptions.list({ customer: customerId, status: 'all', limit: 100 });
    const open = subs.data.filter((sub) => OPEN_STATUSES.has(sub.status));
    if (open.length === 0) {
      log?.warn({ customerId }, 'Stripe customer of no known user; nothing to sync');
      return;
    }
    for (const sub of open) {
      if (!isOurs(sub, settings.prices)) {
        log?.warn(
          { customerId, subscriptionId: sub.id },
          'subscription of no known user, not one of our prices; left alone',
        );
        continue;
      }
      await api.subscriptions.cancel(sub.id);
      log?.error(
        { customerId, subscriptionId: sub.id, status: sub.status, userId: sub.metadata?.userId },
        'subscription of no known user cancelled; refund its payment if one was taken',
      );
    }
  }

  /**
   * A user paying twice (two Checkouts both paid: two tabs, two instances, a session expired too late):
   * one subscription is kept — see keepFirst — and each other live one of this product is cancelled at
   * once with its unused time credited to the customer's balance (`prorate` + `invoice_now`), which pays
   * the kept one's next invoices: nothing is charged twice, and no card refund is made (docs/decisions/040-billing-with-stripe-as-source-of-truth.md).
   * Answers the subscriptions as they are after it. Two syncs at once choose the same one to keep; the
   * second's cancel of a subscription already cancelled is not an error.
   */
  async function settleDuplicates(
    customerId: string,
    subs: Stripe.Subscription[],
  ): Promise<Stripe.Subscription[]> {
    const live = subs.filter((sub) => PREMIUM_STATUSES.has(sub.status) && isOurs(sub, settings.prices));
    if (live.length < 2) return subs;
    const [kept, ...extra] = [...live].sort(keepFirst);
    const after = new Map<string, Stripe.Subscription>();
    for (const sub of extra) {
      let cancelled: Stripe.Subscription;
      try {
        cancelled = await api.subscriptions.cancel(sub.id, { prorate: true, invoice_now: true });
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        cancelled = await api.subscriptions.retrieve(sub.id);
        if (cancelled.status !== 'canceled') throw error;
      }
      after.set(sub.id, cancelled);
      log?.warn(
        { customerId, kept: kept!.id, cancelled: sub.id },
        'second live subscription cancelled at once, its unused time credited to the customer',
      );
    }
    return subs.map((sub) => after.get(sub.id) ?? sub);
  }

  return async function syncCustomer(customerId: string): Promise<void> {
    const startedAt = now();
    let userId = await repo.userOfCustomer(customerId);
    if (!userId) {
      // A customer we did not link (its row was lost, or made in Stripe's dashboard): metadata.userId says
      // whose it is; one without a known user is left alone.
      const customer = await api.customers.retrieve(customerId);
      const claimed = customer.deleted ? undefined : customer.metadata?.userId;
      if (!claimed || !(await repo.userExists(claimed))) {
        // Nobody can use what it pays for (a Checkout paid after the account was deleted, a row lost):
        // this product's live subscriptions on it are ended, never left charging.
        await cancelOrphaned(customerId);
        await repo.markEventsProcessed(customerId, startedAt, now());
        return;
      }
      const linked = await repo.linkCustomer(claimed, customerId, now());
      if (linked !== customerId) {
        log?.warn({ customerId, linked }, 'user already has another Stripe customer; nothing synced');
        await repo.markEventsProcessed(customerId, startedAt, now());
        return;
      }
      userId = claimed;
    }
    const subs = await api.subscriptions.list({ customer: customerId, status: 'all', limit: 100 });
    const current = await settleDuplicates(customerId, subs.data);
    const { copy, plan } = copyOf(decidingSubscription(current));
    await repo.saveSync(userId, copy, plan, now());
    await repo.markEventsProcessed(customerId, startedAt, now());
  };
}
