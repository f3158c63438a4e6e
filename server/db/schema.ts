import type { MailboxProvider, SubscriptionCategory } from '#contract/api.js';
import type {
  AccountAuditTable,
  AccountMailsTable,
  EmailVerificationsTable,
  PasswordResetsTable,
  SessionsTable,
  SigninFailuresTable,
  UserDevicesTable,
  UsersTable,
  WeeklyReportsTable,
} from './schema/accounts.js';
import type { ActivityTable } from './schema/activity.js';
import type { BillingAccountsTable, StripeEventsTable, TrialUsageTable } from './schema/billing.js';
import type {
  MailboxesTable,
  MessagesTable,
  ScannedMessagesTable,
  SendersTable,
  SubscriptionTotalsTable,
} from './schema/mail.js';
import type { MovedMessagesTable, SenderRulesTable } from './schema/organise.js';
import type {
  PasskeysTable,
  SigninChallengesTable,
  TotpRecoveryCodesTable,
  WebauthnChallengesTable,
} from './schema/security.js';
import type {
  BlockRulesTable,
  BulkActionsTable,
  BulkItemsTable,
  TrashedMessagesTable,
  UnsubscribeFlightsTable,
  UnsubscribeReceiptsTable,
} from './schema/unsubscribe.js';

// Table types for Kysely, one file per area under schema/: accounts, security (second factors), mail
// (mailboxes, senders, messages), unsubscribe (receipts, blocks, bulk actions), organise (rules), billing.
// Times are epoch milliseconds (bigint in PostgreSQL, integer in SQLite); booleans are 0/1 integers so one
// schema serves both dialects.
export type * from './schema/accounts.js';
export type * from './schema/activity.js';
export type * from './schema/billing.js';
export type * from './schema/mail.js';
export type * from './schema/organise.js';
export type * from './schema/security.js';
export type * from './schema/unsubscribe.js';

// Columns holding one of a fixed set of values are typed with the contract's unions, so a query cannot
// store a value the screens do not know, and reads need no casts.
export type { MailboxProvider, SubscriptionCategory };

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
  activity: ActivityTable;
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
