import { type RawBuilder, sql } from 'kysely';
import type { Db } from '#server/db/index.js';

// SQL of the limits on accounts: the backoff of guessed passwords and codes (signin_failures), and the
// per-address budget of mails sent about an account (account_mails). Each reservation is one statement.

export function createAccountLimitsRepository(db: Db) {
  return {
    /**
     * Reserves one password check of an address before the password is looked at, in one statement, so
     * concurrent attempts cannot all pass a check made before any of them was counted: counts it as a
     * failure (a success clears the row afterwards), and sets the lock in the same write when this attempt
     * reaches the free failures. Answers false, counting nothing, while the address is locked.
     * `waits`: how long the address waits after at least `failures` failures, most failures first.
     */
    async reserveSigninAttempt(
      key: string,
      at: number,
      windowMs: number,
      waits: readonly { failures: number; ms: number }[],
    ): Promise<boolean> {
      // Times cast to bigint: PostgreSQL would type a bare parameter in a CASE as integer (too small).
      const time = (ms: number) => sql<number>`cast(${ms} as bigint)`;
      const next = sql<number>`case when signin_failures.last_at > ${time(at - windowMs)} then signin_failures.failures + 1 else 1 end`;
      const wait = (n: RawBuilder<number>) =>
        waits.length === 0
          ? sql<number>`0`
          : sql<number>`case ${sql.join(
              waits.map((w) => sql`when ${n} >= ${w.failures} then ${time(at + w.ms)}`),
              sql` `,
            )} else ${time(0)} end`;
      const first = waits.find((w) => w.failures <= 1);
      const row = await db
        .insertInto('signin_failures')
        .values({ key, failures: 1, last_at: at, locked_until: first ? at + first.ms : 0 })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({ failures: next, last_at: at, locked_until: wait(next) })
            .where('signin_failures.locked_until', '<=', at),
        )
        .returning('failures')
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Takes one mail of an address's budget when fewer than `max` went out in the window, in one statement
     * (the count and the insert together). Every row older than the window goes first.
     */
    async reserveAccountMail(
      key: string,
      kind: 'notice' | 'reset',
      at: number,
      windowMs: number,
      max: number,
    ): Promise<boolean> {
      // Rows older than the window are of no use: none outlives it (they name an address, if only by hash).
      await db
        .deleteFrom('account_mails')
        .where('sent_at', '<=', at - windowMs)
        .execute();
      // Parameters cast: PostgreSQL cannot type a bare parameter in a select list.
      const result = await sql`insert into account_mails (key, kind, sent_at)
        select cast(${key} as text), cast(${kind} as text), cast(${at} as bigint)
        where (select count(*) from account_mails
               where key = ${key} and kind = ${kind} and sent_at > ${at - windowMs}) < ${max}`.execute(db);
      return Number(result.numAffectedRows ?? 0) === 1;
    },

    /** Gives back a mail of the budget that could not be sent. */
    async releaseAccountMail(key: string, kind: 'notice' | 'reset', at: number): Promise<void> {
      await db
        .deleteFrom('account_mails')
        .where('key', '=', key)
        .where('kind', '=', kind)
        .where('sent_at', '=', at)
        .execute();
    },

    async clearSigninFailures(key: string): Promise<void> {
      await db.deleteFrom('signin_failures').where('key', '=', key).execute();
    },
  };
}
