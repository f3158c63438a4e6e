import type Stripe from 'stripe';
import { BILLING_MESSAGES, type BillingState, FREE_TRIAL, type Price } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import type { StripeSettings } from '#server/integrations/stripe.js';
import { NotFoundError } from '#server/lib/errors.js';
import type { Repositories } from '../repositories.js';
import { createAccountDeletion } from './account-deletion.js';
import { createCheckout, type PaymentLinkRequest, safeReturnPath } from './checkout.js';
import { createPrices } from './prices.js';
import { type BillingLog, createStripeClient, type StripeContext } from './stripe-api.js';
import { createSync } from './sync.js';
import { createTrial } from './trial.js';
import { createWebhooks, type WebhookAnswer, type WebhookDelivery } from './webhooks.js';

// Plans and billing (docs/decisions/040-billing-with-stripe-as-source-of-truth.md), composed of its parts: prices.ts (the pricing page),
// checkout.ts (Checkout, the portal and their return URLs), webhooks.ts (Stripe's deliveries), sync.ts
// (the copy of what the customer pays for), trial.ts (the free trial's limits) and account-deletion.ts
// (what is ended at Stripe before an account goes). This file says what each call does with billing off
// (no Stripe keys): nothing is sold, and nothing is limited.

export interface BillingDeps {
  /** null: billing is off. */
  settings: StripeSettings | null;
  repos: Pick<Repositories, 'billing'>;
  publicUrl: string;
  /** Queues a sync of the customer (the `billing-sync` job, one at a time per customer). */
  enqueueSync: (customerId: string) => Promise<void>;
  now?: () => number;
  log?: BillingLog;
  /** The Stripe client (built from settings when absent). */
  stripe?: Stripe;
  /** The keyed hash the trial's use is kept under after an account is deleted (lib/crypto keyedHasher). */
  trialKey?: (address: string) => string;
}

/** The parts that call Stripe, built only with billing on. */
function stripeParts(ctx: StripeContext, enqueueSync: (customerId: string) => Promise<void>) {
  const syncCustomer = createSync(ctx);
  const checkout = createCheckout(ctx, { syncCustomer });
  return {
    syncCustomer,
    checkout,
    prices: createPrices(ctx),
    webhooks: createWebhooks(ctx, { enqueueSync }),
    cancelForDeletion: createAccountDeletion(ctx, { linksSettled: checkout.linksSettled }),
  };
}

export function createBillingService(deps: BillingDeps) {
  const { settings, publicUrl, enqueueSync, now = Date.now, log } = deps;
  const repo = deps.repos.billing;
  const on = settings
    ? stripeParts(
        { settings, stripe: deps.stripe ?? createStripeClient(settings), repo, publicUrl, now, log },
        enqueueSync,
      )
    : null;
  const trial = createTrial({ repo, limited: settings !== null, trialKey: deps.trialKey, now });

  /** The parts that call Stripe; with billing off, 404 with the reason. */
  function stripe() {
    if (!on) throw new NotFoundError(BILLING_MESSAGES.unavailable);
    return on;
  }

  return {
    /** Whether plans are sold here. */
    enabled: settings !== null,

    /** The `billing-sync` job: re-reads the customer at Stripe and stores the user's plan. */
    syncCustomer: async (customerId: string): Promise<void> => stripe().syncCustomer(customerId),

    /** GET /get-prices: the two configured prices, cached a few minutes; none with billing off. */
    prices: async (): Promise<Price[]> => (on ? on.prices() : []),

    /** POST /get-{monthly,yearly}-payment-link: a Checkout Session, or the portal for a paying user. */
    paymentLink: async (request: PaymentLinkRequest): Promise<string> =>
      stripe().checkout.paymentLink(request),

    /** POST /get-billing-portal-link: 409 for a user who never had a customer. */
    portalLink: async (userId: string, originalUrl: string | undefined): Promise<string> =>
      stripe().checkout.portalLink(userId, originalUrl),

    /** Checkout's success URL: where to send the user once their plan was synced. */
    checkoutReturn: async (userId: string, sessionId: string | undefined): Promise<string> =>
      on ? on.checkout.checkoutReturn(userId, sessionId) : SCREENS.billing,

    /** The portal's return URL: syncs the user's customer, then back to the page they came from. */
    async portalReturn(userId: string, to: string | undefined): Promise<string> {
      const target = safeReturnPath(to, publicUrl) ?? SCREENS.billing;
      if (on) await on.checkout.portalReturn(userId);
      return target;
    },

    /** POST /stripe/webhook (webhooks.ts); with billing off, 400. */
    webhook: async (delivery: WebhookDelivery): Promise<WebhookAnswer> =>
      on
        ? on.webhooks.receive(delivery)
        : { status: 400, body: { received: false, message: BILLING_MESSAGES.unavailable } },

    /** At start: customers whose events a stopped process did not sync, queued again. */
    resumeUnprocessed: async (): Promise<number> => (on ? on.webhooks.resumeUnprocessed() : 0),

    /** GET /subscription-status/: premium, or billing off (nothing to buy, nothing limited). */
    async hasActiveSubscription(userId: string): Promise<boolean> {
      return !settings || (await repo.plan(userId)) === 'premium';
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
          account?.currentPeriodEnd == null ? null : new Date(account.currentPeriodEnd).toISOString(),
        cancelAtPeriodEnd: account?.cancelAtPeriodEnd === true,
        hasCustomer: settings !== null && account !== undefined,
        usage: {
          unsubscribesUsed: usage.unsubscribesUsed,
          unsubscribesLimit: limited ? FREE_TRIAL.unsubscribes : null,
          unsubscribesLeft: limited ? Math.max(0, FREE_TRIAL.unsubscribes - usage.unsubscribesUsed) : null,
          mailboxes: usage.mailboxes,
          mailboxesLimit: limited ? FREE_TRIAL.mailboxes : null,
        },
      };
    },

    ...trial,

    /** Before an account is deleted: its Checkout, subscriptions and customer end at Stripe (502 if not). */
    cancelForDeletion: async (userId: string): Promise<void> => on?.cancelForDeletion(userId),
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
