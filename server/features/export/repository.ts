import type { Db } from '#server/db/index.js';
import type { AccountAuditTable, ReceiptMethod, SubscriptionCategory } from '#server/db/schema.js';
import { lastWorkingMethod } from '../subscriptions/rows-repository.js';
import { createTableReader } from './table-repository.js';
import {
  activity,
  blockRules,
  bulkActions,
  bulkItems,
  messages,
  movedMessages,
  senderRules,
  senders,
  trashedMessages,
  unsubscribeReceipts,
} from './tables.js';
import { count, flag, iso, isoOf, keyset, PAGE } from './values.js';

// SQL of the data export: every row stored about one user, read a page at a time. Each table is read by
// keyset (its primary key, after the last row of the previous page), so a page costs the same at the
// start and at the end of 50,000 message references, and no more than one page is in memory at once.
// Columns are named one by one: secrets (users.password_hash, mailboxes.secret) and bookkeeping
// (mailboxes.sync_state, sender_rules.tracked) are never selected. The small sections are read at once
// here; the tables read page by page are described in tables.ts and read by table-repository.ts.

export type AuditAction = AccountAuditTable['action'];

export interface CsvSubscription {
  name: string;
  address: string;
  mailbox: string;
  category: SubscriptionCategory;
  messageCount: number;
  lastMessageAt: string | null;
  recentCount: number;
  readCount: number;
  readKnown: number;
  unsubscribedAt: string | null;
  method: ReceiptMethod | null;
}

