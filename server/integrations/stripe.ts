import { z } from 'zod';
import { allOrNone, type Integration, isSet } from './integration.js';

// Stripe: plans, Checkout, the billing portal and the free trial's limits (docs/decisions/040-billing-with-stripe-as-source-of-truth.md).
// Billing is on only when the secret key, the webhook's signing secret and both prices are set; otherwise
// the product runs without limits (self-hosting) and /pricing only describes the plans. STRIPE_API_URL moves
// every Stripe call to one origin (the local fake in tests); plain http is allowed only on loopback, so a
// typo cannot send the secret key over the internet unencrypted.

const REQUIRED = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICE_MONTHLY',
  'STRIPE_PRICE_YEARLY',
] as const;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const stripeApiUrl = z
  .url({ protocol: /^https?$/, error: 'STRIPE_API_URL must be an http(s) URL (leave it unset for Stripe)' })
  .refine((value) => {
    const url = new URL(value);
    return url.protocol === 'https:' || LOOPBACK.has(url.hostname);
  }, 'STRIPE_API_URL may use plain http only on loopback (127.0.0.1, localhost, [::1])')
  .refine((value) => {
    const url = new URL(value);
    return (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
  }, 'STRIPE_API_URL is an origin (scheme, host, port) without a path');

/** Where the SDK sends its calls: Stripe's own host when `apiUrl` is unset. */
export interface StripeEndpoint {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

export function stripeEndpoint(apiUrl: string | null): StripeEndpoint | null {
  if (!apiUrl) return null;
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

const stripeEnv = z
  .object({
    STRIPE_SECRET_KEY: z.string().optional(),
    STRIPE_WEBHOOK_SECRET: z.string().optional(),
    STRIPE_PRICE_MONTHLY: z.string().optional(),
    STRIPE_PRICE_YEARLY: z.string().optional(),
    STRIPE_API_URL: stripeApiUrl.optional(),
  })
  .superRefine(allOrNone('Stripe billing', REQUIRED))
  .transform((e) => ({
    stripe:
      isSet(e.STRIPE_SECRET_KEY) &&
      isSet(e.STRIPE_WEBHOOK_SECRET) &&
      isSet(e.STRIPE_PRICE_MONTHLY) &&
      isSet(e.STRIPE_PRICE_YEARLY)
        ? {
            secretKey: e.STRIPE_SECRET_KEY.trim(),
            webhookSecret: e.STRIPE_WEBHOOK_SECRET.trim(),
            prices: { month: e.STRIPE_PRICE_MONTHLY.trim(), year: e.STRIPE_PRICE_YEARLY.trim() },
            endpoint: stripeEndpoint(e.STRIPE_API_URL ?? null),
          }
        : null,
  }));

export type StripeConfig = z.output<typeof stripeEnv>;
/** The settings billing runs with (null: billing off). */
export type StripeSettings = NonNullable<StripeConfig['stripe']>;

export const stripe: Integration<StripeConfig> = {
  label: 'Stripe billing',
  required: REQUIRED,
  env: stripeEnv,
  enabled: (config) => config.stripe !== null,
  unavailableText: 'Plans are not sold on this server: every feature is available without limits.',
};
