import type Stripe from 'stripe';
import { BILLING_ERRORS, type StripeContext } from './stripe-api.js';

// Stripe's webhook: a delivery is checked (signature, age), its event id stored once, and its customer's
// sync queued; the sync itself re-reads Stripe (sync.ts), so the event's content is never trusted.

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

/** Event ids are kept past Stripe's retry window (three days) and then forgotten. */
const EVENT_RETENTION_MS = 30 * 24 * 3600 * 1000;

export interface WebhookDelivery {
  rawBody: Buffer;
  /** The Stripe-Signature header. */
  signature: string | undefined;
}

export interface WebhookAnswer {
  status: 200 | 400 | 500;
  body: { received: boolean; message?: string };
}

/** The customer an event is about (every relevant event's object carries it as an id or object). */
export function customerOfEvent(event: Stripe.Event): string | null {
  const customer = (event.data.object as { customer?: string | { id: string } | null }).customer;
  if (!customer) return null;
  return typeof customer === 'string' ? customer : customer.id;
}

export function createWebhooks(
  { settings, stripe, repo, now, log }: StripeContext,
  { enqueueSync }: { enqueueSync: (customerId: string) => Promise<void> },
) {
  return {
    /**
     * 400 for a wrong, missing or stale signature; 200 for events that matter and were stored (their
     * customer's sync queued), for a redelivery, and for events of no interest; 500 when storing fails,
     * so Stripe sends it again.
     */
    async receive({ rawBody, signature }: WebhookDelivery): Promise<WebhookAnswer> {
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
      await repo.pruneEvents(now() - EVENT_RETENTION_MS);
      const customers = await repo.customersWithUnprocessedEvents();
      for (const customerId of customers) await enqueueSync(customerId);
      return customers.length;
    },
  };
}
