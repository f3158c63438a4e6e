import type { Kysely } from 'kysely';

// The weekly report by mail (docs/decisions/084-weekly-report.md): the user's opt-in (off by default), and
// one row per report claimed for a user and a week. The row is written before the mail is sent (the claim
// that keeps two instances from sending the same week twice) and holds the sha256 of that mail's own
// unsubscribe token. Deleted with the account.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('weekly_report', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('users_weekly_report').on('users').column('weekly_report').execute();
  await db.schema
    .createTable('weekly_reports')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('week', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addPrimaryKeyConstraint('weekly_reports_pk', ['user_id', 'week'])
    .execute();
}
