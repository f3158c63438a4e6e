import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A bulk action (POST /bulk-action) and one row per requested sender, in the order asked: an item's
  // outcome is written once it is done, so a restarted process resumes the items still without one
  // and never runs a finished one again.
  await db.schema
    .createTable('bulk_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('move_to_trash', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    // The runner's lease (renewed while it lives): one runner per bulk across instances.
    .addColumn('runner_until', 'bigint')
    .execute();
  // One running bulk per user, enforced by the database so two POSTs at once cannot both start one.
  await db.schema
    .createIndex('bulk_actions_one_running')
    .on('bulk_actions')
    .column('user_id')
    .unique()
    .where(sql.ref('finished_at'), 'is', null)
    .execute();
  await db.schema
    .createTable('bulk_items')
    .addColumn('bulk_id', 'text', (c) => c.notNull().references('bulk_actions.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('result', 'text')
    .addColumn('done_at', 'bigint')
    .addPrimaryKeyConstraint('bulk_items_pk', ['bulk_id', 'position'])
    .execute();
  // What a block (or an unsubscribe with moveToTrash) moved to the trash, so that undoing the block can
  // move it back: ids only (the id in the trash and where it came from), never content.
  await db.schema
    .createTable('trashed_messages')
    .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('trash_id', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('trashed_messages_pk', ['mailbox_id', 'trash_id'])
    .execute();
  await db.schema
    .createIndex('trashed_messages_sender')
    .on('trashed_messages')
    .columns(['mailbox_id', 'address'])
    .execute();
}
