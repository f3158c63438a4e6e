import { randomUUID } from 'node:crypto';
import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import type { Database, Db } from '#server/db/index.js';
import { insertRows, type PreparedQueries, preparedQueries } from '#server/db/prepared.js';
import type { MailboxProvider, MessagesTable } from '#server/db/schema.js';
import { addToSenderCounts, RECENT_WINDOW_MS, recountSenders } from '#server/db/sender-counts.js';
import type { ReadStateChange, SyncState } from '#server/mail/provider.js';
import { brandOf } from '../subscriptions/brand.js';
import { listSenderSql, type SenderTally } from './aggregate.js';

// SQL of a scan's batches (scans/batch.ts commitBatch): which messages were counted before, and a tallied
// batch written with the checkpoint after it in one transaction, so a scan killed between batches resumes
// with nothing lost and nothing counted twice. writeBatch runs its steps in order, each a function below:
// the checkpoint (holdCheckpoint), read states (applyReadStates), the ids counted (countFirstTime),
// senders (upsertSenders), message references and the senders' counts (writeReferences). Senders are
// written with one multi-row upsert per chunk (not one statement per sender): on PostgreSQL every
// statement is a round trip.

/** A batch as the scan hands it to be written (scans/batch.ts). */
export interface NewBatch {
  /** Provider ids of the messages counted for the first time. */
  counted: readonly string[];
  /** Those messages tallied by sender. */
  tallies: readonly SenderTally[];
  /** Read-state changes of messages already referenced, the last of an id winning. */
  readStates: ReadonlyArray<ReadStateChange>;
  /** The adapter's checkpoint after the batch. */
  state: SyncState;
}

export interface BatchResult {
  /** Ids of senders that became subscriptions with this batch (for the live event). A sender can also
   *  stop being one (see IS_SUBSCRIPTION); the screens learn that at their next load. */
  newSubscriptionIds: string[];
}

/**
 * What a scan or check holds of its mailbox: the provider whose adapter runs, and the checkpoint as last
 * stored. Its batches and its end are written only while the row still has both: an address connected again
 * through another provider (mailboxes upsertOAuth starts it over), or removed, is no longer the run's.
 */
export interface ScanHold {
  provider: MailboxProvider;
  checkpoint: string | null;
}

/** The run's mailbox was taken over or removed under it (see ScanHold): nothing of the run is written. */
export class ScanSupersededError extends Error {}

/** The mailbox's row is still the run's (see ScanHold). */
export const stillHeld = (eb: ExpressionBuilder<Database, 'mailboxes'>, hold: ScanHold) =>
  eb.and([
    eb('provider', '=', hold.provider),
    hold.checkpoint === null ? eb('sync_state', 'is', null) : eb('sync_state', '=', hold.checkpoint),
  ]);

const CHUNK = 200;

// Columns of the existing row win unless the batch brings something newer (ON CONFLICT … DO UPDATE;
// `excluded` is the row the batch tried to insert). Unknown dates sort before every known one.
const MESSAGE_NEWER = 'coalesce(excluded.last_message_at, -9e15) > coalesce(senders.last_message_at, -9e15)';
const LINKS_NEWER =
  'excluded.unsubscribe_seen_at is not null and (senders.unsubscribe_seen_at is null or excluded.unsubscribe_seen_at > senders.unsubscribe_seen_at)';
const takeIfNewer = <T>(guard: string, column: string) =>
  sql.raw<T>(`case when ${guard} then excluded.${column} else senders.${column} end`);
// The detection rule (aggregate.ts isListSender, as listSenderSql) over the running totals, which the
// SET expressions of an upsert see as `senders.x + excluded.x` (every expression reads the row as it
// was). A sender the user has acted on (kept, unsubscribed or blocked) stays listed: the screens and the
// block rule refer to it. An untouched one whose single list message is now outnumbered by personal mail
// is unlisted.
const TOTAL = 'senders.message_count + excluded.message_count';
const LIST_TOTAL = 'senders.list_message_count + excluded.list_message_count';
const IS_SUBSCRIPTION = sql.raw<number>(
  `case when ${listSenderSql(TOTAL, LIST_TOTAL)} then 1 ` +
    `when senders.is_subscription = 1 and senders.category <> 'uncategorized' then 1 else 0 end`,
);
const eitherFlag = (column: string) =>
  sql.raw<number>(`case when excluded.${column} = 1 then 1 else senders.${column} end`);
