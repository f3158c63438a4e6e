import { randomUUID } from 'node:crypto';
import type { SubscriptionCategory } from '#contract/api.js';
import type { Db } from '#server/db/index.js';

// Senders written straight into the database, for tests of what is read back (the list's orders and
// pages, the export, the weekly report) whose subject is not how a scan finds them. One place knows the
// columns, their defaults and the read rank the scans keep (server/db/sender-counts.ts).

export interface SenderSeed {
  /** A random UUID unless given (give one when the test orders by id). */
  id?: string;
  userId: string;
  mailboxId: string;
  address: string;
  /** Display name; '' unless given. */
  name?: string;
  messageCount?: number;
  /** Messages with list evidence (List-Unsubscribe, List-Id, Precedence); 0 unless given, as the column. */
  listMessageCount?: number;
  lastMessageAt?: number | null;
  /** false: a personal sender, not a subscription. */
  subscription?: boolean;
  category?: SubscriptionCategory;
  unsubscribedAt?: number | null;
  stillSending?: boolean;
  /** Messages read, of those whose read state is known; the read rank follows (1001 while none is known). */
  read?: { count: number; known: number };
  /** Messages of the last 90 days (messagesPerMonth is a third of it). */
  recentCount?: number;
  via?: string | null;
  /** Date.now() unless given; updatedAt is createdAt unless given. */
  createdAt?: number;
  updatedAt?: number;
}

/** "Least read first"'s key, as the scans write it: read per mille, 1001 while nothing is known. */
export function readRank(read: { count: number; known: number } | undefined): number {
  return read && read.known > 0 ? Math.floor((1000 * read.count) / read.known) : 1001;
}

function row(seed: SenderSeed) {
  const createdAt = seed.createdAt ?? Date.now();
  return {
    id: seed.id ?? randomUUID(),
    user_id: seed.userId,
    mailbox_id: seed.mailboxId,
    address: seed.address,
    sender_name: seed.name ?? '',
    message_count: seed.messageCount ?? 0,
    list_message_count: seed.listMessageCount ?? 0,
    last_message_at: seed.lastMessageAt ?? null,
    is_subscription: seed.subscription === false ? 0 : 1,
    category: seed.category ?? 'uncategorized',
    unsubscribed_at: seed.unsubscribedAt ?? null,
    still_sending: seed.stillSending ? 1 : 0,
    read_count: seed.read?.count ?? 0,
    read_known: seed.read?.known ?? 0,
    read_rank: readRank(seed.read),
    recent_count: seed.recentCount ?? 0,
    via: seed.via ?? null,
    created_at: createdAt,
    updated_at: seed.updatedAt ?? createdAt,
  };
}

/** One sender of `seed.userId`'s mailbox `seed.mailboxId`; its id. */
export async function seedSender(db: Db, seed: SenderSeed): Promise<string> {
  const values = row(seed);
  await db.insertInto('senders').values(values).execute();
  return values.id;
}

/** Many senders, written in batches (within both databases' limits on a statement's parameters); their ids. */
export async function seedSenders(db: Db, seeds: SenderSeed[]): Promise<string[]> {
  const rows = seeds.map(row);
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('senders')
      .values(rows.slice(i, i + 200))
      .execute();
  }
  return rows.map((r) => r.id);
}
