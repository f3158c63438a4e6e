import Stripe from 'stripe';
import type { StripeSettings } from '#server/integrations/stripe.js';
import { DomainError, UpstreamUnavailableError } from '#server/lib/errors.js';
import type { BillingRepository } from './repository.js';

// What every part of billing that talks to Stripe shares: the client, the settings it was made with, the
// repository, and how a failed call reaches the user (a 502 with a sentence; the details go to the log).

export const BILLING_ERRORS = {
  pricesUnavailable: 'Prices cannot be loaded right now. Please try again in a moment.',
  stripeUnavailable: 'The payment service cannot be reached right now. Please try again in a moment.',
  signature: 'Invalid Stripe signature.',
  cancelBeforeDelete:
    'Your subscription could not be cancelled just now, so nothing was deleted. Please try again in a moment.',
} as const;

export interface BillingLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Billing switched on: the parts below receive this, never a null client. */
export interface StripeContext {
  settings: StripeSettings;
  stripe: Stripe;
  repo: BillingRepository;
  publicUrl: string;
  now: () => number;
  log?: BillingLog;
}

export function createStripeClient(settings: StripeSettings): Stripe {
  return new Stripe(settings.secretKey, {
    ...(settings.endpoint ?? {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Inbox Genie' },
  });
}

/** A Stripe failure as the user sees it (the details go to the log); a domain error passes unchanged. */
export function stripeUnavailable(error: unknown, what: string, log?: BillingLog): DomainError {
  if (error instanceof DomainError) return error;
  log?.error({ err: error }, what);
  return new UpstreamUnavailableError(BILLING_ERRORS.stripeUnavailable);
}

/** Stripe's answer for an object that does not exist (or no longer: a deleted customer). */
export function isMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing';
}

/**
 * Expires a Checkout Session; one no longer open (paid or expired meanwhile: Stripe refuses with an
 * invalid-request error) is left as it is, and the caller's next step sees its subscription.
 */
export async function expireIfOpen(api: Stripe, sessionId: string): Promise<void> {
  try {
    await api.checkout.sessions.expire(sessionId);
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    const session = await api.checkout.sessions.retrieve(sessionId);
    if (session.status === 'open') throw error;
  }
}
