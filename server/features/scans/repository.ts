import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Sender } from '../../mail/headers/detect.js';
import type { MessageHeaders, SyncState } from '../../mail/provider.js';
import { MAILBOX_CREDENTIALS } from '../mailboxes/repository.js';
import { tallyBatch } from './aggregate.js';

// SQL of scans: senders, message references, the mailbox's checkpoint and which mailboxes are due. A batch's tallies and
// the checkpoint after it are written in one transaction, so a scan killed between batches
// resumes with nothing lost and nothing counted twice. Senders are written with one multi-row
// upsert per chunk (not one statement per sender): on PostgreSQL every statement is a round trip.

export interface BatchResult {
  /** Ids of senders that became subscriptions with this batch (for the live event). A sender can also
   *  stop being one (see IS_SUBSCRIPTION); the screens learn that at their next load. */
  newSubscriptionIds: string[];
}

const CHUNK = 200;

// Columns of the existing row win unless the batch brings something newer (ON CONFLICT … DO UPDATE;
// `excluded` is the row the batch tried to insert). Unknown dates sort before every known one.
const MESSAGE_NEWER = 'coalesce(excluded.last_message_at, -9e15) > coalesce(senders.last_message_at, -9e15)';
const LINKS_NEWER =
  'excluded.unsubscribe_seen_at is not null and (senders.unsubscribe_seen_at is null or excluded.unsubscribe_seen_at > senders.unsubscribe_seen_at)';
const takeIfNewer = <T>(guard: string, column: string) =>
  sql.raw<T>(`case when ${guard} then excluded.${column} else senders.${column} end`);
// The detection rule (aggregate.ts isListSender) over the running totals, which the SET expressions of
// an upsert see as `senders.x + excluded.x` (every expression reads the row as it was). A sender the
// user has acted on (kept, unsubscribed or blocked) stays listed: the screens and the block rule refer
// to it. An untouched one whose single list message is now outnumbered by personal mail is unlisted.
const TOTAL = 'senders.message_count + excluded.message_count';
const LIST_TOTAL = 'senders.list_message_count + excluded.list_message_count';
const IS_SUBSCRIPTION = sql.raw<number>(
  `case when ${LIST_TOTAL} > 0 and (${LIST_TOTAL} = ${TOTAL} or ${LIST_TOTAL} >= 2) then 1 ` +
    `when senders.is_subscription = 1 and senders.category <> 'uncategorized' then 1 else 0 end`,
);
const eitherFlag = (column: string) =>
  sql.raw<number>(`case when excluded.${column} = 1 then 1 else senders.${column} end`);

