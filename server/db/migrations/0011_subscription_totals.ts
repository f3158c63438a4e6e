import { type Kysely, SqliteAdapter, sql } from 'kysely';
import { recountSubscriptionTotals } from '../subscription-totals.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite only (docs/decisions/054-list-total-kept-by-sqlite-triggers.md): how many
  // subscriptions each user has in each category, kept by triggers on every write to senders, so the
  // list's total is one row instead of a count of the category's index entries.
  // PostgreSQL keeps counting: there the counter row would be a lock that a scan's transaction and an
  // action on one of its senders could take in opposite orders.
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`create table subscription_totals (
    user_id text not null references users (id) on delete cascade,
    category text not null,
    n integer not null,
    primary key (user_id, category)
  ) without rowid`.execute(db);
  await sql`create trigger senders_total_insert after insert on senders
    when new.is_subscription = 1
    begin
      insert into subscription_totals (user_id, category, n) values (new.user_id, new.category, 1)
        on conflict (user_id, category) do update set n = n + 1;
    end`.execute(db);
  await sql`create trigger senders_total_delete after delete on senders
    when old.is_subscription = 1
    begin
      update subscription_totals set n = n - 1
        where user_id = old.user_id and category = old.category;
    end`.execute(db);
  // An upsert's update fires it too; rows whose three columns did not change are skipped by the WHEN.
  await sql`create trigger senders_total_update after update of user_id, is_subscription, category on senders
    when old.is_subscription is not new.is_subscription
      or old.category is not new.category
      or old.user_id is not new.user_id
    begin
      update subscription_totals set n = n - 1
        where old.is_subscription = 1 and user_id = old.user_id and category = old.category;
      insert into subscription_totals (user_id, category, n)
        select new.user_id, new.category, 1 where new.is_subscription = 1
        on conflict (user_id, category) do update set n = n + 1;
    end`.execute(db);
  await recountSubscriptionTotals(db);
}
