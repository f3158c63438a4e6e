import type { Sender } from '#server/mail/headers/detect.js';
import type { MessageHeaders, ReadStateChange, SyncState } from '#server/mail/provider.js';
import { tallyBatch } from './aggregate.js';
import type { BatchResult, ScanHold, ScansRepository } from './repository.js';

// One batch of a scan or check: the messages the mailbox has not counted yet are tallied by sender
// here, and the repository writes the tallies, the read states and the checkpoint in one transaction.

/**
 * Counts the batch's messages not counted before (by provider id), folds them into senders and message
 * references, applies the batch's read-state changes, and stores the checkpoint (only while the run still
 * holds the mailbox, `mailbox.hold`: repository.ts ScanHold). `fromCache` keeps the parsed From values of
 * one scan across its batches.
 */
export async function commitBatch(
  repo: Pick<ScansRepository, 'countedAlready' | 'writeBatch'>,
  mailbox: { id: string; userId: string; hold?: ScanHold },
  messages: ReadonlyArray<MessageHeaders>,
  state: SyncState,
  now: number,
  fromCache?: Map<string, Sender | null>,
  flags: ReadonlyArray<ReadStateChange> = [],
): Promise<BatchResult> {
  const counted = await repo.countedAlready(
    mailbox.id,
    messages.map((m) => m.id),
  );
  const fresh = messages.filter((m) => !counted.has(m.id));
  // A message handed out again (a folder read afresh after Graph's 410 or a lost Gmail history, a resumed
  // batch) is not counted again, but brings its current read state to its reference, after the batch's
  // flag changes (its fetch is at least as recent).
  const readStates = [...flags];
  for (const m of messages) {
    if (counted.has(m.id) && typeof m.seen === 'boolean') readStates.push({ id: m.id, seen: m.seen });
  }
  const tallies = [...tallyBatch(fresh, fromCache).values()];
  return repo.writeBatch(mailbox, { counted: fresh.map((m) => m.id), tallies, readStates, state }, now);
}
