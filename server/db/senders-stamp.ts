import { sql } from 'kysely';
import type { Db } from './index.js';
import { preparedQueries } from './prepared.js';

/**
 * What changes when a user's senders may have: a scan's or check's upsert and every category change set a
 * sender's updated_at (the newest of them is one seek of senders_user_updated, migration 0020); senders are
 * deleted only with their mailbox (the mailboxes' count and newest). One statement, so one round trip.
 * What it misses (a write stamped with an older time than the newest, two writes in one millisecond) is
 * why its readers also bound how long they trust it (docs/decisions/083-insights.md).
 */
export function sendersStamp(db: Db) {
  const prepared = preparedQueries(db);
  return async (userId: string): Promise<string> => {
    const [row] = await prepared('senders stamp', { userId }, (v) =>
      db.selectNoFrom([
        sql<number | string | null>`(select max(updated_at) from senders where user_id = ${v.userId})`.as(
          'at',
        ),
        sql<number | string>`(select count(*) from mailboxes where user_id = ${v.userId})`.as('n'),
        sql<number | string | null>`(select max(created_at) from mailboxes where user_id = ${v.userId})`.as(
          'created',
        ),
      ]),
    );
    return `${row?.at ?? ''}:${row?.n ?? 0}:${row?.created ?? ''}`;
  };
}
