import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every unsubscribe attempt, so the user can see how and when each sender was handled.
  await db.schema
    .createTable('unsubscribe_receipts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('sender_id', 'text', (c) => c.notNull().references('senders.id').onDelete('cascade'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('receipts_sender')
    .on('unsubscribe_receipts')
    .columns(['sender_id', 'created_at'])
    .execute();
  // Blocked senders of a mailbox: the provider's rule id, or null when the product applies the
  // rule itself at every check (IMAP has no server-side filters we can create).
  await db.schema
    .createTable('block_rules')
    .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('provider_ref', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('block_rules_pk', ['mailbox_id', 'address'])
    .execute();
}
