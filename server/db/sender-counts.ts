import { type RawBuilder, sql } from 'kysely';
import type { Db } from './index.js';

// The read and recent counts of senders (read_count, read_known, read_rank, recent_count), which the scans
// repository keeps up to date as batches add message references and after each scan or check.

/** "Messages a month" counts the mail of the 90 days before the scan or check (the API shows a third). */
export const RECENT_WINDOW_MS = 90 * 86_400_000;

/**
 * The sort key of "least read first" (senders.read_rank) from a read and a known count: read per mille,
 * 1001 while nothing is known, so the unknown come last. Integer division in both dialects.
 */
const readRank = (read: RawBuilder<unknown>, known: RawBuilder<unknown>) =>
  sql<number>`case when (${known}) = 0 then 1001 else (1000 * (${read})) / (${known}) end`;

/**
 * Adds references' read, known and 90-day counts to their senders (and their rank), in one UPDATE … FROM over a VALUES list (SQLite ≥ 3.33 and PostgreSQL; the casts
 * give PostgreSQL the VALUES' types).
 */
export async function addToSenderCounts(
  db: Db,
  sums: ReadonlyArray<[string, { read: number; known: number; recent: number }]>,
): Promise<void> {
  if (sums.length === 0) return;
  const values = sql.join(
    sums.map(
      ([id, n]) =>
        sql`(cast(${id} as text), cast(${n.read} as integer), cast(${n.known} as integer), cast(${n.recent} as integer))`,
    ),
  );
  await sql`
    with d (id, r, k, c) as (values ${values})
    update senders set
      read_count = senders.read_count + d.r,
      read_known = senders.read_known + d.k,
      read_rank = ${readRank(sql`senders.read_count + d.r`, sql`senders.read_known + d.k`)},
      recent_count = senders.recent_count + d.c
    from d
    where senders.id = d.id
  `.execute(db);
}

/**
 * Recounts the senders of the mailbox from their references in one set-based
 * UPDATE … FROM (SQLite ≥ 3.33 and PostgreSQL): read and known states, the rank (read per mille, 1001
 * while nothing is known, so "least read first" puts the unknown last) and the mail since `since` (epoch
 * ms). Rows whose numbers did not change are not written.
 */
export async function recountSenders(db: Db, mailboxId: string, since: number): Promise<void> {
  await sql`
    update senders set
      read_count = a.read_count,
      read_known = a.read_known,
      read_rank = ${readRank(sql`a.read_count`, sql`a.read_known`)},
      recent_count = a.recent_count
    from (
      select s.id as id,
        coalesce(sum(case when m.seen = 1 then 1 else 0 end), 0) as read_count,
        count(m.seen) as read_known,
        coalesce(sum(case when m.date >= ${since} then 1 else 0 end), 0) as recent_count
      from senders s
      left join messages m on m.sender_id = s.id
      where s.mailbox_id = ${mailboxId}
      group by s.id
    ) as a
    where senders.id = a.id
      and (senders.read_count <> a.read_count or senders.read_known <> a.read_known
        or senders.recent_count <> a.recent_count
        or senders.read_rank <> ${readRank(sql`a.read_count`, sql`a.read_known`)})
  `.execute(db);
}
