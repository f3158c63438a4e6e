import type { Db } from '#server/db/index.js';
import { preparedQueries } from '#server/db/prepared.js';
import { deleteMailboxContents } from '../mailboxes/repository.js';

// SQL of accounts: users, their sessions and password-reset tokens. Explicit columns only.

/** A user as accounts sees them. */
export interface User {
  id: string;
  email: string;
  /** null: an account made by signing in with Google or Microsoft (or whose password a takeover removed). */
  passwordHash: string | null;
  /** Whether the user proved the address is theirs (a link, a reset, a provider's sign-in, a mailbox). */
  emailVerified: boolean;
}

/** A password sign-in's failures for one address (the key is a hash of it). */
export interface SigninFailures {
  failures: number;
  lastAt: number;
  lockedUntil: number;
}

const userOf = (row: {
  id: string;
  email: string;
  password_hash: string | null;
  email_verified: number;
}): User => ({
  id: row.id,
  email: row.email,
  passwordHash: row.password_hash,
  emailVerified: row.email_verified === 1,
});

export function createAccountsRepository(db: Db) {
  const prepared = preparedQueries(db);
  return {
    async findUserByEmail(email: string): Promise<User | undefined> {
      const row = await db
        .selectFrom('users')
        .select(['id', 'email', 'password_hash', 'email_verified'])
        .where('email', '=', email)
        .executeTakeFirst();
      return row && userOf(row);
    },

    async findUserById(id: string): Promise<User | undefined> {
      const row = await db
        .selectFrom('users')
        .select(['id', 'email', 'password_hash', 'email_verified'])
        .where('id', '=', id)
        .executeTakeFirst();
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
    }): Promise<boolean> {
      const result = await db
        .insertInto('users')
        .values({
          id: user.id,
          email: user.email,
          password_hash: user.passwordHash,
          email_verified: user.emailVerified ? 1 : 0,
          created_at: user.now,
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
     * address goes, and every session, reset link and verification link of the account with it, in one
     * transaction. Answers false when the account was verified meanwhile (nothing changed).
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

    async signinFailures(key: string): Promise<SigninFailures | undefined> {
      const row = await db
        .selectFrom('signin_failures')
        .select(['failures', 'last_at', 'locked_until'])
        .where('key', '=', key)
        .executeTakeFirst();
      return row
        ? {
            failures: Number(row.failures),
            lastAt: Number(row.last_at),
            lockedUntil: Number(row.locked_until),
          }
        : undefined;
    },

    async saveSigninFailures(key: string, { failures, lastAt, lockedUntil }: SigninFailures): Promise<void> {
      await db
        .insertInto('signin_failures')
        .values({ key, failures, last_at: lastAt, locked_until: lockedUntil })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({ failures, last_at: lastAt, locked_until: lockedUntil }),
        )
        .execute();
    },

    async clearSigninFailures(key: string): Promise<void> {
      await db.deleteFrom('signin_failures').where('key', '=', key).execute();
    },

    async insertSession(session: {
      id: string;
      userId: string;
      now: number;
      expiresAt: number;
    }): Promise<void> {
      await db
        .insertInto('sessions')
        .values({
          id: session.id,
          user_id: session.userId,
          created_at: session.now,
          expires_at: session.expiresAt,
        })
        .execute();
    },

    async findSessionUser(
      sessionId: string,
      now: number,
    ): Promise<{ userId: string; email: string; reauthPending: boolean } | undefined> {
      // Every signed-in request asks: built once (server/db/prepared.ts). Whether a mailbox waits for a
      // new sign-in comes along (one probe of the user's few mailboxes), so the list, which must answer
      // 401 then, needs no round trip of its own to learn it.
      const [user] = await prepared('session user', { sessionId, now }, (v) =>
        db
          .selectFrom('sessions')
          .innerJoin('users', 'users.id', 'sessions.user_id')
          .select((eb) => [
            'users.id as userId',
            'users.email as email',
            eb
              .exists(
                eb
                  .selectFrom('mailboxes')
                  .select('mailboxes.id')
                  .whereRef('mailboxes.user_id', '=', 'users.id')
                  .where('mailboxes.status', '=', 'reauth'),
              )
              .as('reauth'),
          ])
          .where('sessions.id', '=', v.sessionId)
          .where('sessions.expires_at', '>', v.now),
      );
      return user && { userId: user.userId, email: user.email, reauthPending: Boolean(user.reauth) };
    },

    async deleteSession(sessionId: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
    },

    async deleteExpiredSessions(now: number): Promise<void> {
      await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
    },

    /** Ends every session of a user except the one given (if any). */
    async deleteOtherSessions(userId: string, keepSessionId: string | null): Promise<void> {
      let q = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (keepSessionId) q = q.where('id', '!=', keepSessionId);
      await q.execute();
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