export function createExportRepository(db: Db) {
  const tables = createTableReader(db);

  return {
    async addAudit(entry: { id: string; userId: string; action: AuditAction; at: number }): Promise<void> {
      await db
        .insertInto('account_audit')
        .values({ id: entry.id, user_id: entry.userId, action: entry.action, created_at: entry.at })
        .execute();
    },

    /** The account without its password hash; undefined when the user is gone. */
    async account(userId: string) {
      const row = await db
        .selectFrom('users')
        .select((eb) => [
          // A stand-in account's own address is its placeholder; the user knows it by the one they typed.
          eb.fn.coalesce('duplicate_signup_email', 'email').as('email'),
          // Whether two-step sign-in is on, never the secret.
          eb('totp_secret', 'is not', null).as('two_step'),
          'email_verified',
          'created_at',
          'plan',
          'alert_manual_unsubscribe',
          'alert_after_unsubscribe',
          'auto_block_still_sending',
          'weekly_report',
          'trial_unsubscribes_used',
        ])
        .where('id', '=', userId)
        .executeTakeFirst();
      return (
        row && {
          email: row.email,
          emailVerified: Number(row.email_verified) === 1,
          twoStepSignIn: Boolean(row.two_step),
          createdAt: isoOf(row.created_at),
          plan: row.plan,
          settings: {
            alertManualUnsubscribe: Number(row.alert_manual_unsubscribe) === 1,
            alertAfterUnsubscribe: Number(row.alert_after_unsubscribe) === 1,
            autoBlockStillSending: Number(row.auto_block_still_sending) === 1,
            weeklyReport: Number(row.weekly_report) === 1,
          },
          trialUnsubscribesUsed: Number(row.trial_unsubscribes_used),
        }
      );
    },

    async billing(userId: string) {
      const row = await db
        .selectFrom('billing_accounts')
        .select([
          'customer_id',
          'subscription_id',
          'status',
          'price_id',
          'interval',
          'current_period_end',
          'cancel_at_period_end',
          'synced_at',
          'created_at',
        ])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) return null;
      return {
        customerId: row.customer_id,
        subscriptionId: row.subscription_id,
        status: row.status,
        priceId: row.price_id,
        interval: row.interval,
        currentPeriodEnd: iso(row.current_period_end),
        cancelAtPeriodEnd: Number(row.cancel_at_period_end) === 1,
        syncedAt: iso(row.synced_at),
        createdAt: isoOf(row.created_at),
      };
    },

    /** Few rows (one per export), read at once. */
    async audit(userId: string) {
      const rows = await db
        .selectFrom('account_audit')
        .select(['action', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ action: r.action, createdAt: isoOf(r.created_at) }));
    },

    /**
     * The weekly reports mailed (or claimed) for the user, one per week at most: read at once. The token
     * hash of each is a credential (it turns the report off) and is never selected.
     */
    async weeklyReports(userId: string) {
      const rows = await db
        .selectFrom('weekly_reports')
        .select(['week', 'claimed_at', 'sent_at'])
        .where('user_id', '=', userId)
        .orderBy('week')
        .execute();
      return rows.map((r) => ({ week: r.week, claimedAt: isoOf(r.claimed_at), sentAt: iso(r.sent_at) }));
    },

    /** A handful per user (the plan's limit), read at once, with the count of message ids scanned. */
    async mailboxes(userId: string) {
      const rows = await db
        .selectFrom('mailboxes')
        .select((eb) => [
          'id',
          'email',
          'provider',
          'imap_host',
          'imap_port',
          'imap_secure',
          'status',
          'last_error',
          'screener',
          'scan_complete',
          'last_scanned_at',
          'created_at',
          eb
            .selectFrom('scanned_messages')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('scanned_messages.mailbox_id', '=', 'mailboxes.id')
            .as('scanned'),
        ])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        address: r.email,
        provider: r.provider,
        imapHost: r.imap_host,
        imapPort: count(r.imap_port),
        imapSecure: flag(r.imap_secure),
        status: r.status,
        lastError: r.last_error,
        screener: Number(r.screener) === 1,
        scanComplete: Number(r.scan_complete) === 1,
        scannedMessages: Number(r.scanned ?? 0),
        lastScannedAt: iso(r.last_scanned_at),
        createdAt: isoOf(r.created_at),
      }));
    },

    senders: (userId: string) => tables.pages(senders, userId),
    messages: (userId: string) => tables.pages(messages, userId),
    senderRules: (userId: string) => tables.pages(senderRules, userId),
    movedMessages: (userId: string) => tables.pages(movedMessages, userId),
    trashedMessages: (userId: string) => tables.pages(trashedMessages, userId),
    blockRules: (userId: string) => tables.pages(blockRules, userId),
    unsubscribeReceipts: (userId: string) => tables.pages(unsubscribeReceipts, userId),
    bulkActions: (userId: string) => tables.pages(bulkActions, userId),
    bulkItems: (userId: string) => tables.pages(bulkItems, userId),
    activity: (userId: string) => tables.pages(activity, userId),

    /** The subscription list (senders that are lists), with its mailbox and how it was unsubscribed. */
    csvSubscriptions(userId: string) {
      return keyset(
        async (after: string): Promise<(CsvSubscription & { id: string })[]> => {
          const rows = await db
            .selectFrom('senders')
            .innerJoin('mailboxes', 'mailboxes.id', 'senders.mailbox_id')
            .select((eb) => [
              'senders.id',
              'senders.sender_name',
              'senders.address',
              'mailboxes.email as mailbox',
              'senders.category',
              'senders.message_count',
              'senders.last_message_at',
              'senders.recent_count',
              'senders.read_count',
              'senders.read_known',
              'senders.unsubscribed_at',
              // The method of the last attempt that worked, as the unsubscribed list shows it.
              lastWorkingMethod(eb).as('method'),
            ])
            .where('senders.user_id', '=', userId)
            .where('senders.is_subscription', '=', 1)
            .where('senders.id', '>', after)
            .orderBy('senders.id')
            .limit(PAGE)
            .execute();
          return rows.map((r) => ({
            id: r.id,
            name: r.sender_name,
            address: r.address,
            mailbox: r.mailbox,
            category: r.category,
            messageCount: Number(r.message_count),
            lastMessageAt: iso(r.last_message_at),
            recentCount: Number(r.recent_count),
            readCount: Number(r.read_count),
            readKnown: Number(r.read_known),
            unsubscribedAt: iso(r.unsubscribed_at),
            method: r.method ?? null,
          }));
        },
        (s) => s.id,
        '',
      );
    },
  };
}

export type ExportRepository = ReturnType<typeof createExportRepository>;