// The list a poster came through: the batch's List-Post address when it has one and the row has none or
// the batch brings newer mail. A scan walks newest first, so its first batch with the sender sets it and
// older batches fill it only while it is empty; a check's batches are newer than what is stored.
const VIA = sql.raw<string | null>(
  `case when excluded.via is not null and (senders.via is null or ${MESSAGE_NEWER}) then excluded.via else senders.via end`,
);

// The List-Id of the newest list mail, under the same rule as VIA; the brand follows the List-Id it was
// computed with (brandOf at write time), and a row without a List-Id keeps its address's brand.
const LIST_ID_NEWER = `excluded.list_id is not null and (senders.list_id is null or ${MESSAGE_NEWER})`;

export { RECENT_WINDOW_MS };

/** A batch's mailbox, as writeBatch is given it. */
interface BatchMailbox {
  id: string;
  userId: string;
  hold?: ScanHold;
}

/** A sender as the upsert left it: its id, and whether it is a subscription now. */
type StoredSender = { id: string; isSubscription: number };

export function createBatchRepository(db: Db) {
  const prepared = preparedQueries(db);
  return {
    /** Which of these provider ids the mailbox has counted before (a resumed batch, a folder read afresh). */
    async countedAlready(mailboxId: string, providerIds: readonly string[]): Promise<Set<string>> {
      const counted = new Set<string>();
      for (let i = 0; i < providerIds.length; i += 500) {
        const rows = await db
          .selectFrom('scanned_messages')
          .select('provider_id')
          .where('mailbox_id', '=', mailboxId)
          .where('provider_id', 'in', providerIds.slice(i, i + 500))
          .execute();
        for (const r of rows) counted.add(r.provider_id);
      }
      return counted;
    },

    /**
     * Writes one batch in one transaction: its read-state changes, the ids of the messages it counts for
     * the first time, their tallies folded into senders and message references, and the checkpoint. The
     * ids must not have been counted yet (see countedAlready; one run at a time works on a mailbox): when
     * one was, the transaction is undone and nothing is counted twice.
     */
    async writeBatch(mailbox: BatchMailbox, batch: NewBatch, now: number): Promise<BatchResult> {
      const { hold } = mailbox;
      const checkpoint = JSON.stringify(batch.state);
      const newSubscriptionIds = await db.transaction().execute(async (trx) => {
        // The row first: a grant starting the mailbox over (upsertOAuth) waits for this batch, or has won.
        await holdCheckpoint(trx, mailbox, checkpoint);
        // Read states first: a message of this batch that also has a change gets its state from its own
        // fetch below, which is at least as recent.
        await applyReadStates(trx, mailbox.id, batch.readStates);
        await countFirstTime(prepared, trx, mailbox.id, batch.counted);
        const wasSubscription = await subscriptionsAmong(trx, mailbox.id, batch.tallies);
        const idOf = await upsertSenders(prepared, trx, mailbox, batch.tallies, now);
        const found = references(mailbox.id, batch.tallies, idOf, wasSubscription);
        await writeReferences(prepared, trx, mailbox.id, found.refs, now);
        return found.newSubscriptionIds;
      });
      if (hold) hold.checkpoint = checkpoint;
      return { newSubscriptionIds };
    },
  };
}

/** Stores the checkpoint after the batch; a run that no longer holds the mailbox is superseded. */
async function holdCheckpoint(trx: Db, mailbox: BatchMailbox, checkpoint: string): Promise<void> {
  const { hold } = mailbox;
  const held = await trx
    .updateTable('mailboxes')
    .set({ sync_state: checkpoint, last_error: null })
    .where('id', '=', mailbox.id)
    .$if(hold !== undefined, (qb) => qb.where((eb) => stillHeld(eb, hold!)))
    .executeTakeFirst();
  if (hold && Number(held.numUpdatedRows) === 0) throw new ScanSupersededError(mailbox.id);
}

