import { z } from 'zod';

// Plans and billing (docs/product.md §1, §3, §7, §9)

export { ANALYTICS_CLIENT_ID_HEADER } from '../analytics.js';
export { BILLING_MESSAGES, FREE_TRIAL } from '../billing.js';

export const priceSchema = z.object({
  id: z.string(),
  /** In cents; the screens show unit_amount / 100 with two decimals. */
  unit_amount: z.number().int().nonnegative(),
  currency: z.string(),
  recurring: z.object({ interval: z.enum(['month', 'year']) }),
});
export type Price = z.infer<typeof priceSchema>;

export const pricesResponseSchema = z.object({ data: z.array(priceSchema) });
export type PricesResponse = z.infer<typeof pricesResponseSchema>;

/** The page the user was on: Checkout's cancel and the portal's return lead back there when it is on this site. */
export const paymentLinkBodySchema = z.object({ originalUrl: z.string().max(2048).optional() });
export type PaymentLinkBody = z.infer<typeof paymentLinkBodySchema>;

export const urlResponseSchema = z.object({ url: z.string() });
export type UrlResponse = z.infer<typeof urlResponseSchema>;

export const PLANS = ['free', 'premium'] as const;
export type Plan = (typeof PLANS)[number];

/** GET /get-billing: what the Billing screen shows. */
export const billingStateSchema = z.object({
  /** Plans are sold on this server. */
  enabled: z.boolean(),
  plan: z.enum(PLANS),
  /** The Stripe subscription's status (active, trialing, past_due, canceled, …); null: never subscribed. */
  status: z.string().nullable(),
  interval: z.enum(['month', 'year']).nullable(),
  /** ISO time the paid period ends: renewal date, or the end date when cancelAtPeriodEnd. */
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** Whether the user has a billing account (the portal can be opened). */
  hasCustomer: z.boolean(),
  /** The trial's use; limits are null when there are none (premium, or billing off). */
  usage: z.object({
    unsubscribesUsed: z.number().int(),
    unsubscribesLimit: z.number().int().nullable(),
    /**
     * Free unsubscribes still to use (the limit less what was used, never below 0); null: no limit. The
     * list shows it and a bulk confirmation says how many of its senders will run.
     */
    unsubscribesLeft: z.number().int().min(0).nullable(),
    mailboxes: z.number().int(),
    mailboxesLimit: z.number().int().nullable(),
  }),
});
export type BillingState = z.infer<typeof billingStateSchema>;
