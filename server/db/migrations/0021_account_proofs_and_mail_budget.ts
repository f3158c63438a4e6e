import { type Kysely, sql } from 'kysely';

// Accounts that stay their owner's (docs/decisions/090-accounts-that-stay-their-owners.md):
// - `users.duplicate_signup_email`: set only on the stand-in account a sign-up with an address that already
//   has an account gets (its `email` is a placeholder under .invalid), so that session sees what a new
//   account's would (docs/decisions/057-sign-up-does-not-reveal-accounts.md).
// - `mailboxes.address_proven`: 1 when the login that connected the mailbox proved its address (an identity
//   provider that verified it, or an app password at the provider's own server for its own domains). Only
//   such addresses keep a deleted account's free-trial use.
// - `account_mails`: every mail the product sends about an account unasked-for, by a hash of the address, for
//   the per-address budget (at most 3 an hour).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('duplicate_signup_email', 'text').execute();
  await db.schema
    .createIndex('users_duplicate_signup')
    .on('users')
    .column('duplicate_signup_email')
    .execute();
  await db.schema
    .alterTable('mailboxes')
    .addColumn('address_proven', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Google grants were only ever stored for addresses Google verified.
  await sql`UPDATE mailboxes SET address_proven = 1 WHERE provider = 'gmail'`.execute(db);
  await db.schema
    .createTable('account_mails')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_mails_key')
    .on('account_mails')
    .columns(['key', 'kind', 'sent_at'])
    .execute();
  // Rows older than the budget's hour are deleted at every reservation.
  await db.schema.createIndex('account_mails_sent_at').on('account_mails').column('sent_at').execute();
}
