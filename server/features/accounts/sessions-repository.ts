import type { Db } from '#server/db/index.js';
import { preparedQueries } from '#server/db/prepared.js';

// SQL of sessions (the cookie's token is stored as its hash) and of the browsers each user signed in from.

export function createSessionsRepository(db: Db) {
  const prepared = preparedQueries(db);
  return {
    async insertSession(session: {
      id: string;
      userId: string;
      now: number;
      expiresAt: number;
      userAgent?: string | null;
      device?: string | null;
    }): Promise<void> {
      await db
        .insertInto('sessions')
        .values({
          id: session.id,
          user_id: session.userId,
          created_at: session.now,
          expires_at: session.expiresAt,
          last_seen_at: session.now,
          user_agent: session.userAgent ?? null,
          device: session.device ?? null,
        })
        .execute();
    },

    /** Records that a session was used (the caller asks at most every few minutes). */
    async touchSession(sessionId: string, at: number): Promise<void> {
      await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', sessionId).execute();
    },

    /** Records a browser the user signed in from; answers whether it was new to them. */
    async rememberDevice(userId: string, deviceHash: string, at: number): Promise<boolean> {
      const result = await db
        .insertInto('user_devices')
        .values({ user_id: userId, device_hash: deviceHash, first_seen_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'device_hash']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async findSessionUser(
      sessionId: string,
      now: number,
    ): Promise<
      { userId: string; email: string; reauthPending: boolean; lastSeenAt: number | null } | undefined
    > {
      // Every signed-in request asks: built once (server/db/prepared.ts). Whether a mailbox waits for a
      // new sign-in comes along (one probe of the user's few mailboxes), so the list, which must answer
      // 401 then, needs no round trip of its own to learn it.
      const [user] = await prepared('session user', { sessionId, now }, (v) =>
        db
          .selectFrom('sessions')
          .innerJoin('users', 'users.id', 'sessions.user_id')
          .select((eb) => [
            'users.id as userId',
            eb.fn.coalesce('users.duplicate_signup_email', 'users.email').as('email'),
            'sessions.last_seen_at as lastSeenAt',
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
      return (
        user && {
          userId: user.userId,
          email: user.email,
          reauthPending: Boolean(user.reauth),
          lastSeenAt: user.lastSeenAt === null ? null : Number(user.lastSeenAt),
        }
      );
    },

    async countSessions(userId: string): Promise<number> {
      const row = await db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
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
  };
}
