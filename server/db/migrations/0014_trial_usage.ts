import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // What a deleted account used of the free trial, by mailbox address, so deleting and re-creating an
  // account does not restart it. `key` is a keyed hash of the address (lib/crypto keyedHasher): no
  // readable address is kept (docs/decisions/069-free-trial-outlives-the-account.md).
  await db.schema
    .createTable('trial_usage')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('unsubscribes_used', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
