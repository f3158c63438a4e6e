import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Messages of a sender that carry list evidence (a usable List-Unsubscribe, List-Id or
  // Precedence bulk/list). Beside message_count it tells a list from a correspondent whose From
  // was forged once, and what a block would trash. Existing subscriptions keep their standing.
  await db.schema
    .alterTable('senders')
    .addColumn('list_message_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE senders SET list_message_count = message_count WHERE is_subscription = 1`.execute(db);
  // One unsubscribe run per sender across every instance: the row is the lock (its primary key
  // refuses a second one), with a lease the running instance renews; a row whose lease ran out
  // belongs to a killed process and is reconciled, never run again blindly. A finished run keeps
  // its answer (lease 0) for the callers that waited on it.
  await db.schema
    .createTable('unsubscribe_flights')
    .addColumn('sender_id', 'text', (c) => c.primaryKey().references('senders.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('answer', 'text')
    .execute();
  // A receipt is written as pending before the sender is contacted and settled after, so an
  // attempt cut off by a crash is known at restart. recipient: the one address a mailto went to.
  await db.schema
    .alterTable('unsubscribe_receipts')
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('unsubscribe_receipts').addColumn('recipient', 'text').execute();
}
