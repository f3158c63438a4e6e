import type { Selectable } from 'kysely';
import type { Db } from '#server/db/index.js';
import type { PasskeysTable } from '#server/db/schema.js';

// SQL of account security: the second factor (TOTP secret, recovery codes, sign-ins waiting for a code),
// passkeys and their challenges, and the sessions as their owner sees them. Explicit columns only.

export interface StoredPasskey {
  id: string;
  userId: string;
  publicKey: string;
  counter: number;
  transports: string[] | undefined;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface StoredSession {
  /** The stored id (sha256 of the cookie's token). */
  id: string;
  createdAt: number;
  lastSeenAt: number | null;
  userAgent: string | null;
}

const parseTransports = (json: string | null): string[] | undefined => {
  if (!json) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : undefined;
  } catch {
    return undefined;
  }
};

export function createSecurityRepository(db: Db) {
  return {
    async totpState(
      userId: string,
    ): Promise<{ secret: string | null; pending: string | null; lastStep: number | null } | undefined> {
      const row = await db
        .selectFrom('users')
        .select(['totp_secret', 'totp_pending_secret', 'totp_last_step'])
        .where('id', '=', userId)
        .executeTakeFirst();
      return (
        row && {
          secret: row.totp_secret,
          pending: row.totp_pending_secret,
          lastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
        }
      );
    },

    async setPendingTotp(userId: string, sealed: string): Promise<void> {
      await db.updateTable('users').set({ totp_pending_secret: sealed }).where('id', '=', userId).execute();
    },

    /** The pending secret becomes the account's, with new recovery codes (the old ones end), at once. */
    async enableTotp(userId: string, sealed: string, step: number, codeHashes: string[]): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const set = await trx
          .updateTable('users')
          .set({ totp_secret: sealed, totp_pending_secret: null, totp_last_step: step })
          .where('id', '=', userId)
          .where('totp_pending_secret', '=', sealed)
          .executeTakeFirst();
        if (Number(set.numUpdatedRows) !== 1) return false;
        await trx.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
        await trx
          .insertInto('totp_recovery_codes')
          .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
          .execute();
        return true;
      });
    },

    async disableTotp(userId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null })
          .where('id', '=', userId)
          .execute();
        await trx.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
        await trx.deleteFrom('signin_challenges').where('user_id', '=', userId).execute();
      });
    },

    /** Takes a TOTP time step, in one statement: false when it (or a later one) was used before (replay). */
    async acceptTotpStep(userId: string, step: number): Promise<boolean> {
      const taken = await db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', userId)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(taken.numUpdatedRows) === 1;
    },

    /** Spends a recovery code, in one statement: false for an unknown or spent one. */
    async spendRecoveryCode(userId: string, codeHash: string, at: number): Promise<boolean> {
      const spent = await db
        .updateTable('totp_recovery_codes')
        .set({ used_at: at })
        .where('user_id', '=', userId)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(spent.numUpdatedRows) === 1;
    },

    async recoveryCodesLeft(userId: string): Promise<number> {
      const row = await db
        .selectFrom('totp_recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async insertSigninChallenge(c: { id: string; userId: string; now: number; expiresAt: number }) {
      await db
        .insertInto('signin_challenges')
        .values({ id: c.id, user_id: c.userId, created_at: c.now, expires_at: c.expiresAt })
        .execute();
    },

    async signinChallengeUser(id: string, now: number): Promise<string | undefined> {
      await db.deleteFrom('signin_challenges').where('expires_at', '<=', now).execute();
      const row = await db
        .selectFrom('signin_challenges')
        .select('user_id')
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.user_id;
    },

    /** Spends a sign-in's second step: false when another request spent it first. */
    async spendSigninChallenge(id: string): Promise<boolean> {
      const gone = await db.deleteFrom('signin_challenges').where('id', '=', id).executeTakeFirst();
      return Number(gone.numDeletedRows) === 1;
    },

    async insertPasskey(p: Omit<StoredPasskey, 'lastUsedAt'>): Promise<void> {
      await db
        .insertInto('passkeys')
        .values({
          id: p.id,
          user_id: p.userId,
          public_key: p.publicKey,
          counter: p.counter,
          transports: p.transports ? JSON.stringify(p.transports) : null,
          name: p.name,
          created_at: p.createdAt,
          last_used_at: null,
        })
        .execute();
    },

    async passkeysOf(userId: string): Promise<StoredPasskey[]> {
      const rows = await db
        .selectFrom('passkeys')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();
      return rows.map(toPasskey);
    },

    async passkeyById(id: string): Promise<StoredPasskey | undefined> {
      const row = await db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toPasskey(row);
    },

    /** Records a use and the authenticator's new signature counter. */
    async recordPasskeyUse(id: string, counter: number, at: number): Promise<void> {
      await db.updateTable('passkeys').set({ counter, last_used_at: at }).where('id', '=', id).execute();
    },

    async deletePasskey(userId: string, id: string): Promise<boolean> {
      const gone = await db
        .deleteFrom('passkeys')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(gone.numDeletedRows) === 1;
    },

    async insertWebauthnChallenge(c: {
      id: string;
      userId: string | null;
      challenge: string;
      kind: 'registration' | 'authentication';
      expiresAt: number;
    }): Promise<void> {
      await db
        .insertInto('webauthn_challenges')
        .values({
          id: c.id,
          user_id: c.userId,
          challenge: c.challenge,
          kind: c.kind,
          expires_at: c.expiresAt,
        })
        .execute();
    },

    /** Spends a challenge (single use), answering it while it is alive and of `kind`. */
    async takeWebauthnChallenge(
      id: string,
      kind: 'registration' | 'authentication',
      now: number,
    ): Promise<{ challenge: string; userId: string | null } | undefined> {
      await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
      const row = await db
        .deleteFrom('webauthn_challenges')
        .where('id', '=', id)
        .where('kind', '=', kind)
        .returning(['challenge', 'user_id'])
        .executeTakeFirst();
      return row && { challenge: row.challenge, userId: row.user_id };
    },

    /**
     * Replaces the password the user just proved (`proven`: the stored hash it was checked against); false
     * when it changed in the meantime (two changes at once: one wins). The address stays as proven as it
     * was: knowing the password proves nothing of the mailbox.
     */
    async replacePasswordHash(userId: string, proven: string, next: string): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ password_hash: next })
        .where('id', '=', userId)
        .where('password_hash', '=', proven)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async sessionsOf(userId: string, now: number): Promise<StoredSession[]> {
      const rows = await db
        .selectFrom('sessions')
        .select(['id', 'created_at', 'last_seen_at', 'user_agent'])
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        createdAt: Number(r.created_at),
        lastSeenAt: r.last_seen_at === null ? null : Number(r.last_seen_at),
        userAgent: r.user_agent,
      }));
    },
  };
}

function toPasskey(row: Selectable<PasskeysTable>): StoredPasskey {
  return {
    id: row.id,
    userId: row.user_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: parseTransports(row.transports),
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

export type SecurityRepository = ReturnType<typeof createSecurityRepository>;