/** Records the batch's ids as counted; one counted already (by another run) undoes the batch. */
async function countFirstTime(
  prepared: PreparedQueries,
  trx: Db,
  mailboxId: string,
  ids: readonly string[],
): Promise<void> {
  const counted = await insertRows(
    prepared,
    trx,
    'scanned_messages',
    ids.map((id) => ({ mailbox_id: mailboxId, provider_id: id })),
    512,
    (rows) =>
      trx
        .insertInto('scanned_messages')
        .values(rows)
        .onConflict((oc) => oc.columns(['mailbox_id', 'provider_id']).doNothing())
        .returning('provider_id'),
  );
  if (new Set(counted.rows.map((r) => r.provider_id)).size !== new Set(ids).size) {
    throw new Error(`Messages of mailbox ${mailboxId} were counted by another run during this batch`);
  }
}

/** Which of the batch's senders were subscriptions before it, to tell which ones it turns into one. */
async function subscriptionsAmong(
  trx: Db,
  mailboxId: string,
  list: readonly SenderTally[],
): Promise<Set<string>> {
  const wasSubscription = new Set<string>();
  for (let i = 0; i < list.length; i += 500) {
    const rows = await trx
      .selectFrom('senders')
      .select('address')
      .where('mailbox_id', '=', mailboxId)
      .where('is_subscription', '=', 1)
      .where(
        'address',
        'in',
        list.slice(i, i + 500).map((t) => t.address),
      )
      .execute();
    for (const r of rows) wasSubscription.add(r.address);
  }
  return wasSubscription;
}

/** Folds the tallies into the mailbox's senders (one upsert per chunk); answers each sender by address. */
async function upsertSenders(
  prepared: PreparedQueries,
  trx: Db,
  mailbox: BatchMailbox,
  list: readonly SenderTally[],
  now: number,
): Promise<Map<string, StoredSender>> {
  const idOf = new Map<string, StoredSender>();
  // Built once per chunk shape (insertRows): building the upsert of a batch's senders anew was most
  // of a daily check's commit.
  const upserted = await insertRows(
    prepared,
    trx,
    'senders',
    list.map((t) => ({
      id: randomUUID(),
      user_id: mailbox.userId,
      mailbox_id: mailbox.id,
      address: t.address,
      sender_name: t.name,
      message_count: t.count,
      list_message_count: t.listCount,
      last_message_at: t.lastMessageAt,
      is_subscription: t.isSubscription ? 1 : 0,
      list_signal: t.listSignal ? 1 : 0,
      one_click: t.unsubscribe?.oneClick ? 1 : 0,
      unsubscribe_http: JSON.stringify(t.unsubscribe?.http ?? []),
      unsubscribe_mailto: JSON.stringify(t.unsubscribe?.mailto ?? []),
      unsubscribe_seen_at: t.unsubscribe?.seenAt ?? null,
      via: t.via?.address ?? null,
      list_id: t.listId?.id ?? null,
      brand: brandOf(t.address, t.listId?.id ?? null),
      created_at: now,
      updated_at: now,
    })),
    CHUNK,
    (rows) =>
      trx
        .insertInto('senders')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['mailbox_id', 'address']).doUpdateSet({
            message_count: sql.raw<number>(TOTAL),
            list_message_count: sql.raw<number>(LIST_TOTAL),
            updated_at: sql<number>`excluded.updated_at`,
            last_message_at: takeIfNewer<number | null>(MESSAGE_NEWER, 'last_message_at'),
            sender_name: takeIfNewer<string>(MESSAGE_NEWER, 'sender_name'),
            is_subscription: IS_SUBSCRIPTION,
            list_signal: eitherFlag('list_signal'),
            one_click: takeIfNewer<number>(LINKS_NEWER, 'one_click'),
            unsubscribe_http: takeIfNewer<string>(LINKS_NEWER, 'unsubscribe_http'),
            unsubscribe_mailto: takeIfNewer<string>(LINKS_NEWER, 'unsubscribe_mailto'),
            unsubscribe_seen_at: takeIfNewer<number | null>(LINKS_NEWER, 'unsubscribe_seen_at'),
            via: VIA,
            list_id: takeIfNewer<string | null>(LIST_ID_NEWER, 'list_id'),
            brand: takeIfNewer<string>(LIST_ID_NEWER, 'brand'),
          }),
        )
        .returning(['id', 'address', 'is_subscription']),
  );
  for (const r of upserted.rows) idOf.set(r.address, { id: r.id, isSubscription: Number(r.is_subscription) });
  return idOf;
}

