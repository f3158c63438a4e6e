import type { Generated } from 'kysely';
import type {
  BulkOutcome,
  EmailAccount,
  MailboxProvider,
  SubscriptionCategory,
  UnsubscribeMethod,
} from '#contract/api.js';

// Columns holding one of a fixed set of values are typed with the contract's unions, so a query cannot
// store a value the screens do not know, and reads need no casts.
export type { MailboxProvider, SubscriptionCategory };
/** active | scanning | reauth (the password or grant no longer works) | error (the last check failed) */
export type MailboxStatus = EmailAccount['status'];
/** How a sender was handled (the contract's methods), or a block lifted by Keep. */
export type ReceiptMethod = UnsubscribeMethod | 'unblock';

// Table types for Kysely. Times are epoch milliseconds (bigint in PostgreSQL, integer in SQLite);
// booleans are 0/1 integers so one schema serves both dialects.

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  plan: Generated<string>;
  alert_manual_unsubscribe: Generated<number>;
  alert_after_unsubscribe: Generated<number>;
  /** 1: senders still sending after the grace period are blocked at the next check. */
  auto_block_still_sending: Generated<number>;
  /** Unsubscribes the free trial has used (reserved before the sender is contacted). */
  trial_unsubscribes_used: Generated<number>;
  /** 1 once the address is proven (docs/decisions/056-proven-addresses-and-takeover.md). */
  email_verified: Generated<number>;
  /** 1: the weekly report is mailed to the user (features/report); off by default. */
  weekly_report: Generated<number>;
  created_at: number;
  /**
   * Set only on the stand-in account of a sign-up with an address that has an account: the address typed,
   * while `email` is a placeholder (docs/decisions/057-sign-up-does-not-reveal-accounts.md).
   */
  duplicate_signup_email: string | null;
  /** The TOTP secret, sealed (lib/crypto SecretBox); set once two-step sign-in is on. */
  totp_secret: string | null;
  /** A secret between POST /auth/totp/setup and its first good code (enable), sealed. */
  totp_pending_secret: string | null;
  /** The last TOTP time step a code was accepted for: a code works once. */
  totp_last_step: number | null;
}

export interface TotpRecoveryCodesTable {
  user_id: string;
  /** sha256 of the normalized code. */
  code_hash: string;
  used_at: number | null;
}

