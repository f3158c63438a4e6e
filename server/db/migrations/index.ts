import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import * as m0001 from './0001_users_sessions_and_password_resets.js';
import * as m0002 from './0002_mailboxes.js';
import * as m0003 from './0003_senders_and_messages.js';
import * as m0004 from './0004_scanned_messages.js';
import * as m0005 from './0005_unsubscribe_receipts_and_block_rules.js';
import * as m0006 from './0006_unsubscribed_at_and_still_sending.js';
import * as m0007 from './0007_list_message_count_and_unsubscribe_flights.js';
import * as m0008 from './0008_billing_accounts_and_stripe_events.js';
import * as m0009 from './0009_read_state_and_list_indexes.js';
import * as m0010 from './0010_bulk_actions_and_trashed_messages.js';
import * as m0011 from './0011_subscription_totals.js';
import * as m0012 from './0012_one_sender_index_of_messages.js';
import * as m0013 from './0013_email_verification_and_signin_failures.js';
import * as m0014 from './0014_trial_usage.js';
import * as m0015 from './0015_sender_names_cut_to_the_cap.js';
import * as m0016 from './0016_sender_rules_and_screener.js';
import * as m0017 from './0017_account_audit.js';
import * as m0018 from './0018_sender_brand.js';
import * as m0019 from './0019_weekly_report.js';
import * as m0020 from './0020_insights_stamp_index.js';
import * as m0021 from './0021_account_proofs_and_mail_budget.js';
import * as m0022 from './0022_second_factors_passkeys_and_sessions.js';
import * as m0023 from './0023_activity_and_mail_that_moved.js';

// One file per migration, named for what it changes. Migrations live in code (not .sql files) so one
// definition builds both SQLite and PostgreSQL and the compiled server carries them. Append new ones
// here in order; never edit one that has shipped.
export const migrations: Record<string, Migration> = {
  '0001_users_sessions_and_password_resets': m0001,
  '0002_mailboxes': m0002,
  '0003_senders_and_messages': m0003,
  '0004_scanned_messages': m0004,
  '0005_unsubscribe_receipts_and_block_rules': m0005,
  '0006_unsubscribed_at_and_still_sending': m0006,
  '0007_list_message_count_and_unsubscribe_flights': m0007,
  '0008_billing_accounts_and_stripe_events': m0008,
  '0009_read_state_and_list_indexes': m0009,
  '0010_bulk_actions_and_trashed_messages': m0010,
  '0011_subscription_totals': m0011,
  '0012_one_sender_index_of_messages': m0012,
  '0013_email_verification_and_signin_failures': m0013,
  '0014_trial_usage': m0014,
  '0015_sender_names_cut_to_the_cap': m0015,
  '0016_sender_rules_and_screener': m0016,
  '0017_account_audit': m0017,
  '0018_sender_brand': m0018,
  '0019_weekly_report': m0019,
  '0020_insights_stamp_index': m0020,
  '0021_account_proofs_and_mail_budget': m0021,
  '0022_second_factors_passkeys_and_sessions': m0022,
  '0023_activity_and_mail_that_moved': m0023,
};

/**
 * Names that migrations ran under before they were named for what they change. A database migrated then
 * has them in its bookkeeping table; they are renamed once, before the Migrator compares its list.
 */
export const FORMER_NAMES: readonly (readonly [string, string])[] = [
  ['0001_accounts', '0001_users_sessions_and_password_resets'],
  ['0005_unsubscribe', '0005_unsubscribe_receipts_and_block_rules'],
  ['0006_verification', '0006_unsubscribed_at_and_still_sending'],
  ['0007_hardening', '0007_list_message_count_and_unsubscribe_flights'],
  ['0008_billing', '0008_billing_accounts_and_stripe_events'],
  ['0009_subscription_screen', '0009_read_state_and_list_indexes'],
  ['0010_bulk_and_undo', '0010_bulk_actions_and_trashed_messages'],
  ['0013_verified_addresses', '0013_email_verification_and_signin_failures'],
  ['0014_trial_usage_kept', '0014_trial_usage'],
];

async function renameFormerMigrations(db: Kysely<unknown>, schema?: string): Promise<void> {
  const table = schema ? sql.table(`${schema}.kysely_migration`) : sql.table('kysely_migration');
  try {
    await sql`select 1 from ${table} where 1 = 0`.execute(db);
  } catch {
    return; // a new database: the Migrator creates the table
  }
  for (const [former, name] of FORMER_NAMES) {
    await sql`update ${table} set name = ${name} where name = ${former}`.execute(db);
  }
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** `schema`: the PostgreSQL schema the bookkeeping tables belong to (else Kysely may find another schema's). */
export async function migrateToLatest(db: Kysely<unknown>, schema?: string): Promise<void> {
  await renameFormerMigrations(db, schema);
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await new Migrator({
      db,
      provider,
      migrationTableSchema: schema,
    }).migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return;
    // Kysely looks for its own table among the tables of every schema of the database: another schema
    // dropped meanwhile (a test run's cleanup, an operator's) fails that look before anything ran. Looked
    // again, it is gone from the list.
    if (!failed && attempt < 3 && otherSchemaVanished(error, schema)) continue;
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** PostgreSQL's "schema … does not exist" (3F000) about a schema that is not this database's own. */
export function otherSchemaVanished(error: unknown, schema: string | undefined): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const named = /schema "([^"]+)" does not exist/.exec(message ?? '')?.[1];
  return code === '3F000' && named !== undefined && named !== schema;
}
