import type { Kysely } from 'kysely';

// No surprises (docs/decisions/101-activity-history-and-counts-that-follow.md):
// - `activity`: what the product did to a user's mail, newest first, for the Activity screen and its Undo.
//   One row per block, unsubscribe that moved mail, rule or Screener run that moved mail, and bulk; a bulk's
//   items are rows with `bulk_id`, listed under the bulk. Ids, counts and times only.
// - `messages.gone`: 1 while the product has moved the message to the trash (a block, a rule's trash): it
//   is not counted or listed, and an undo that brings it back counts it again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('activity')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('sender_id', 'text', (c) => c.references('senders.id').onDelete('cascade'))
    .addColumn('bulk_id', 'text')
    .addColumn('bulk_action', 'text')
    .addColumn('bulk_total', 'integer')
    .addColumn('by_check', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('moved', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('undone_at', 'bigint')
    .execute();
  await db.schema.createIndex('activity_user_at').on('activity').columns(['user_id', 'at', 'id']).execute();
  await db.schema.createIndex('activity_sender').on('activity').columns(['sender_id', 'kind']).execute();
  await db.schema.createIndex('activity_bulk').on('activity').column('bulk_id').execute();
  await db.schema
    .alterTable('messages')
    .addColumn('gone', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
