import type { Generated } from 'kysely';

// Billing (features/billing): the Stripe customer, webhook events, and the trial use of deleted accounts.
// Conventions (times, booleans, unions): ../schema.ts.

/** A user's Stripe customer and their subscription as Stripe last said (features/billing). */
export interface BillingAccountsTable {
  user_id: string;
  customer_id: string;
  subscription_id: string | null;
  /** Stripe's subscription status (active, trialing, past_due, canceled, …); null: never subscribed. */
  status: string | null;
  price_id: string | null;
  interval: 'month' | 'year' | null;
  current_period_end: number | null;
  cancel_at_period_end: Generated<number>;
  synced_at: number | null;
  created_at: number;
}

/** Webhook events received, by id (a redelivery does nothing); processed once their customer was synced. */
export interface StripeEventsTable {
  id: string;
  type: string;
  customer_id: string | null;
  received_at: number;
  processed_at: number | null;
}

/** The free trial's use of deleted accounts, by keyed hash of a mailbox address (features/billing). */
export interface TrialUsageTable {
  key: string;
  unsubscribes_used: number;
  updated_at: number;
}
