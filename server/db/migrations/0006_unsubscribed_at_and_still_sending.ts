import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Verification after an unsubscribe: when it happened, and whether mail kept arriving after
  // the grace period; the user's choice to block such senders automatically.
  await db.schema.alterTable('senders').addColumn('unsubscribed_at', 'bigint').execute();
  await db.schema
    .alterTable('senders')
    .addColumn('still_sending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('auto_block_still_sending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