/**
 * The message references of the batch's senders that are subscriptions now (of other senders only the
 * count is kept), and which of those senders the batch turned into subscriptions.
 */
function references(
  mailboxId: string,
  list: readonly SenderTally[],
  idOf: ReadonlyMap<string, StoredSender>,
  wasSubscription: ReadonlySet<string>,
): { refs: MessageRef[]; newSubscriptionIds: string[] } {
  const newSubscriptionIds: string[] = [];
  const refs: MessageRef[] = [];
  for (const tally of list) {
    const row = idOf.get(tally.address);
    if (row?.isSubscription !== 1) continue;
    if (!wasSubscription.has(tally.address)) newSubscriptionIds.push(row.id);
    for (const m of tally.messages) {
      refs.push({
        mailbox_id: mailboxId,
        provider_id: m.id,
        sender_id: row.id,
        folder: m.folder,
        subject: m.subject.slice(0, 500),
        date: m.date,
        seen: m.seen,
      });
    }
  }
  return { refs, newSubscriptionIds };
}

/** A reference as a batch writes it (not gone: the product has moved nothing of a message it just counted). */
type MessageRef = Omit<Selectable<MessagesTable>, 'gone'>;

/** Writes the references and adds them to their senders' read and recent counts. */
async function writeReferences(
  prepared: PreparedQueries,
  trx: Db,
  mailboxId: string,
  refs: MessageRef[],
  now: number,
): Promise<void> {
  // The senders of this batch get their rates now, so the live event carries them: what the
  // references written here add to their counts (all of them, as a first-counted message has no
  // reference yet; no RETURNING needed). Recounting them from all their references instead read
  // every reference stored so far at every batch (quadratic in a scan); the whole mailbox is
  // recounted at the end of the run (refreshSenderStats), which also takes in flag changes of
  // references written before.
  const inserted = await insertRows(prepared, trx, 'messages', refs, 256, (rows) =>
    trx
      .insertInto('messages')
      .values(rows)
      .onConflict((oc) => oc.columns(['mailbox_id', 'provider_id']).doNothing()),
  );
  if (inserted.affected === refs.length) {
    const since = now - RECENT_WINDOW_MS;
    const added = new Map<string, { read: number; known: number; recent: number }>();
    for (const r of refs) {
      let sum = added.get(r.sender_id);
      if (!sum) {
        sum = { read: 0, known: 0, recent: 0 };
        added.set(r.sender_id, sum);
      }
      if (r.seen !== null) sum.known++;
      if (r.seen === 1) sum.read++;
      if (r.date !== null && r.date >= since) sum.recent++;
    }
    const sums = [...added];
    for (let i = 0; i < sums.length; i += 300) await addToSenderCounts(trx, sums.slice(i, i + 300));
  } else {
    // A reference of a message counted for the first time was there already (written by another
    // path): which ones were written is not known, so the mailbox is recounted instead.
    await recountSenders(trx, mailboxId, now - RECENT_WINDOW_MS);
  }
}

/**
 * Writes the read states of the references the flags name (ids the product does not keep match nothing),
 * the last change of an id winning; one UPDATE per state and chunk, rows already right left untouched.
 */
async function applyReadStates(
  db: Db,
  mailboxId: string,
  flags: ReadonlyArray<ReadStateChange>,
): Promise<void> {
  if (flags.length === 0) return;
  const last = new Map<string, boolean>();
  for (const f of flags) last.set(f.id, f.seen);
  for (const seen of [1, 0]) {
    const ids = [...last].filter(([, s]) => Number(s) === seen).map(([id]) => id);
    for (let i = 0; i < ids.length; i += 500) {
      await db
        .updateTable('messages')
        .set({ seen })
        .where('mailbox_id', '=', mailboxId)
        .where('provider_id', 'in', ids.slice(i, i + 500))
        .where((eb) => eb.or([eb('seen', 'is', null), eb('seen', '<>', seen)]))
        .execute();
    }
  }
}
