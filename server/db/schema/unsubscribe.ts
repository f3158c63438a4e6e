import type { Generated } from 'kysely';
import type { BulkOutcome, UnsubscribeMethod } from '#contract/api.js';

// What was done to senders: unsubscribe receipts and runs, blocks, trashed mail, bulk actions.
// Conventions (times, booleans, unions): ../schema.ts.

/** How a sender was handled (the contract's methods), or a block lifted by Keep. */
export type ReceiptMethod = UnsubscribeMethod | 'unblock';

export interface UnsubscribeReceiptsTable {
  id: string;
  user_id: string;
  sender_id: string;
  method: ReceiptMethod;
  /** The URI, mailto address or blocked address the attempt was about. */
  target: string;
  ok: number;
  /** HTTP status, SMTP answer, count moved, or the error. */
  detail: Generated<string>;
  created_at: number;
  /** 1 from just before the sender is contacted until the outcome is written. */
  pending: Generated<number>;
  /** mailto: the one addr-spec the request was sent to. */
  recipient: string | null;
}

/** The in-flight unsubscribe run of a sender (at most one, across instances). */
export interface UnsubscribeFlightsTable {
  sender_id: string;
  user_id: string;
  started_at: number;
  /** Renewed while the run is alive; past it, the run's process is taken to be dead. 0: finished. */
  lease_until: number;
  /** The finished run's answer (JSON), for callers that waited on it from another instance. */
  answer: string | null;
}

export interface BlockRulesTable {
  mailbox_id: string;
  address: string;
  provider_ref: string | null;
  created_at: number;
}

/** A message moved to the trash by a block or an unsubscribe with moveToTrash: ids only, never content. */
export interface TrashedMessagesTable {
  mailbox_id: string;
  /** The sender whose mail it is (lower case). */
  address: string;
  /** Its id in the trash (the adapter's TrashedMessage.id). */
  trash_id: string;
  /** Where it was (the adapter's TrashedMessage.origin). */
  origin: string;
  created_at: number;
}

/** A bulk action: one per POST /bulk-action; finished_at null while items remain (one such per user). */
export interface BulkActionsTable {
  id: string;
  user_id: string;
  action: 'unsubscribe' | 'keep' | 'block';
  /** Unsubscribe only: 1 also move each sender's mail to the trash, -1 never, 0 the spec's default (features/bulk). */
  move_to_trash: Generated<number>;
  total: number;
  created_at: number;
  finished_at: number | null;
  /** Until when the runner of the bulk holds it (renewed while it lives); null: no runner. */
  runner_until: number | null;
}

/** One requested sender of a bulk action, in the order asked; outcome null until it is done. */
export interface BulkItemsTable {
  bulk_id: string;
  position: number;
  subscription_id: string;
  outcome: BulkOutcome | null;
  /** The item's BulkItemResult as JSON. */
  result: string | null;
  done_at: number | null;
}
