import { type Kysely, type Migration, type MigrationProvider, Migrator, SqliteAdapter, sql } from 'kysely';

// Migrations live in code (not .sql files) so one definition builds both SQLite and PostgreSQL
// and the compiled server carries them. Append new ones; never edit one that has shipped.

const migrations: Record<string, Migration> = {
  '0001_accounts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text')
        .addColumn('plan', 'text', (c) => c.notNull().defaultTo('free'))
        .addColumn('alert_manual_unsubscribe', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('alert_after_unsubscribe', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('password_resets')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('password_resets_user_id')
        .on('password_resets')
        .column('user_id')
        .execute();
    },
  },
  '0002_mailboxes': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('mailboxes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('secret', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('mailboxes_user_email', ['user_id', 'email'])
        .execute();
    },
  },
  '0003_senders_and_messages': {
    async up(db: Kysely<unknown>) {
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
      await db.schema
        .createIndex('messages_sender_date')
        .on('messages')
        .columns(['sender_id', 'date'])
        .execute();
    },
  },
  '0004_scanned_messages': {
    async up(db: Kysely<unknown>) {
      // Ids of every message a scan has counted, so a message seen again (a rescan after the
      // provider lost its sync state, a replayed batch) is never counted twice. Ids only.
      await db.schema
        .createTable('scanned_messages')
        .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('scanned_messages_pk', ['mailbox_id', 'provider_id'])
        .execute();
    },
  },
  '0005_unsubscribe': {
    async up(db: Kysely<unknown>) {
      // Every unsubscribe attempt, so the user can see how and when each sender was handled.
      await db.schema
        .createTable('unsubscribe_receipts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('sender_id', 'text', (c) => c.notNull().references('senders.id').onDelete('cascade'))
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('ok', 'integer', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('receipts_sender')
        .on('unsubscribe_receipts')
        .columns(['sender_id', 'created_at'])
        .execute();
      // Blocked senders of a mailbox: the provider's rule id, or null when the product applies the
      // rule itself at every check (IMAP has no server-side filters we can create).
      await db.schema
        .createTable('block_rules')
        .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('provider_ref', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('block_rules_pk', ['mailbox_id', 'address'])
        .execute();
    },
  },
  '0006_verification': {
    async up(db: Kysely<unknown>) {
      // Verification after an unsubscribe: when it happened, and whether mail kept arriving after
      // the grace period; the user's choice to block such senders automatically.
      await db.schema.alterTable('senders').addColumn('unsubscribed_at', 'bigint').execute();
      await db.schema
        .alterTable('senders')
        .addColumn('still_sending', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('auto_block_still_sending', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '0007_hardening': {
    async up(db: Kysely<unknown>) {
      // Messages of a sender that carry list evidence (a usable List-Unsubscribe, List-Id or
      // Precedence bulk/list). Beside message_count it tells a list from a correspondent whose From
      // was forged once, and what a block would trash. Existing subscriptions keep their standing.
      await db.schema
        .alterTable('senders')
        .addColumn('list_message_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`UPDATE senders SET list_message_count = message_count WHERE is_subscription = 1`.execute(db);
      // One unsubscribe run per sender across every instance: the row is the lock (its primary key
      // refuses a second one), with a lease the running instance renews; a row whose lease ran out
      // belongs to a killed process and is reconciled, never run again blindly. A finished run keeps
      // its answer (lease 0) for the callers that waited on it.
      await db.schema
        .createTable('unsubscribe_flights')
        .addColumn('sender_id', 'text', (c) => c.primaryKey().references('senders.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint', (c) => c.notNull())
        .addColumn('answer', 'text')
        .execute();
      // A receipt is written as pending before the sender is contacted and settled after, so an
      // attempt cut off by a crash is known at restart. recipient: the one address a mailto went to.
      await db.schema
        .alterTable('unsubscribe_receipts')
        .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('unsubscribe_receipts').addColumn('recipient', 'text').execute();
    },
  },
  '0008_billing': {
    async up(db: Kysely<unknown>) {
      // The user's Stripe customer and a copy of their subscription as Stripe last said it (Stripe is the
      // source of truth: every event re-reads it). One row per user; created before the first Checkout.
      await db.schema
        .createTable('billing_accounts')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('customer_id', 'text', (c) => c.notNull().unique())
        .addColumn('subscription_id', 'text')
        .addColumn('status', 'text')
        .addColumn('price_id', 'text')
        .addColumn('interval', 'text')
        .addColumn('current_period_end', 'bigint')
        .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('synced_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // Webhook events by id: a redelivery finds its row and does nothing. Only ids, types and the
      // customer are kept; processed_at is set once the customer was synced after it.
      await db.schema
        .createTable('stripe_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text')
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('processed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('stripe_events_unprocessed')
        .on('stripe_events')
        .columns(['processed_at', 'customer_id'])
        .execute();
      // The free trial's unsubscribes: a counter reserved atomically per user, and per sender whether it
      // was counted (an unsubscribe undone by Keep and done again does not count twice).
      await db.schema
        .alterTable('users')
        .addColumn('trial_unsubscribes_used', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('senders')
        .addColumn('trial_counted', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '0009_subscription_screen': {
    async up(db: Kysely<unknown>) {
      // What each sender costs the user (docs/decisions.md, "The subscription screen"): the read state of
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
      await db.schema
        .createIndex('messages_sender_seen')
        .on('messages')
        .columns(['sender_id', 'seen'])
        .execute();
    },
  },
  '0010_bulk_and_undo': {
    async up(db: Kysely<unknown>) {
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
    },
  },
  '0011_subscription_totals': {
    async up(db: Kysely<unknown>) {
      // SQLite only (docs/decisions.md "The list's total, kept by SQLite triggers"): how many
      // subscriptions each user has in each category, kept by triggers on every write to senders, so the
      // list's total is one row instead of a count of the category's index entries (250 µs for 5,000).
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
    },
  },
  '0012_one_sender_index_of_messages': {
    async up(db: Kysely<unknown>) {
      // One index serves both readers of a sender's references: the message list (sender, newest first)
      // and the read-rate recount (sender, seen and date, read from the index alone). Two indexes keyed by
      // the sender cost a scan twice the writes: keeping both was 0.27 s of 50,000 inserted references and
      // most of each batch's commit (docs/decisions.md, "Scan speed").
      await db.schema
        .createIndex('messages_sender_date_seen')
        .on('messages')
        .columns(['sender_id', 'date', 'seen'])
        .execute();
      await db.schema.dropIndex('messages_sender_date').execute();
      await db.schema.dropIndex('messages_sender_seen').execute();
    },
  },
  '0013_verified_addresses': {
    async up(db: Kysely<unknown>) {
      // A password account's address is unverified until proven (a link mailed to it, a password reset,
      // or a mailbox at that address that logs in); a Google or Microsoft sign-in into an unverified
      // account takes it over (docs/decisions.md, "Who owns an address").
      await db.schema
        .alterTable('users')
        .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // Accounts made by a provider's sign-in, and those with a mailbox connected at their own address,
      // are proven already.
      await sql`UPDATE users SET email_verified = 1 WHERE password_hash IS NULL
        OR EXISTS (SELECT 1 FROM mailboxes m WHERE m.user_id = users.id AND m.email = users.email)`.execute(
        db,
      );
      await db.schema
        .createTable('email_verifications')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('email_verifications_user_id')
        .on('email_verifications')
        .column('user_id')
        .execute();
      // Failed password sign-ins per address (a hash of it, so no address is kept for one that has no
      // account), for the per-account backoff beside the per-IP limit.
      await db.schema
        .createTable('signin_failures')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('last_at', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0014_trial_usage_kept': {
    async up(db: Kysely<unknown>) {
      // What a deleted account used of the free trial, by mailbox address, so deleting and re-creating an
      // account does not restart it. `key` is a keyed hash of the address (lib/crypto keyedHasher): no
      // readable address is kept (docs/decisions.md, "The free trial outlives the account").
      await db.schema
        .createTable('trial_usage')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('unsubscribes_used', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
};

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

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** `schema`: the PostgreSQL schema the bookkeeping tables belong to (else Kysely may find another schema's). */
export async function migrateToLatest(db: Kysely<unknown>, schema?: string): Promise<void> {
  const { error, results } = await new Migrator({
    db,
    provider,
    migrationTableSchema: schema,
  }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
