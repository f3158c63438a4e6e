import Stripe from 'stripe';
import { BILLING_MESSAGES, type BillingState, FREE_TRIAL, type Plan, type Price } from '#contract/api.js';
import { API, safeReturnPath as contractSafeReturnPath, SCREENS } from '#contract/routes.js';
import type { StripeSettings } from '#server/integrations/stripe.js';
import { HttpError } from '#server/lib/errors.js';
import type { Repositories } from '../repositories.js';
import type { SubscriptionCopy } from './repository.js';

// Plans and billing (docs/decisions.md "Billing"). Stripe is the source of truth: every webhook event, the
// Checkout success redirect and the portal's return re-read the customer's subscriptions from Stripe
// (syncCustomer) and write one copy per user with the user's plan, so events arriving twice or out of
// order cannot leave a wrong plan behind. With billing off (no Stripe keys) nothing is limited.

export type Interval = 'month' | 'year';

/** Events that can change what a customer has paid for; the rest are answered 200 and ignored. */
export const RELEVANT_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'invoice.paid',
  'invoice.payment_failed',
]);

/** Statuses that give premium. A subscription cancelled at period end stays `active` until that end. */
const PREMIUM_STATUSES = new Set(['active', 'trialing']);
/** Statuses Stripe may still turn into a paid one: the user is sent to the portal, not to a new Checkout. */
const OPEN_STATUSES = new Set(['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'paused']);

const PRICES_TTL_MS = 5 * 60 * 1000;
/** Event ids are kept past Stripe's retry window (three days) and then forgotten. */
const EVENT_RETENTION_MS = 30 * 24 * 3600 * 1000;

export const BILLING_ERRORS = {
  pricesUnavailable: 'Prices cannot be loaded right now. Please try again in a moment.',
  stripeUnavailable: 'The payment service cannot be reached right now. Please try again in a moment.',
  signature: 'Invalid Stripe signature.',
  cancelBeforeDelete:
    'Your subscription could not be cancelled just now, so nothing was deleted. Please try again in a moment.',
} as const;

export interface BillingDeps {
  /** null: billing is off. */
  settings: StripeSettings | null;
  repos: Pick<Repositories, 'billing'>;
  publicUrl: string;
  /** Queues a sync of the customer (the `billing-sync` job, one at a time per customer). */
  enqueueSync: (customerId: string) => Promise<void>;
  now?: () => number;
  log?: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
  /** The Stripe client (built from settings when absent). */
  stripe?: Stripe;
  /** The keyed hash the trial's use is kept under after an account is deleted (lib/crypto keyedHasher). */
  trialKey?: (address: string) => string;
}

/** A reservation of one free unsubscribe; `release` gives it back when the attempt changed nothing. */
export interface UnsubscribeAllowance {
  release(): Promise<void>;
}

const NO_ALLOWANCE_NEEDED: UnsubscribeAllowance = { release: async () => {} };

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

/**
 * What is copied of a subscription. The period and price sit on the subscription's item in current API
 * versions (the subscription-level current_period_end is gone since 2025-03-31).
 */
export function copyOf(sub: Stripe.Subscription | null): { copy: SubscriptionCopy; plan: Plan } {
  if (!sub) {
    return {
      copy: {
        subscription_id: null,
        status: null,
        price_id: null,
        interval: null,
        current_period_end: null,
        cancel_at_period_end: 0,
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
      subscription_id: sub.id,
      status: sub.status,
      price_id: item?.price.id ?? null,
      interval: interval === 'month' || interval === 'year' ? interval : null,
      current_period_end: periodEnd === null ? null : periodEnd * 1000,
      // The portal may cancel "at period end" with either flag, depending on the API version.
      cancel_at_period_end: live && (sub.cancel_at_period_end || sub.cancel_at !== null) ? 1 : 0,
    },
    plan: live ? 'premium' : 'free',
  };
}

/** The customer an event is about (every relevant event's object carries it as an id or object). */
export function customerOfEvent(event: Stripe.Event): string | null {
  const customer = (event.data.object as { customer?: string | { id: string } | null }).customer;
  if (!customer) return null;
  return typeof customer === 'string' ? customer : customer.id;
}

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

/** Stripe's answer for an object that does not exist (or no longer: a deleted customer). */
function isMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing';
}

/**
 * Expires a Checkout Session; one no longer open (paid or expired meanwhile: Stripe refuses with an
 * invalid-request error) is left as it is, and the caller's next step sees its subscription.
 */
async function expireIfOpen(api: Stripe, sessionId: string): Promise<void> {
  try {
    await api.checkout.sessions.expire(sessionId);
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    const session = await api.checkout.sessions.retrieve(sessionId);
    if (session.status === 'open') throw error;
  }
}

export function createBillingService(deps: BillingDeps) {
  const { settings, publicUrl, enqueueSync, now = Date.now, log } = deps;
  const repo = deps.repos.billing;
  const stripe =
    deps.stripe ??
    (settings
      ? new Stripe(settings.secretKey, {
          ...(settings.endpoint ?? {}),
          maxNetworkRetries: 2,
          timeout: 20_000,
          appInfo: { name: 'Inbox Genie' },
        })
      : null);
  let pricesCache: { at: number; data: Price[] } | null = null;
  let pricesLoading: Promise<Price[]> | null = null;
  /** Payment links being made, by user: a double click answers both with one Checkout. */
  const linksInFlight = new Map<string, Promise<string>>();

  function on(): { settings: StripeSettings; stripe: Stripe } {
    if (!settings || !stripe) throw new HttpError(404, BILLING_MESSAGES.unavailable);
    return { settings, stripe };
  }

  /** A Stripe failure as the user sees it (the details go to the log). */
  function unavailable(error: unknown, what: string): HttpError {
    if (error instanceof HttpError) return error;
    log?.error({ err: error }, what);
    return new HttpError(502, BILLING_ERRORS.stripeUnavailable);
  }

  async function isPremium(userId: string): Promise<boolean> {
    return (await repo.plan(userId)) === 'premium';
  }

  async function loadPrices(): Promise<Price[]> {
    const { settings: s, stripe: api } = on();
    const intervals: Interval[] = ['month', 'year'];
    const prices = await Promise.all(intervals.map((i) => api.prices.retrieve(s.prices[i])));
    return prices.map((p, index) => ({
      id: p.id,
      unit_amount: p.unit_amount ?? 0,
      currency: p.currency,
      recurring: { interval: p.recurring?.interval === 'year' ? 'year' : (intervals[index] as Interval) },
    }));
  }

  /** The user's customer, created at Stripe before their first Checkout (one per user, whatever the race). */
  async function ensureCustomer(userId: string): Promise<string> {
    const account = await repo.accountOfUser(userId);
    if (account) return account.customer_id;
    const { stripe: api } = on();
    const email = await repo.userEmail(userId);
    const customer = await api.customers.create(
      { email, metadata: { userId } },
      // Two first clicks (two tabs, two instances) get the same customer back from Stripe.
      { idempotencyKey: `inbox-genie-customer-${userId}` },
    );
    return repo.linkCustomer(userId, customer.id, now());
  }

  async function portalUrl(customerId: string, returnPath: string): Promise<string> {
    const { stripe: api } = on();
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

  async function makePaymentLink(
    userId: string,
    interval: Interval,
    originalUrl: string | undefined,
    analyticsClientId: string | null,
  ): Promise<string> {
    const { settings: s, stripe: api } = on();
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
      line_items: [{ price: s.prices[interval], quantity: 1 }],
      success_url: `${publicUrl}${API.checkoutReturn}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: sameSiteUrl(originalUrl, publicUrl) ?? `${publicUrl}${SCREENS.pricing}`,
      metadata: { userId, ...(analyticsClientId ? { analyticsClientId } : {}) },
      subscription_data: { metadata: { userId } },
    });
    if (!session.url) throw new Error('Checkout Session without a url');
    await expireOlderSessions(customerId, session.id);
    return session.url;
  }

  /**
   * One open Checkout per user: the open sessions made before `newest` are expired (a tab left on the
   * monthly page, a second click). Each maker expires only what is older than its own session, so two
   * links made at once (two tabs, two instances) leave the newer one open. A failure here is logged, not
   * the user's: the link works, and a second payment is caught at sync (settleDuplicates).
   */
  async function expireOlderSessions(customerId: string, newest: string): Promise<void> {
    const { stripe: api } = on();
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

  /** Whether a subscription is one this product sold (one of its prices, or made by its Checkout). */
  function isOurs(sub: Stripe.Subscription, prices: StripeSettings['prices']): boolean {
    const price = sub.items.data[0]?.price.id;
    return price === prices.month || price === prices.year || Boolean(sub.metadata?.userId);
  }

  /**
   * A customer of no known user: its open subscriptions of this product are cancelled at once, each
   * logged (a person may have paid for nothing: the log is what support refunds from). Others (a
   * Stripe account shared with something else) are left alone, logged too.
   */
  async function cancelOrphaned(customerId: string): Promise<void> {
    const { settings: s, stripe: api } = on();
    const subs = await api.subscriptions.list({ customer: customerId, status: 'all', limit: 100 });
    const open = subs.data.filter((sub) => OPEN_STATUSES.has(sub.status));
    if (open.length === 0) {
      log?.warn({ customerId }, 'Stripe customer of no known user; nothing to sync');
      return;
    }
    for (const sub of open) {
      if (!isOurs(sub, s.prices)) {
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
   * the kept one's next invoices: nothing is charged twice, and no card refund is made (docs/decisions.md).
   * Answers the subscriptions as they are after it. Two syncs at once choose the same one to keep; the
   * second's cancel of a subscription already cancelled is not an error.
   */
  async function settleDuplicates(
    customerId: string,
    subs: Stripe.Subscription[],
  ): Promise<Stripe.Subscription[]> {
    const { settings: s, stripe: api } = on();
    const live = subs.filter((sub) => PREMIUM_STATUSES.has(sub.status) && isOurs(sub, s.prices));
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

  /** Re-reads the customer's subscriptions from Stripe and stores the copy and the user's plan. */
  async function syncCustomer(customerId: string): Promise<void> {
    const { stripe: api } = on();
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
  }

  return {
    /** Whether plans are sold here. */
    enabled: settings !== null,

    syncCustomer,

    /** GET /get-prices: the two configured prices, cached a few minutes; none with billing off. */
    async prices(): Promise<Price[]> {
      if (!settings) return [];
      if (pricesCache && pricesCache.at > now() - PRICES_TTL_MS) return pricesCache.data;
      pricesLoading ??= loadPrices()
        .then((data) => {
          pricesCache = { at: now(), data };
          return data;
        })
        .finally(() => {
          pricesLoading = null;
        });
      try {
        return await pricesLoading;
      } catch (error) {
        if (error instanceof HttpError) throw error;
        log?.error({ err: error }, 'Stripe prices could not be read');
        throw new HttpError(502, BILLING_ERRORS.pricesUnavailable);
      }
    },

    /** POST /get-{monthly,yearly}-payment-link: a Checkout Session, or the portal for a paying user. */
    async paymentLink(
      userId: string,
      interval: Interval,
      originalUrl: string | undefined,
      analyticsClientId: string | null,
    ): Promise<string> {
      on();
      const key = `${userId}:${interval}`;
      let pending = linksInFlight.get(key);
      if (!pending) {
        pending = makePaymentLink(userId, interval, originalUrl, analyticsClientId).finally(() =>
          linksInFlight.delete(key),
        );
        linksInFlight.set(key, pending);
      }
      try {
        return await pending;
      } catch (error) {
        throw unavailable(error, 'payment link could not be made');
      }
    },

    /** POST /get-billing-portal-link. */
    async portalLink(userId: string, originalUrl: string | undefined): Promise<string> {
      on();
      const account = await repo.accountOfUser(userId);
      if (!account) throw new HttpError(409, BILLING_MESSAGES.noCustomer);
      try {
        return await portalUrl(account.customer_id, returnPathOf(originalUrl, SCREENS.billing));
      } catch (error) {
        throw unavailable(error, 'billing portal link could not be made');
      }
    },

    /**
     * Checkout's success URL: syncs now (the browser often arrives before the webhook) and answers where to
     * send the user. A session of another user syncs nothing; Stripe being unreachable leaves the webhook
     * to finish the job.
     */
    async checkoutReturn(userId: string, sessionId: string | undefined): Promise<string> {
      const done = `${SCREENS.billing}?checkout=success`;
      const pending = `${SCREENS.billing}?checkout=pending`;
      if (!settings || !stripe || !sessionId || !/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) {
        return SCREENS.billing;
      }
      try {
        const session = await stripe.checkout.sessions.retrieve(sessionId);
        if (session.client_reference_id !== userId) return SCREENS.billing;
        const customer = typeof session.customer === 'string' ? session.customer : session.customer?.id;
        if (customer) await syncCustomer(customer);
      } catch (error) {
        log?.warn({ err: error }, 'sync after Checkout failed; the webhook will bring the plan');
        return pending;
      }
      return (await isPremium(userId)) ? done : pending;
    },

    /** The portal's return URL: syncs the user's customer, then back to the page they came from. */
    async portalReturn(userId: string, to: string | undefined): Promise<string> {
      const target = safeReturnPath(to, publicUrl) ?? SCREENS.billing;
      const account = settings ? await repo.accountOfUser(userId) : undefined;
      if (account) {
        try {
          await syncCustomer(account.customer_id);
        } catch (error) {
          log?.warn({ err: error }, 'sync after the billing portal failed; the webhook will bring it');
        }
      }
      return target;
    },

    /**
     * POST /stripe/webhook. 400 for a wrong, missing or stale signature; 200 for events that matter and
     * were stored (their customer's sync queued), for a redelivery, and for events of no interest; 500 when
     * storing fails, so Stripe sends it again.
     */
    async webhook(
      rawBody: Buffer,
      signature: string | undefined,
    ): Promise<{ status: 200 | 400 | 500; body: { received: boolean; message?: string } }> {
      if (!settings || !stripe)
        return { status: 400, body: { received: false, message: BILLING_MESSAGES.unavailable } };
      if (!signature) return { status: 400, body: { received: false, message: BILLING_ERRORS.signature } };
      let event: Stripe.Event;
      try {
        // Checks the HMAC and that the timestamp is within five minutes (a replayed old delivery fails).
        event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
      } catch {
        return { status: 400, body: { received: false, message: BILLING_ERRORS.signature } };
      }
      if (!RELEVANT_EVENTS.has(event.type)) return { status: 200, body: { received: true } };
      const customerId = customerOfEvent(event);
      try {
        const fresh = await repo.recordEvent({ id: event.id, type: event.type, customerId }, now());
        if (fresh && customerId) await enqueueSync(customerId);
      } catch (error) {
        log?.error({ err: error, eventId: event.id }, 'Stripe event could not be stored');
        return { status: 500, body: { received: false } };
      }
      return { status: 200, body: { received: true } };
    },

    /** At start: customers whose events a stopped process did not sync, queued again; old event ids pruned. */
    async resumeUnprocessed(): Promise<number> {
      if (!settings) return 0;
      await repo.pruneEvents(now() - EVENT_RETENTION_MS);
      const customers = await repo.customersWithUnprocessedEvents();
      for (const customerId of customers) await enqueueSync(customerId);
      return customers.length;
    },

    /** GET /subscription-status/: premium, or billing off (nothing to buy, nothing limited). */
    async hasActiveSubscription(userId: string): Promise<boolean> {
      return !settings || (await isPremium(userId));
    },

    /** GET /get-billing. */
    async state(userId: string): Promise<BillingState> {
      const [plan, account, usage] = await Promise.all([
        repo.plan(userId),
        repo.accountOfUser(userId),
        repo.trialUsage(userId),
      ]);
      const limited = settings !== null && plan !== 'premium';
      return {
        enabled: settings !== null,
        plan: settings && plan === 'premium' ? 'premium' : 'free',
        status: account?.status ?? null,
        interval: account?.interval ?? null,
        currentPeriodEnd:
          account?.current_period_end == null ? null : new Date(account.current_period_end).toISOString(),
        cancelAtPeriodEnd: account?.cancel_at_period_end === 1,
        hasCustomer: settings !== null && account !== undefined,
        usage: {
          unsubscribesUsed: usage.unsubscribesUsed,
          unsubscribesLimit: limited ? FREE_TRIAL.unsubscribes : null,
          mailboxes: usage.mailboxes,
          mailboxesLimit: limited ? FREE_TRIAL.mailboxes : null,
        },
      };
    },

    /** How many mailboxes the user may have; null: no limit (premium, or billing off). */
    async mailboxLimit(userId: string): Promise<number | null> {
      if (!settings || (await isPremium(userId))) return null;
      return FREE_TRIAL.mailboxes;
    },

    /**
     * Takes one of the trial's unsubscribes for a sender before anything is sent; 402 when they are used
     * up. Premium, billing off, and a sender counted before need none.
     */
    async reserveUnsubscribe(userId: string, senderId: string): Promise<UnsubscribeAllowance> {
      if (!settings || (await isPremium(userId))) return NO_ALLOWANCE_NEEDED;
      const outcome = await repo.reserveUnsubscribe(userId, senderId, FREE_TRIAL.unsubscribes);
      if (outcome === 'exhausted') throw new HttpError(402, BILLING_MESSAGES.unsubscribeLimit);
      if (outcome === 'already-counted') return NO_ALLOWANCE_NEEDED;
      return { release: () => repo.releaseUnsubscribe(userId, senderId) };
    },

    /**
     * Before an account is deleted: what it used of the free trial is kept under a keyed hash of each of
     * its addresses (the account's and its mailboxes'), so a new account for the same mailbox goes on
     * from there (docs/decisions.md, "The free trial outlives the account").
     */
    async keepTrialUsage(userId: string): Promise<void> {
      if (!settings || !deps.trialKey) return;
      const { used, addresses } = await repo.trialToKeep(userId);
      if (used > 0) await repo.keepTrialUsage(addresses.map(deps.trialKey), used, now());
    },

    /** A mailbox was connected: a deleted account's use of the trial with that address counts again. */
    async mailboxConnected(userId: string, address: string): Promise<void> {
      if (!settings || !deps.trialKey) return;
      await repo.applyKeptTrialUsage(userId, [deps.trialKey(address)]);
    },

    /**
     * Before an account is deleted, at Stripe: its open Checkout Sessions are expired (a payment page left
     * open cannot be paid afterwards), its live subscriptions cancelled at once, and its customer (email,
     * user id) deleted. When Stripe cannot be reached the deletion does not happen (502). A Checkout paid
     * between these steps ends with the customer's deletion (Stripe cancels its subscriptions), and one
     * paid on a customer we never linked is cancelled by the sync (no known user).
     */
    async cancelForDeletion(userId: string): Promise<void> {
      if (!settings || !stripe) return;
      // A payment link being made for the user finishes first, so its customer or session is seen here.
      for (const interval of ['month', 'year'] as const)
        await linksInFlight.get(`${userId}:${interval}`)?.catch(() => {});
      const account = await repo.accountOfUser(userId);
      if (!account) return;
      const customer = account.customer_id;
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
        throw new HttpError(502, BILLING_ERRORS.cancelBeforeDelete);
      }
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
