import type { BulkAction, BulkItemResult } from '#contract/api.js';

// What the bulk repository answers: a bulk, its items, and what the runner knows of the senders.

export interface Bulk {
  id: string;
  userId: string;
  action: BulkAction;
  /**
   * Unsubscribe only, as POST /unsubscribe takes it: true, also move each sender's mail to the trash; false,
   * never (a block takes new mail only); undefined, the spec's default (only a block moves it).
   */
  moveToTrash?: boolean;
  total: number;
  /** When the last item was done; null while items are left. */
  finishedAt: number | null;
}

/** An item not done yet: the sender asked for, in the order asked. */
export interface PendingBulkItem {
  position: number;
  subscriptionId: string;
}

/** An item and, once done, its result. */
export interface BulkItem extends PendingBulkItem {
  result: BulkItemResult | null;
}

/** What spreading the requests needs to know of a sender (its ways out, and its mailbox). */
export interface BulkSender {
  id: string;
  mailboxId: string;
  oneClick: boolean;
  unsubscribeHttp: string[];
  unsubscribeMailto: string[];
}
