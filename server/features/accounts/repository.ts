import type { Db } from '#server/db/index.js';
import { deleteMailboxContents } from '../mailboxes/repository.js';
import { createAccountLimitsRepository } from './limits-repository.js';
import { createSessionsRepository } from './sessions-repository.js';

// SQL of accounts: users, their password-reset and verification tokens; sessions and the limits (sign-in
// backoff, mail budget) are in files of their own, merged here. Explicit columns only.

/** A user as accounts sees them. */
export interface User {
  id: string;
  /** The address typed at sign-up for a stand-in account (duplicateSignup), else the account's. */
  email: string;
  /** null: an account made by signing in with Google or Microsoft (or whose password a takeover removed). */
  passwordHash: string | null;
  /** Whether the user proved the address is theirs (a link, a reset, a provider's sign-in, a mailbox). */
  emailVerified: boolean;
  /**
   * The stand-in account a sign-up with an address that has an account got: its own, empty and isolated,
   * so that session sees what a new account's would (docs/decisions/057-sign-up-does-not-reveal-accounts.md).
   */
  duplicateSignup: boolean;
  /** Two-step sign-in is on. */
  totpOn: boolean;
}

const USER_COLUMNS = [
  'id',
  'email',
  'password_hash',
  'email_verified',
  'duplicate_signup_email',
  'totp_secret',
] as const;

const userOf = (row: {
  id: string;
  email: string;
  password_hash: string | null;
  email_verified: number;
  duplicate_signup_email: string | null;
  totp_secret: string | null;
}): User => ({
  id: row.id,
  email: row.duplicate_signup_email ?? row.email,
  passwordHash: row.password_hash,
  emailVerified: row.email_verified === 1,
  duplicateSignup: row.duplicate_signup_email !== null,
  totpOn: row.totp_secret !== null,
});