/** A sign-in past its password (or provider) waiting for the second factor; id: sha256 of the cookie token. */
export interface SigninChallengesTable {
  id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

/** A WebAuthn credential: its id and public key (base64url), never a secret. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  public_key: string;
  counter: number;
  /** JSON array of AuthenticatorTransport, or null. */
  transports: string | null;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn challenge handed to one browser; id: sha256 of the cookie token; single use. */
export interface WebauthnChallengesTable {
  id: string;
  /** The signed-in user registering a passkey; null for a sign-in. */
  user_id: string | null;
  challenge: string;
  kind: 'registration' | 'authentication';
  expires_at: number;
}

/** The browsers a user signed in from: sha256 of a long-lived cookie's value. */
export interface UserDevicesTable {
  user_id: string;
  device_hash: string;
  first_seen_at: number;
}

/** Mails sent about an account unasked-for, by sha256 of the address, for the per-address budget. */
export interface AccountMailsTable {
  key: string;
  /** notice: verification links, sign-up notices, new sign-ins; reset: password-reset links. */
  kind: 'notice' | 'reset';
  sent_at: number;
}

export interface EmailVerificationsTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

/** The free trial's use of deleted accounts, by keyed hash of a mailbox address (features/billing). */
export interface TrialUsageTable {
  key: string;
  unsubscribes_used: number;
  updated_at: number;
}

/** Failed password sign-ins per address; `key` is the sha256 of the normalized address. */
export interface SigninFailuresTable {
  key: string;
  failures: number;
  last_at: number;
  locked_until: number;
}

export interface SessionsTable {
  /** sha256 of the cookie token: a database leak does not yield usable cookies. */
  id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  /** The browser's User-Agent at sign-in, cut to 300 characters. */
  user_agent: string | null;
  /** Updated at most every few minutes while the session is used. */
  last_seen_at: number | null;
  /** sha256 of the browser's device cookie. */
  device: string | null;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

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
}

/** Ids of every message a scan has counted (no content): counting stays exact across rescans. */
export interface ScannedMessagesTable {
  mailbox_id: string;
  provider_id: string;
}

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

/** A sender's rule (features/organise): any of a folder, keep the newest N, remove after N days. */
export interface SenderRulesTable {
  sender_id: string;
  mailbox_id: string;
  /** The folder's path as the adapter's listFolders gives it, and its name for the screens. */
  folder: string | null;
  folder_name: string | null;
  keep_newest: number | null;
  expire_after_days: number | null;
  expire_action: 'trash' | 'archive' | null;
  /** The provider's own filter filing the sender's mail (Gmail filter, Graph messageRule), if any. */
  provider_ref: string | null;
  /** When a message of the sender next ages past expire_after_days; null: only new mail needs the rule. */
  next_due_at: number | null;
  /** What the rule keeps (ids, folders, dates as JSON), so a check need not search the mailbox; null: unknown. */
  tracked: string | null;
  created_at: number;
  updated_at: number;
}

/** A message a rule or the Screener moved: where it is now and where it was, for undo. Ids only. */
export interface MovedMessagesTable {
  mailbox_id: string;
  sender_id: string;
  cause: 'rule' | 'screener';
  /** The adapter's Destination as JSON. */
  destination: string;
  moved_id: string;
  origin: string;
  created_at: number;
}

export interface BlockRulesTable {
  mailbox_id: string;
  address: string;
  provider_ref: string | null;
  created_at: number;
}

/** A user's Stripe customer and their subscription as Stripe last said (features/billing). */
export interface BillingAccountsTable {
  user_id: string;
  customer_id: string;
  subscription_id: string | null;
  /** Stripe's subscription status (active, trialing, past_due, canceled, …); null: never subscribed. */
  status: string | null;
  price_id: string | null;
  interval: 'month' | 'year' | null;
  current_period_end: number | null;
  cancel_at_period_end: Generated<number>;
  synced_at: number | null;
  created_at: number;
}

/** Webhook events received, by id (a redelivery does nothing); processed once their customer was synced. */
export interface StripeEventsTable {
  id: string;
  type: string;
  customer_id: string | null;
  received_at: number;
  processed_at: number | null;
}

/** A bulk action: one per POST /bulk-action; finished_at null while items remain (one such per user). */
export interface BulkActionsTable {
  id: string;
  user_id: string;
  action: 'unsubscribe' | 'keep' | 'block';
  /** Unsubscribe only: also move each sender's mail to the trash. */
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

/**
 * SQLite only (migration 0011): how many subscriptions a user has in a category, kept by triggers on
 * senders. Read by the list's total; PostgreSQL counts instead.
 */
export interface SubscriptionTotalsTable {
  user_id: string;
  category: SubscriptionCategory;
  n: number;
}

/** What was done with an account as a whole, by its user (a data export); deleted with the account. */
export interface AccountAuditTable {
  id: string;
  user_id: string;
  action: 'export-json' | 'export-csv';
  created_at: number;
}

/**
 * A weekly report claimed for a user and a week (features/report): written before the mail is sent, so no
 * two instances send the same week; sent_at once the mail went out. token_hash: sha256 of that mail's
 * unsubscribe token (the link in its List-Unsubscribe).
 */
export interface WeeklyReportsTable {
  user_id: string;
  /** The ISO week reported, e.g. 2026-W47 (Monday to Sunday, UTC). */
  week: string;
  token_hash: string;
  claimed_at: number;
  sent_at: number | null;
}

export interface Database {
  weekly_reports: WeeklyReportsTable;
  account_audit: AccountAuditTable;
  subscription_totals: SubscriptionTotalsTable;
  bulk_actions: BulkActionsTable;
  bulk_items: BulkItemsTable;
  trashed_messages: TrashedMessagesTable;
  billing_accounts: BillingAccountsTable;
  stripe_events: StripeEventsTable;
  unsubscribe_receipts: UnsubscribeReceiptsTable;
  block_rules: BlockRulesTable;
  sender_rules: SenderRulesTable;
  moved_messages: MovedMessagesTable;
  unsubscribe_flights: UnsubscribeFlightsTable;
  scanned_messages: ScannedMessagesTable;
  mailboxes: MailboxesTable;
  senders: SendersTable;
  messages: MessagesTable;
  users: UsersTable;
  account_mails: AccountMailsTable;
  totp_recovery_codes: TotpRecoveryCodesTable;
  signin_challenges: SigninChallengesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  user_devices: UserDevicesTable;
  email_verifications: EmailVerificationsTable;
  signin_failures: SigninFailuresTable;
  trial_usage: TrialUsageTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
}
