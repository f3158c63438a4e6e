import { BILLING_MESSAGES } from '#contract/api.js';
import { API, safeReturnPath as contractSafeReturnPath, SCREENS } from '#contract/routes.js';
import { ConflictError } from '#server/lib/errors.js';
import { expireIfOpen, type StripeContext, stripeUnavailable } from './stripe-api.js';
import { type Interval, OPEN_STATUSES } from './stripe-subscription.js';

// Sending the user to Stripe and back: a Checkout Session to start paying (the portal for someone who
// already pays), the billing portal, and the two return URLs, which sync at once because the browser
// often arrives before the webhook.

/** `candidate` as an absolute URL when it is on this site (same origin as PUBLIC_URL), else null. */
export function sameSiteUrl(candidate: string | undefined, publicUrl: string): string | null {
  if (!candidate) return null;
  try {
    const url = new URL(candidate, publicUrl);
    return url.origin === new URL(publicUrl).origin ? url.toString() : null;
  } catch {
    return null;
  }
}

/** A path on this site to send the browser back to (the contract's rule), else null. */
export function safeReturnPath(candidate: string | undefined, publicUrl: string): string | null {
  return candidate && candidate.length <= 2048 ? contractSafeReturnPath(candidate, publicUrl) : null;
}

export interface PaymentLinkRequest {
  userId: string;
  interval: Interval;
  /** The page the user asked from: Checkout's cancel URL, and where the portal sends them back. */
  originalUrl: string | undefined;
  /** The browser's analytics client id, kept on the session for the purchase event (null: none). */
  analyticsClientId: string | null;
}

