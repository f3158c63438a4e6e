import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One index serves both readers of a sender's references: the message list (sender, newest first)
  // and the read-rate recount (sender, seen and date, read from the index alone). Two indexes keyed by
  // the sender cost a scan twice the writes, most of each batch's commit (docs/decisions/055-imap-scan-speed.md).
  await db.schema
    .createIndex('messages_sender_date_seen')
    .on('messages')
    .columns(['sender_id', 'date', 'seen'])
    .execute();
  await db.schema.dropIndex('messages_sender_date').execute();
  await db.schema.dropIndex('messages_sender_seen').execute();
}
