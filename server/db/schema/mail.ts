import type { Generated } from 'kysely';
import type { EmailAccount, MailboxProvider, SubscriptionCategory } from '#contract/api.js';

// A mailbox and what its scans found: senders, message references, counted ids, the list totals.
// Conventions (times, booleans, unions): ../schema.ts.

/** active | scanning | reauth (the password or grant no longer works) | error (the last check failed) */
export type MailboxStatus = EmailAccount['status'];

export interface MailboxesTable {
  id: string;
  user_id: string;
  email: string;
  provider: MailboxProvider;
  status: Generated<MailboxStatus>;
  /** App password or refresh token, sealed with AES-256-GCM (lib/crypto SecretBox). */
  secret: string | null;
  created_at: number;
  /** Provider `imap` (any host): where its server is; presets are resolved at use. */
  imap_host: string | null;
  imap_port: number | null;
  imap_secure: number | null;
  /** The adapter's SyncState as JSON: a scan's checkpoint, then the daily check's position. */
  sync_state: string | null;
  /** 1 once a full scan has finished; the daily check then looks only for new mail. */
  scan_complete: Generated<number>;
  last_scanned_at: number | null;
  last_error: string | null;
  /** 1: new senders' mail found by a check goes to the Screener folder (features/organise). */
  screener: Generated<number>;
  /** 1: the login that connected the mailbox proved its address (trial usage is kept only under these). */
  address_proven: Generated<number>;
}

/**
 * One row per From address per mailbox. Rows with is_subscription = 1 are the product's
 * subscriptions; the others only carry a count, so a sender whose list headers show up later
 * is counted correctly without storing anything else about personal mail.
 */
export interface SendersTable {
  id: string;
  user_id: string;
  mailbox_id: string;
  address: string;
  sender_name: Generated<string>;
  message_count: Generated<number>;
  last_message_at: number | null;
  is_subscription: Generated<number>;
  category: Generated<SubscriptionCategory>;
  list_signal: Generated<number>;
  one_click: Generated<number>;
  /** JSON arrays of the URIs of the newest message that had any (RFC 2369 order). */
  unsubscribe_http: Generated<string>;
  unsubscribe_mailto: Generated<string>;
  /** Date of the message those URIs came from. */
  unsubscribe_seen_at: number | null;
  /** When the sender became unsubscribed (null in the other categories). */
  unsubscribed_at: number | null;
  /** 1 when its mail still arrived more than the grace period after unsubscribed_at. */
  still_sending: Generated<number>;
  /** Messages carrying list evidence (usable List-Unsubscribe, List-Id, Precedence bulk/list). */
  list_message_count: Generated<number>;
  /** 1 once moving it to unsubscribed used one of the free trial's unsubscribes. */
  trial_counted: Generated<number>;
  /** Messages of the sender read by the user / whose read state is known (messages.seen not null). */
  read_count: Generated<number>;
  read_known: Generated<number>;
  /** Sort key of "least read first": floor(1000 × read_count / read_known), 1001 while nothing is known. */
  read_rank: Generated<number>;
  /** Messages dated within the 90 days before the last scan or check (messagesPerMonth = this / 3). */
  recent_count: Generated<number>;
  /** A discussion list's poster: the posting address of the list (List-Post) of its newest list mail. */
  via: string | null;
  /** The List-Id identifier of its newest list mail that had one (features/subscriptions/brand.ts). */
  list_id: string | null;
  /** Its brand: the registrable domain of list_id, else of its address (brandOf, at write time). */
  brand: Generated<string>;
  /** 1 while its mail waits in the Screener folder for the user's decision. */
  screened: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** References to the messages of subscription senders: ids, folder, subject and date, never bodies. */
export interface MessagesTable {
  mailbox_id: string;
  provider_id: string;
  sender_id: string;
  folder: string;
  subject: Generated<string>;
  date: number | null;
  /** 1 read, 0 unread, null unknown (IMAP \Seen, Gmail without UNREAD, Graph isRead). */
  seen: number | null;
  /** 1 while the product has moved it to the trash: neither counted nor listed (features/mailboxes). */
  gone: Generated<number>;
}

/** Ids of every message a scan has counted (no content): counting stays exact across rescans. */
export interface ScannedMessagesTable {
  mailbox_id: string;
  provider_id: string;
}

/**
 * SQLite only (migration 0011): how many subscriptions a user has in a category, kept by triggers on
 * senders. Read by the list's total; PostgreSQL counts instead.
 */
export interface SubscriptionTotalsTable {
  user_id: string;
  category: SubscriptionCategory;
  n: number;
}
