import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // What each sender costs the user (docs/decisions/050-the-subscription-screen.md): the read state of
  // each message reference (1 read, 0 unread, null unknown), and per sender the running counts the
  // read rate is computed from, its sort key (read_rank: read per mille, 1001 while unknown so that
  // "least read first" puts the unknown last), messages in the 90 days before the last check, and
  // the discussion list a poster's mail came through (List-Post's address).
  await db.schema.alterTable('messages').addColumn('seen', 'integer').execute();
  for (const [column, fallback] of [
    ['read_count', 0],
    ['read_known', 0],
    ['read_rank', 1001],
    ['recent_count', 0],
  ] as const) {
    await db.schema
      .alterTable('senders')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(fallback))
      .execute();
  }
  await db.schema.alterTable('senders').addColumn('via', 'text').execute();
  // Keyset pagination of the list (no OFFSET): one index per sort, ending in the id tie-breaker.
  for (const [name, column] of [
    ['senders_page_newest', 'last_message_at'],
    ['senders_page_messages', 'message_count'],
    ['senders_page_read', 'read_rank'],
    ['senders_page_month', 'recent_count'],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('senders')
      .columns(['user_id', 'is_subscription', 'category', column, 'id'])
      .execute();
  }
  // Flag changes arrive by provider id; the rate of a sender is recounted from its references.
  await db.schema.createIndex('messages_sender_seen').on('messages').columns(['sender_id', 'seen']).execute();
}