export function createAccountsRepository(db: Db) {
  return {
    ...createAccountLimitsRepository(db),
    ...createSessionsRepository(db),
    async findUserByEmail(email: string): Promise<User | undefined> {
      const row = await db
        .selectFrom('users')
        .select(USER_COLUMNS)
        .where('email', '=', email)
        .executeTakeFirst();
      return row && userOf(row);
    },

    async findUserById(id: string): Promise<User | undefined> {
      const row = await db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
      return row && userOf(row);
    },

    /**
     * Inserts a user; answers false when the email is already taken (unique constraint). No password hash:
     * an account created by signing in with Google or Microsoft.
     */
    async insertUser(user: {
      id: string;
      email: string;
      passwordHash: string | null;
      emailVerified: boolean;
      now: number;
      /** A stand-in account: `email` is its placeholder, this the address typed. */
      duplicateSignupEmail?: string;
    }): Promise<boolean> {
      const result = await db
        .insertInto('users')
        .values({
          id: user.id,
          email: user.email,
          password_hash: user.passwordHash,
          email_verified: user.emailVerified ? 1 : 0,
          created_at: user.now,
          duplicate_signup_email: user.duplicateSignupEmail ?? null,
        })
        .onConflict((oc) => oc.column('email').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** A new password from a reset link, which also proved the address. */
    async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, email_verified: 1 })
        .where('id', '=', userId)
        .execute();
    },

    /** Marks the address proven when `email` is the user's own (a mailbox at it logged in). */
    async markVerifiedIfOwnAddress(userId: string, email: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ email_verified: 1 })
        .where('id', '=', userId)
        .where('email', '=', email)
        .where('email_verified', '=', 0)
        .execute();
    },

    /**
     * A provider's sign-in into an unverified account: the password someone set without proving the
     * address goes, and every session, reset link, verification link, second factor and passkey of the
     * account with it, in one transaction. Answers false when the account was verified meanwhile (nothing changed).
     */
    async takeOverUnverified(userId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const taken = await trx
          .updateTable('users')
          .set({ password_hash: null, email_verified: 1 })
          .where('id', '=', userId)
          .where('email_verified', '=', 0)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) !== 1) return false;
        // Whatever second factor or passkey the account's maker set up goes too: the owner signs in with
        // their provider alone, and the maker cannot come back with a passkey.
        await trx
          .updateTable('users')
          .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null })
          .where('id', '=', userId)
          .execute();
        for (const table of [
          'totp_recovery_codes',
          'signin_challenges',
          'passkeys',
          'webauthn_challenges',
          'user_devices',
        ] as const) {
          await trx.deleteFrom(table).where('user_id', '=', userId).execute();
        }
        await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
        await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
        await trx.deleteFrom('email_verifications').where('user_id', '=', userId).execute();
        return true;
      });
    },

    async insertEmailVerification(link: {
      tokenHash: string;
      userId: string;
      now: number;
      expiresAt: number;
    }) {
      await db
        .insertInto('email_verifications')
        .values({
          token_hash: link.tokenHash,
          user_id: link.userId,
          created_at: link.now,
          expires_at: link.expiresAt,
        })
        .execute();
    },

    async latestEmailVerificationAt(userId: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('email_verifications')
        .select((eb) => eb.fn.max('created_at').as('at'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.at == null ? undefined : Number(row.at);
    },

    async deleteEmailVerification(tokenHash: string): Promise<void> {
      await db.deleteFrom('email_verifications').where('token_hash', '=', tokenHash).execute();
    },

    /** The user a live verification link was mailed for, without spending it. */
    async emailVerificationUser(tokenHash: string, now: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('email_verifications')
        .select('user_id')
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row?.user_id;
    },

    /**
     * Spends a verification link and marks its user's address proven, in one transaction: the user's
     * other links end with it. Answers the user, or undefined for an unknown, used or expired link.
     */
    async consumeEmailVerification(tokenHash: string, now: number): Promise<string | undefined> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .deleteFrom('email_verifications')
          .where('token_hash', '=', tokenHash)
          .where('expires_at', '>', now)
          .returning('user_id')
          .executeTakeFirst();
        if (!row) return undefined;
        await trx.deleteFrom('email_verifications').where('user_id', '=', row.user_id).execute();
        await trx.updateTable('users').set({ email_verified: 1 }).where('id', '=', row.user_id).execute();
        return row.user_id;
      });
    },

    /**
     * Stand-in accounts of duplicate sign-ups that no session opens any more, made before `madeBefore` (one
     * made a moment ago may not have its session yet).
     */
    async unusedStandIns(madeBefore: number): Promise<string[]> {
      const rows = await db
        .selectFrom('users')
        .select('id')
        .where('duplicate_signup_email', 'is not', null)
        .where('created_at', '<', madeBefore)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('sessions').select('sessions.id').whereRef('sessions.user_id', '=', 'users.id'),
            ),
          ),
        )
        .limit(100)
        .execute();
      return rows.map((r) => r.id);
    },

    async insertPasswordReset(reset: { tokenHash: string; userId: string; now: number; expiresAt: number }) {
      await db
        .insertInto('password_resets')
        .values({
          token_hash: reset.tokenHash,
          user_id: reset.userId,
          created_at: reset.now,
          expires_at: reset.expiresAt,
          used_at: null,
        })
        .execute();
    },

    /** When the newest reset token of a user was made (used or not), if any. */
    async latestPasswordResetAt(userId: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('password_resets')
        .select((eb) => eb.fn.max('created_at').as('at'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.at == null ? undefined : Number(row.at);
    },

    /** The user of a live, unused reset link, without spending it. */
    async passwordResetUser(tokenHash: string, now: number): Promise<User | undefined> {
      const row = await db
        .selectFrom('password_resets')
        .innerJoin('users', 'users.id', 'password_resets.user_id')
        .select(USER_COLUMNS.map((c) => `users.${c}` as const))
        .where('password_resets.token_hash', '=', tokenHash)
        .where('password_resets.used_at', 'is', null)
        .where('password_resets.expires_at', '>', now)
        .executeTakeFirst();
      return row && userOf(row);
    },

    async deletePasswordReset(tokenHash: string): Promise<void> {
      await db.deleteFrom('password_resets').where('token_hash', '=', tokenHash).execute();
    },

    /**
     * Marks a reset token used and answers its user, in one statement, so two concurrent
     * submissions of the same link cannot both succeed. In the same transaction every other
     * unused token of that user is ended too: an older link still in a mailbox opens nothing.
     */
    async consumePasswordReset(tokenHash: string, now: number): Promise<string | undefined> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('password_resets')
          .set({ used_at: now })
          .where('token_hash', '=', tokenHash)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .returning('user_id')
          .executeTakeFirst();
        if (!row) return undefined;
        await trx
          .updateTable('password_resets')
          .set({ used_at: now })
          .where('user_id', '=', row.user_id)
          .where('used_at', 'is', null)
          .execute();
        return row.user_id;
      });
    },

    async countMailboxes(userId: string): Promise<number> {
      const row = await db
        .selectFrom('mailboxes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Removes the user and every row that belongs to them, in one transaction. */
    async deleteUser(userId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
        await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
        await trx.deleteFrom('email_verifications').where('user_id', '=', userId).execute();
        await trx.deleteFrom('billing_accounts').where('user_id', '=', userId).execute();
        await deleteMailboxContents(
          trx,
          trx.selectFrom('mailboxes').select('id').where('user_id', '=', userId),
        );
        await trx.deleteFrom('users').where('id', '=', userId).execute();
      });
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
