import type { Db } from '#server/db/index.js';
import type { MailboxProvider } from '#server/db/schema.js';
import { recountSenders } from '#server/db/sender-counts.js';
import {
  createBatchRepository,
  RECENT_WINDOW_MS,
  type ScanHold,
  ScanSupersededError,
  stillHeld,
} from './batch-repository.js';

// SQL of scans: senders, message references, the mailbox's checkpoint and which mailboxes are due. A
// batch's tallies (made by batch.ts) and the checkpoint after it are written in one transaction
// (batch-repository.ts, merged here), so a scan killed between batches resumes with nothing lost and
// nothing counted twice.

export {
  type BatchResult,
  type NewBatch,
  RECENT_WINDOW_MS,
  type ScanHold,
  ScanSupersededError,
} from './batch-repository.js';

export function createScansRepository(db: Db) {
  return {
    ...createBatchRepository(db),

    /**
     * Recounts the read rate (read_count, read_known, read_rank) and recent_count of every sender of the
     * mailbox from its message references: one statement, after each scan or check, so flag changes and
     * the 90-day window sliding on are reflected whichever senders the run touched.
     */
    async refreshSenderStats(mailboxId: string, now: number): Promise<void> {
      await recountSenders(db, mailboxId, now - RECENT_WINDOW_MS);
    },

    /** Provider ids of the message references of a mailbox (IMAP without CONDSTORE reads their flags). */
    async knownMessageIds(mailboxId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('messages')
        .select('provider_id')
        .where('mailbox_id', '=', mailboxId)
        .where('gone', '=', 0)
        .execute();
      return rows.map((r) => r.provider_id);
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

    /** What a run starting now holds of the mailbox, whose adapter is `provider`'s (see ScanHold). */
    async holdOf(mailboxId: string, provider: MailboxProvider): Promise<ScanHold> {
      const row = await db
        .selectFrom('mailboxes')
        .select('sync_state')
        .where('id', '=', mailboxId)
        .executeTakeFirst();
      return { provider, checkpoint: row?.sync_state ?? null };
    },

    async markScanComplete(mailboxId: string, now: number, hold?: ScanHold): Promise<void> {
      const done = await db
        .updateTable('mailboxes')
        .set({ scan_complete: 1, last_scanned_at: now, status: 'active', last_error: null })
        .where('id', '=', mailboxId)
        .$if(hold !== undefined, (qb) => qb.where((eb) => stillHeld(eb, hold!)))
        .executeTakeFirst();
      if (hold && Number(done.numUpdatedRows) === 0) throw new ScanSupersededError(mailboxId);
    },
  };
}

export type ScansRepository = ReturnType<typeof createScansRepository>;
