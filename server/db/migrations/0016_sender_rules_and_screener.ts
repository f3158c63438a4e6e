import type { Kysely } from 'kysely';

// Sender rules, the moves they and the Screener made (for undo), and the Screener's switch and marks
// (docs/decisions/079-sender-rules.md, 080-the-screener.md). Ids and folders only, never content.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sender_rules')
    .addColumn('sender_id', 'text', (c) => c.primaryKey().references('senders.id').onDelete('cascade'))
    .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('folder', 'text')
    .addColumn('folder_name', 'text')
    .addColumn('keep_newest', 'integer')
    .addColumn('expire_after_days', 'integer')
    .addColumn('expire_action', 'text')
    .addColumn('provider_ref', 'text')
    .addColumn('next_due_at', 'bigint')
    .addColumn('tracked', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sender_rules_mailbox').on('sender_rules').column('mailbox_id').execute();
  await db.schema
    .createTable('moved_messages')
    .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('sender_id', 'text', (c) => c.notNull().references('senders.id').onDelete('cascade'))
    .addColumn('cause', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('moved_id', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('moved_messages_pk', ['mailbox_id', 'moved_id'])
    .execute();
  await db.schema
    .createIndex('moved_messages_sender')
    .on('moved_messages')
    .columns(['sender_id', 'cause'])
    .execute();
  await db.schema
    .alterTable('mailboxes')
    .addColumn('screener', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('senders')
    .addColumn('screened', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
