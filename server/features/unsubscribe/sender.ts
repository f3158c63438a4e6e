import type { SubscriptionCategory } from '#contract/api.js';
import type { DomainErrorKind } from '#server/lib/errors.js';
import type { Mailbox } from '../mailboxes/mailbox.js';
import type { ReceiptMethod } from './repository.js';

// What the unsubscribe engine knows of a sender, as its repository answers it: a subscription of the
// user, the ways out its list headers offered, and the mailbox its mail arrives in.

/**
 * The mailbox the sender's mail arrives in: what the mail adapter is built from (the factory takes it as
 * it is), and its status (`reauth`: the password or grant no longer works, nothing is tried until the user
 * signs in again).
 */
export type SenderMailbox = Pick<Mailbox, 'id' | 'provider' | 'email' | 'secret' | 'server' | 'status'>;

export interface Sender {
  /** The subscription's id (a sender of one mailbox). */
  id: string;
  address: string;
  category: SubscriptionCategory;
  /** The sender asked for RFC 8058 one-click (List-Unsubscribe-Post). */
  oneClick: boolean;
  /** The sender's http(s) unsubscribe links, in the sender's order. */
  unsubscribeHttp: string[];
  /** The sender's mailto unsubscribe links, in the sender's order. */
  unsubscribeMailto: string[];
  messageCount: number;
  /** How many of its messages carry list headers (the rest may be personal mail). */
  listMessageCount: number;
  mailbox: SenderMailbox;
}

/** A rule sending the sender's future mail to the trash: the provider's (`providerRef`) or ours. */
export interface BlockRule {
  providerRef: string | null;
  createdAt: number;
}

/** An attempt written before a sender or a mailbox was contacted and never settled. */
export interface PendingReceipt {
  id: string;
  method: ReceiptMethod;
  target: string;
  recipient: string | null;
}

/**
 * What a finished run answered, kept with the sender's lock for callers that waited on it (any instance),
 * with the operation it was (`op`: only a caller asking for the same gets its answer). A refusal keeps its
 * kind, so a waiter gets the very error the run threw; `failed` is any other error (answered as our
 * fault). `retry`: the run was reconciled after its process died, so waiters start over.
 */
export type FlightAnswer =
  | { op: string; ok: true; value: unknown }
  | {
      op: string;
      ok: false;
      kind: DomainErrorKind | 'failed';
      message: string;
      details: Record<string, unknown>;
    }
  | { retry: true };

/** The sender's lock as stored: held until `leaseUntil`, or finished with the run's answer. */
export interface Flight {
  startedAt: number;
  finished: boolean;
  leaseUntil: number;
  answer: FlightAnswer | null;
}

/** A run a stopped process left holding its sender's lock. */
export interface AbandonedFlight {
  senderId: string;
  startedAt: number;
}
