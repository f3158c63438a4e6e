import { z } from 'zod';
import { settingsSchema } from './accounts.js';
import { mailboxProviderSchema } from './mailboxes.js';
import { passkeySchema } from './passkey.js';
import { senderRuleSchema } from './rules.js';
import { subscriptionCategorySchema } from './subscriptions.js';

// "Your data to take away": GET /export (everything stored about the user, JSON) and GET /export.csv (the
// subscription list). Times are ISO 8601 strings (UTC) or null. Secrets are never part of it: no password
// hash, sealed mailbox secret, session, token or sync checkpoint (docs/decisions/081-data-export.md).

export const EXPORT_FORMAT = 'inbox-genie-export' as const;
export const EXPORT_VERSION = 1;

const time = z.string().nullable();

export const exportAccountSchema = z.object({
  email: z.string(),
  emailVerified: z.boolean(),
  /** Whether two-step sign-in is on (never its secret nor the recovery codes). */
  twoStepSignIn: z.boolean(),
  createdAt: z.string(),
  plan: z.string(),
  settings: settingsSchema,
});

export const exportMailboxSchema = z.object({
  id: z.string(),
  address: z.string(),
  provider: mailboxProviderSchema,
  imapHost: z.string().nullable(),
  imapPort: z.number().nullable(),
  imapSecure: z.boolean().nullable(),
  status: z.string(),
  lastError: z.string().nullable(),
  screener: z.boolean(),
  scanComplete: z.boolean(),
  /** How many message ids the scans counted (the ids themselves are bookkeeping, left out). */
  scannedMessages: z.number(),
  lastScannedAt: time,
  createdAt: z.string(),
});

export const exportSenderSchema = z.object({
  id: z.string(),
  mailboxId: z.string(),
  address: z.string(),
  name: z.string(),
  isSubscription: z.boolean(),
  category: subscriptionCategorySchema,
  messageCount: z.number(),
  listMessageCount: z.number(),
  recentCount: z.number(),
  lastMessageAt: time,
  readCount: z.number(),
  readKnown: z.number(),
  unsubscribeHttp: z.array(z.string()),
  unsubscribeMailto: z.array(z.string()),
  unsubscribeSeenAt: time,
  oneClick: z.boolean(),
  unsubscribedAt: time,
  stillSending: z.boolean(),
  via: z.string().nullable(),
  /** The List-Id of its newest list mail, and the brand it is grouped under (registrable domain). */
  listId: z.string().nullable(),
  brand: z.string(),
  screened: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const exportMessageSchema = z.object({
  mailboxId: z.string(),
  id: z.string(),
  senderId: z.string(),
  folder: z.string(),
  subject: z.string(),
  date: time,
  seen: z.boolean().nullable(),
});

/** A sender's rule: its fields as the rule's own schema has them (a new part is exported with it). */
export const exportSenderRuleSchema = senderRuleSchema.extend({
  senderId: z.string(),
  mailboxId: z.string(),
  folderName: z.string().nullable(),
  providerRef: z.string().nullable(),
  nextDueAt: time,
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const exportMovedMessageSchema = z.object({
  mailboxId: z.string(),
  senderId: z.string(),
  cause: z.string(),
  destination: z.unknown(),
  id: z.string(),
  origin: z.string(),
  createdAt: z.string(),
});

export const exportTrashedMessageSchema = z.object({
  mailboxId: z.string(),
  address: z.string(),
  id: z.string(),
  origin: z.string(),
  createdAt: z.string(),
});

export const exportBlockRuleSchema = z.object({
  mailboxId: z.string(),
  address: z.string(),
  providerRef: z.string().nullable(),
  createdAt: z.string(),
});

export const exportUnsubscribeReceiptSchema = z.object({
  id: z.string(),
  senderId: z.string(),
  method: z.string(),
  target: z.string(),
  recipient: z.string().nullable(),
  ok: z.boolean(),
  pending: z.boolean(),
  detail: z.string(),
  createdAt: z.string(),
});

export const exportBulkActionSchema = z.object({
  id: z.string(),
  action: z.string(),
  moveToTrash: z.boolean(),
  total: z.number(),
  createdAt: z.string(),
  finishedAt: time,
});

export const exportActivitySchema = z.object({
  id: z.string(),
  kind: z.string(),
  senderId: z.string().nullable(),
  bulkId: z.string().nullable(),
  bulkAction: z.string().nullable(),
  bulkTotal: z.number().nullable(),
  byCheck: z.boolean(),
  moved: z.number(),
  at: z.string(),
  undoneAt: time,
});

export const exportBulkItemSchema = z.object({
  bulkId: z.string(),
  position: z.number(),
  subscriptionId: z.string(),
  outcome: z.string().nullable(),
  result: z.unknown(),
  doneAt: time,
});

/** The Stripe customer and subscription as Stripe last said (identifiers only: no keys). */
export const exportBillingSchema = z.object({
  customerId: z.string(),
  subscriptionId: z.string().nullable(),
  status: z.string().nullable(),
  priceId: z.string().nullable(),
  interval: z.string().nullable(),
  currentPeriodEnd: time,
  cancelAtPeriodEnd: z.boolean(),
  syncedAt: time,
  createdAt: z.string(),
});

export const exportTrialUsageSchema = z.object({
  unsubscribesUsed: z.number(),
  unsubscribesIncluded: z.number(),
});

export const exportAuditSchema = z.object({
  action: z.enum(['export-json', 'export-csv']),
  createdAt: z.string(),
});

/** A weekly report by mail (its week, when it was claimed and sent; its unsubscribe token is left out). */
export const exportWeeklyReportSchema = z.object({
  week: z.string(),
  claimedAt: z.string(),
  sentAt: time,
});

/** GET /export: the file's top-level shape; each array is one table of the user's rows. */
export const dataExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.string(),
  account: exportAccountSchema,
  trialUsage: exportTrialUsageSchema,
  billing: exportBillingSchema.nullable(),
  accountAudit: z.array(exportAuditSchema),
  weeklyReports: z.array(exportWeeklyReportSchema),
  mailboxes: z.array(exportMailboxSchema),
  /** Names and dates of the user's passkeys (their public keys stay out). */
  passkeys: z.array(passkeySchema),
  senders: z.array(exportSenderSchema),
  messages: z.array(exportMessageSchema),
  senderRules: z.array(exportSenderRuleSchema),
  movedMessages: z.array(exportMovedMessageSchema),
  trashedMessages: z.array(exportTrashedMessageSchema),
  blockRules: z.array(exportBlockRuleSchema),
  unsubscribeReceipts: z.array(exportUnsubscribeReceiptSchema),
  bulkActions: z.array(exportBulkActionSchema),
  bulkItems: z.array(exportBulkItemSchema),
  activity: z.array(exportActivitySchema),
});
export type DataExport = z.infer<typeof dataExportSchema>;
export type ExportMailbox = z.infer<typeof exportMailboxSchema>;
export type ExportSender = z.infer<typeof exportSenderSchema>;
export type ExportMessage = z.infer<typeof exportMessageSchema>;

/** GET /export.csv's columns, in order. */
export const EXPORT_CSV_COLUMNS = [
  'Name',
  'Address',
  'Mailbox',
  'Category',
  'Messages',
  'Last message',
  'Messages per month',
  'Read rate',
  'Unsubscribed at',
  'Method',
] as const;
