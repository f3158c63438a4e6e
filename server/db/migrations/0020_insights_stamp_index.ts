import type { Kysely } from 'kysely';

// The Insights screen's answer is kept per user until the user's senders change
// (docs/decisions/083-insights.md): the newest senders.updated_at of the user, one index seek with this
// index instead of a read of every sender row of the user on each call.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('senders_user_updated')
    .on('senders')
    .columns(['user_id', 'updated_at'])
    .execute();
}
