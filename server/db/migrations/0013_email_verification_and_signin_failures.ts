import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A password account's address is unverified until proven (a link mailed to it, a password reset,
  // or a mailbox at that address that logs in); a Google or Microsoft sign-in into an unverified
  // account takes it over (docs/decisions/056-proven-addresses-and-takeover.md).
  await db.schema
    .alterTable('users')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Accounts made by a provider's sign-in, and those with a mailbox connected at their own address,
  // are proven already.
  await sql`UPDATE users SET email_verified = 1 WHERE password_hash IS NULL
    OR EXISTS (SELECT 1 FROM mailboxes m WHERE m.user_id = users.id AND m.email = users.email)`.execute(db);
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
}
