import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Ids of every message a scan has counted, so a message seen again (a rescan after the
  // provider lost its sync state, a replayed batch) is never counted twice. Ids only.
  await db.schema
    .createTable('scanned_messages')
    .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('scanned_messages_pk', ['mailbox_id', 'provider_id'])
    .execute();
}
