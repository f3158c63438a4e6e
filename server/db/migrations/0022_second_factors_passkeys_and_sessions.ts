import type { Kysely } from 'kysely';

// Second factors, passkeys and the account's sessions
// (docs/decisions/091-second-factors-passkeys-and-sessions.md):
// - `users.totp_secret` (sealed, on once confirmed), `totp_pending_secret` (sealed, between setup and enable),
//   `totp_last_step` (the last time step a code was accepted for, so a code works once);
// - `totp_recovery_codes`: sha256 of each of the ten codes, spent once;
// - `signin_challenges`: a sign-in whose password (or Google or Microsoft) passed and that waits for the
//   second factor, by sha256 of the token in the browser's cookie;
// - `passkeys`: WebAuthn credentials (public keys only) and `webauthn_challenges`, single-use, by sha256 of
//   the token in the browser's cookie;
// - `sessions.user_agent`, `last_seen_at`, `device`; `user_devices`: the browsers (sha256 of a long-lived
//   cookie) each user signed in from, so a new one is told to the owner.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_pending_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
  await db.schema
    .createTable('totp_recovery_codes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('totp_recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
  await db.schema
    .createTable('signin_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signin_challenges_user').on('signin_challenges').column('user_id').execute();
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'bigint').execute();
  await db.schema.alterTable('sessions').addColumn('device', 'text').execute();
  await db.schema
    .createTable('user_devices')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_hash', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_devices_pk', ['user_id', 'device_hash'])
    .execute();
}