export function createCheckout(
  ctx: StripeContext,
  { syncCustomer }: { syncCustomer: (customerId: string) => Promise<void> },
) {
  const { settings, stripe: api, repo, publicUrl, now, log } = ctx;
  /** Payment links being made, by user: a double click answers both with one Checkout. */
  const linksInFlight = new Map<string, Promise<string>>();

  /** The user's customer, created at Stripe before their first Checkout (one per user, whatever the race). */
  async function ensureCustomer(userId: string): Promise<string> {
    const account = await repo.accountOfUser(userId);
    if (account) return account.customerId;
    const email = await repo.userEmail(userId);
    const customer = await api.customers.create(
      { email, metadata: { userId } },
      // Two first clicks (two tabs, two instances) get the same customer back from Stripe.
      { idempotencyKey: `inbox-genie-customer-${userId}` },
    );
    return repo.linkCustomer(userId, customer.id, now());
  }

  async function portalUrl(customerId: string, returnPath: string): Promise<string> {
    const session = await api.billingPortal.sessions.create({
      customer: customerId,
      return_url: `${publicUrl}${API.portalReturn}?to=${encodeURIComponent(returnPath)}`,
    });
    return session.url;
  }

  /** The path of `originalUrl` on this site, or `fallback`. */
  function returnPathOf(originalUrl: string | undefined, fallback: string): string {
    const url = sameSiteUrl(originalUrl, publicUrl);
    if (!url) return fallback;
    const { pathname, search } = new URL(url);
    return safeReturnPath(pathname + search, publicUrl) ?? fallback;
  }

  /**
   * One open Checkout per user: the open sessions made before `newest` are expired (a tab left on the
   * monthly page, a second click). Each maker expires only what is older than its own session, so two
   * links made at once (two tabs, two instances) leave the newer one open. A failure here is logged, not
   * the user's: the link works, and a second payment is caught at sync (settleDuplicates).
   */
  async function expireOlderSessions(customerId: string, newest: string): Promise<void> {
    try {
      const open = await api.checkout.sessions.list({ customer: customerId, status: 'open', limit: 100 });
      const index = open.data.findIndex((session) => session.id === newest);
      // Not listed: already expired by a newer link, which took care of the older ones too.
      if (index === -1) return;
      for (const older of open.data.slice(index + 1)) await expireIfOpen(api, older.id);
    } catch (error) {
      log?.warn({ err: error, customerId }, 'older Checkout Sessions could not be expired');
    }
  }

  async function makePaymentLink(request: PaymentLinkRequest): Promise<string> {
    const { userId, interval, originalUrl, analyticsClientId } = request;
    const customerId = await ensureCustomer(userId);
    // Already paying (or a payment Stripe is still retrying): the portal, never a second subscription.
    const existing = await api.subscriptions.list({ customer: customerId, status: 'all', limit: 20 });
    if (existing.data.some((sub) => OPEN_STATUSES.has(sub.status))) {
      return portalUrl(customerId, returnPathOf(originalUrl, SCREENS.billing));
    }
    const session = await api.checkout.sessions.create({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: userId,
      line_items: [{ price: settings.prices[interval], quantity: 1 }],
      success_url: `${publicUrl}${API.checkoutReturn}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: sameSiteUrl(originalUrl, publicUrl) ?? `${publicUrl}${SCREENS.pricing}`,
      metadata: { userId, ...(analyticsClientId ? { analyticsClientId } : {}) },
      subscription_data: { metadata: { userId } },
    });
    if (!session.url) throw new Error('Checkout Session without a url');
    await expireOlderSessions(customerId, session.id);
    return session.url;
  }

  return {
    /** A Checkout Session, or the portal for a paying user; two requests at once share one. */
    async paymentLink(request: PaymentLinkRequest): Promise<string> {
      const key = `${request.userId}:${request.interval}`;
      let pending = linksInFlight.get(key);
      if (!pending) {
        pending = makePaymentLink(request).finally(() => linksInFlight.delete(key));
        linksInFlight.set(key, pending);
      }
      try {
        return await pending;
      } catch (error) {
        throw stripeUnavailable(error, 'payment link could not be made', log);
      }
    },

    /** Resolves once no payment link is being made for the user (made or failed). */
    async linksSettled(userId: string): Promise<void> {
      for (const interval of ['month', 'year'] as const)
        await linksInFlight.get(`${userId}:${interval}`)?.catch(() => {});
    },

    async portalLink(userId: string, originalUrl: string | undefined): Promise<string> {
      const account = await repo.accountOfUser(userId);
      if (!account) throw new ConflictError(BILLING_MESSAGES.noCustomer);
      try {
        return await portalUrl(account.customerId, returnPathOf(originalUrl, SCREENS.billing));
      } catch (error) {
        throw stripeUnavailable(error, 'billing portal link could not be made', log);
      }
    },

    /**
     * Checkout's success URL: syncs now and answers where to send the user. A session of another user
     * syncs nothing; Stripe being unreachable leaves the webhook to finish the job.
     */
    async checkoutReturn(userId: string, sessionId: string | undefined): Promise<string> {
      const done = `${SCREENS.billing}?checkout=success`;
      const pending = `${SCREENS.billing}?checkout=pending`;
      if (!sessionId || !/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) return SCREENS.billing;
      try {
        const session = await api.checkout.sessions.retrieve(sessionId);
        if (session.client_reference_id !== userId) return SCREENS.billing;
        const customer = typeof session.customer === 'string' ? session.customer : session.customer?.id;
        if (customer) await syncCustomer(customer);
      } catch (error) {
        log?.warn({ err: error }, 'sync after Checkout failed; the webhook will bring the plan');
        return pending;
      }
      return (await repo.plan(userId)) === 'premium' ? done : pending;
    },

    /** The portal's return: syncs the user's customer (a failure leaves it to the webhook). */
    async portalReturn(userId: string): Promise<void> {
      const account = await repo.accountOfUser(userId);
      if (!account) return;
      try {
        await syncCustomer(account.customerId);
      } catch (error) {
        log?.warn({ err: error }, 'sync after the billing portal failed; the webhook will bring it');
      }
    },
  };
}