export function createScansRepository(db: Db) {
  return {
    /**
     * Counts the batch's messages not counted before (by provider id), folds them into senders and
     * message references, and stores the checkpoint, in one transaction.
     */
    async commitBatch(
      mailbox: { id: string; userId: string },
      messages: ReadonlyArray<MessageHeaders>,
      state: SyncState,
      now: number,
      fromCache?: Map<string, Sender | null>,
    ): Promise<BatchResult> {
      const newSubscriptionIds: string[] = [];
      await db.transaction().execute(async (trx) => {
        const fresh = new Set<string>();
        for (let i = 0; i < messages.length; i += 1000) {
          const inserted = await trx
            .insertInto('scanned_messages')
            .values(messages.slice(i, i + 1000).map((m) => ({ mailbox_id: mailbox.id, provider_id: m.id })))
            .onConflict((oc) => oc.columns(['mailbox_id', 'provider_id']).doNothing())
            .returning('provider_id')
            .execute();
          for (const r of inserted) fresh.add(r.provider_id);
        }
        const tallies = tallyBatch(
          messages.filter((m) => fresh.has(m.id)),
          fromCache,
        );
        const list = [...tallies.values()];
        // Which senders were subscriptions before this batch, to tell which ones it turns into one.
        const wasSubscription = new Set<string>();
        for (let i = 0; i < list.length; i += 500) {
          const rows = await trx
            .selectFrom('senders')
            .select('address')
            .where('mailbox_id', '=', mailbox.id)
            .where('is_subscription', '=', 1)
            .where(
              'address',
              'in',
              list.slice(i, i + 500).map((t) => t.address),
            )
            .execute();
          for (const r of rows) wasSubscription.add(r.address);
        }

        const idOf = new Map<string, { id: string; isSubscription: number }>();
        for (let i = 0; i < list.length; i += CHUNK) {
          const rows = await trx
            .insertInto('senders')
            .values(
              list.slice(i, i + CHUNK).map((t) => ({
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
                created_at: now,
                updated_at: now,
              })),
            )
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
              }),
            )
            .returning(['id', 'address', 'is_subscription'])
            .execute();
          for (const r of rows) idOf.set(r.address, { id: r.id, isSubscription: Number(r.is_subscription) });
        }

        const refs: Array<{
          mailbox_id: string;
          provider_id: string;
          sender_id: string;
          folder: string;
          subject: string;
          date: number | null;
        }> = [];
        for (const tally of list) {
          const row = idOf.get(tally.address);
          if (row?.isSubscription !== 1) continue;
          if (!wasSubscription.has(tally.address)) newSubscriptionIds.push(row.id);
          for (const m of tally.messages) {
            refs.push({
              mailbox_id: mailbox.id,
              provider_id: m.id,
              sender_id: row.id,
              folder: m.folder,
              subject: m.subject.slice(0, 500),
              date: m.date,
            });
          }
        }
        for (let i = 0; i < refs.length; i += CHUNK) {
          await trx
            .insertInto('messages')
            .values(refs.slice(i, i + CHUNK))
            .onConflict((oc) => oc.columns(['mailbox_id', 'provider_id']).doNothing())
            .execute();
        }
        await trx
          .updateTable('mailboxes')
          .set({ sync_state: JSON.stringify(state), last_error: null })
          .where('id', '=', mailbox.id)
          .execute();
      });
      return { newSubscriptionIds };
    },

    /** The mailbox a scan runs on: its credentials, owner, checkpoint and whether the full scan finished. */
    async mailboxToScan(mailboxId: string) {
      return db
        .selectFrom('mailboxes')
        .select([...MAILBOX_CREDENTIALS, 'user_id', 'sync_state', 'scan_complete'])
        .where('id', '=', mailboxId)
        .executeTakeFirst();
    },

    /** Senders blocked in the mailbox by our own rule (providers without server-side filters). */
    async ownBlockedAddresses(mailboxId: string): Promise<Set<string>> {
      const rows = await db
        .selectFrom('block_rules')
        .select('address')
        .where('mailbox_id', '=', mailboxId)
        .where('provider_ref', 'is', null)
        .execute();
      return new Set(rows.map((r) => r.address));
    },

    /** Mailboxes whose last check is older than `checkedBefore` (or that never finished a scan). */
    async dueMailboxes(checkedBefore: number): Promise<string[]> {
      const rows = await db
        .selectFrom('mailboxes')
        .select('id')
        .where('status', '!=', 'reauth')
        .where((eb) =>
          eb.or([
            eb('scan_complete', '=', 0),
            eb('last_scanned_at', 'is', null),
            eb('last_scanned_at', '<=', checkedBefore),
          ]),
        )
        .execute();
      return rows.map((r) => r.id);
    },

    /** Mailboxes marked as being scanned. */
    async scanningMailboxes(): Promise<string[]> {
      const rows = await db.selectFrom('mailboxes').select('id').where('status', '=', 'scanning').execute();
      return rows.map((r) => r.id);
    },

    async markScanComplete(mailboxId: string, now: number): Promise<void> {
      await db
        .updateTable('mailboxes')
        .set({ scan_complete: 1, last_scanned_at: now, status: 'active', last_error: null })
        .where('id', '=', mailboxId)
        .execute();
    },
  };
}

export type ScansRepository = ReturnType<typeof createScansRepository>;
