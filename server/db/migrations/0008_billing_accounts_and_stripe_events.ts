import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The user's Stripe customer and a copy of their subscription as Stripe last said it (Stripe is the
  // source of truth: every event re-reads it). One row per user; created before the first Checkout.
  await db.schema
    .createTable('billing_accounts')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('customer_id', 'text', (c) => c.notNull().unique())
    .addColumn('subscription_id', 'text')
    .addColumn('status', 'text')
    .addColumn('price_id', 'text')
    .addColumn('interval', 'text')
    .addColumn('current_period_end', 'bigint')
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('synced_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Webhook events by id: a redelivery finds its row and does nothing. Only ids, types and the
  // customer are kept; processed_at is set once the customer was synced after it.
  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('processed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('stripe_events_unprocessed')
    .on('stripe_events')
    .columns(['processed_at', 'customer_id'])
    .execute();
  // The free trial's unsubscribes: a counter reserved atomically per user, and per sender whether it
  // was counted (an unsubscribe undone by Keep and done again does not count twice).
  await db.schema
    .alterTable('users')
    .addColumn('trial_unsubscribes_used', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('senders')
    .addColumn('trial_counted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
