import { UpstreamUnavailableError } from '#server/lib/errors.js';
import { BILLING_ERRORS, expireIfOpen, isMissing, type StripeContext } from './stripe-api.js';
import { OPEN_STATUSES } from './stripe-subscription.js';

/**
 * Before an account is deleted, at Stripe: its open Checkout Sessions are expired (a payment page left
 * open cannot be paid afterwards), its live subscriptions cancelled at once, and its customer (email,
 * user id) deleted. When Stripe cannot be reached the deletion does not happen (502). A Checkout paid
 * between these steps ends with the customer's deletion (Stripe cancels its subscriptions), and one
 * paid on a customer we never linked is cancelled by the sync (no known user).
 */
export function createAccountDeletion(
  { stripe, repo, log }: StripeContext,
  { linksSettled }: { linksSettled: (userId: string) => Promise<void> },
) {
  return async function cancelForDeletion(userId: string): Promise<void> {
    // A payment link being made for the user finishes first, so its customer or session is seen here.
    await linksSettled(userId);
    const account = await repo.accountOfUser(userId);
    if (!account) return;
    const customer = account.customerId;
    try {
      const sessions = await stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 });
      for (const session of sessions.data) await expireIfOpen(stripe, session.id);
      const subs = await stripe.subscriptions.list({ customer, status: 'all', limit: 100 });
      for (const sub of subs.data) {
        if (OPEN_STATUSES.has(sub.status)) await stripe.subscriptions.cancel(sub.id);
      }
      await stripe.customers.del(customer).catch((error: unknown) => {
        // Deleted already (a deletion retried after its database step failed).
        if (!isMissing(error)) throw error;
      });
    } catch (error) {
      log?.error({ err: error }, 'subscription could not be cancelled before account deletion');
      throw new UpstreamUnavailableError(BILLING_ERRORS.cancelBeforeDelete);
    }
  };
}
