import { type Kysely, sql } from 'kysely';

/**
 * Counts subscription_totals afresh from senders (SQLite): after the migration, and at every start, so a
 * total can never stay wrong across a restart whatever wrote the file meanwhile (a tool without the
 * triggers, a restored backup).
 */
export async function recountSubscriptionTotals(db: Kysely<unknown>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`delete from subscription_totals`.execute(trx);
    await sql`insert into subscription_totals (user_id, category, n)
      select user_id, category, count(*) from senders where is_subscription = 1
      group by user_id, category`.execute(trx);
  });
}
