import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mailboxes').addColumn('imap_host', 'text').execute();
  await db.schema.alterTable('mailboxes').addColumn('imap_port', 'integer').execute();
  await db.schema.alterTable('mailboxes').addColumn('imap_secure', 'integer').execute();
  await db.schema.alterTable('mailboxes').addColumn('sync_state', 'text').execute();
  await db.schema
    .alterTable('mailboxes')
    .addColumn('scan_complete', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('mailboxes').addColumn('last_scanned_at', 'bigint').execute();
  await db.schema.alterTable('mailboxes').addColumn('last_error', 'text').execute();
  await db.schema
    .createTable('senders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('sender_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('message_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_message_at', 'bigint')
    .addColumn('is_subscription', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('category', 'text', (c) => c.notNull().defaultTo('uncategorized'))
    .addColumn('list_signal', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('one_click', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unsubscribe_http', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('unsubscribe_mailto', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('unsubscribe_seen_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('senders_mailbox_address', ['mailbox_id', 'address'])
    .execute();
  await db.schema
    .createIndex('senders_user_category')
    .on('senders')
    .columns(['user_id', 'is_subscription', 'category'])
    .execute();
  await db.schema
    .createTable('messages')
    .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('sender_id', 'text', (c) => c.notNull().references('senders.id').onDelete('cascade'))
    .addColumn('folder', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'bigint')
    .addPrimaryKeyConstraint('messages_pk', ['mailbox_id', 'provider_id'])
    .execute();
  await db.schema.createIndex('messages_sender_date').on('messages').columns(['sender_id', 'date']).execute();
}
