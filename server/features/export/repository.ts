import type { Db } from '#server/db/index.js';
import type { AccountAuditTable, ReceiptMethod, SubscriptionCategory } from '#server/db/schema.js';

// SQL of the data export: every row stored about one user, read a page at a time. Each table is read by
// keyset (its primary key, after the last row of the previous page), so a page costs the same at the
// start and at the end of 50,000 message references, and no more than one page is in memory at once.
// Columns are named one by one: secrets (users.password_hash, mailboxes.secret) and bookkeeping
// (mailboxes.sync_state, sender_rules.tracked) are never selected.

const PAGE = 1000;

export type AuditAction = AccountAuditTable['action'];

/** Epoch milliseconds (a string from PostgreSQL bigint) as ISO 8601, null kept. */
function iso(ms: number | string | null): string | null {
  return ms === null ? null : new Date(Number(ms)).toISOString();
}
const isoOf = (ms: number | string): string => new Date(Number(ms)).toISOString();
const flag = (n: number | null): boolean | null => (n === null ? null : Number(n) === 1);

/** A JSON column as stored; a value that no longer parses is given as the text it is. */
function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
const strings = (text: string): string[] => {
  const value = parsed(text);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};

/** Pages of rows read after the key of the previous page's last row, until a short page. */
async function* keyset<R, K>(read: (after: K) => Promise<R[]>, keyOf: (row: R) => K, start: K) {
  let after = start;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
    after = keyOf(rows[rows.length - 1] as R);
  }
}

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
  async function mailboxIds(userId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('mailboxes')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Pages of a table keyed by (mailbox_id, key), one mailbox after another. */
  async function* perMailbox<R>(
    userId: string,
    read: (mailboxId: string, after: string) => Promise<R[]>,
    keyOf: (row: R) => string,
  ) {
    for (const mailboxId of await mailboxIds(userId)) {
      yield* keyset((after: string) => read(mailboxId, after), keyOf, '');
    }
  }

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
        imapPort: r.imap_port === null ? null : Number(r.imap_port),
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

    /** Every sender, subscriptions and personal ones alike. */
    senders(userId: string) {
      return keyset(
        async (after: string) => {
          const rows = await db
            .selectFrom('senders')
            .select([
              'id',
              'mailbox_id',
              'address',
              'sender_name',
              'is_subscription',
              'category',
              'message_count',
              'list_message_count',
              'recent_count',
              'last_message_at',
              'read_count',
              'read_known',
              'unsubscribe_http',
              'unsubscribe_mailto',
              'unsubscribe_seen_at',
              'one_click',
              'unsubscribed_at',
              'still_sending',
              'via',
              'list_id',
              'brand',
              'screened',
              'created_at',
              'updated_at',
            ])
            .where('user_id', '=', userId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(PAGE)
            .execute();
          return rows.map((r) => ({
            id: r.id,
            mailboxId: r.mailbox_id,
            address: r.address,
            name: r.sender_name,
            isSubscription: Number(r.is_subscription) === 1,
            category: r.category,
            messageCount: Number(r.message_count),
            listMessageCount: Number(r.list_message_count),
            recentCount: Number(r.recent_count),
            lastMessageAt: iso(r.last_message_at),
            readCount: Number(r.read_count),
            readKnown: Number(r.read_known),
            unsubscribeHttp: strings(r.unsubscribe_http),
            unsubscribeMailto: strings(r.unsubscribe_mailto),
            unsubscribeSeenAt: iso(r.unsubscribe_seen_at),
            oneClick: Number(r.one_click) === 1,
            unsubscribedAt: iso(r.unsubscribed_at),
            stillSending: Number(r.still_sending) === 1,
            via: r.via,
            listId: r.list_id,
            brand: r.brand,
            screened: Number(r.screened) === 1,
            createdAt: isoOf(r.created_at),
            updatedAt: isoOf(r.updated_at),
          }));
        },
        (s) => s.id,
        '',
      );
    },

    messages(userId: string) {
      return perMailbox(
        userId,
        async (mailboxId, after) => {
          const rows = await db
            .selectFrom('messages')
            .select(['mailbox_id', 'provider_id', 'sender_id', 'folder', 'subject', 'date', 'seen'])
            .where('mailbox_id', '=', mailboxId)
            .where('provider_id', '>', after)
            .orderBy('provider_id')
            .limit(PAGE)
            .execute();
          return rows.map((r) => ({
            mailboxId: r.mailbox_id,
            id: r.provider_id,
            senderId: r.sender_id,
            folder: r.folder,
            subject: r.subject,
            date: iso(r.date),
            seen: flag(r.seen),
          }));
        },
        (m) => m.id,
      );
    },

    senderRules(userId: string) {
      return perMailbox(
        userId,
        async (mailboxId, after) => {
          const rows = await db
            .selectFrom('sender_rules')
            .select([
              'sender_id',
              'mailbox_id',
              'folder',
              'folder_name',
              'keep_newest',
              'expire_after_days',
              'expire_action',
              'provider_ref',
              'next_due_at',
              'created_at',
              'updated_at',
            ])
            .where('mailbox_id', '=', mailboxId)
            .where('sender_id', '>', after)
            .orderBy('sender_id')
            .limit(PAGE)
            .execute();
          return rows.map((r) => ({
            senderId: r.sender_id,
            mailboxId: r.mailbox_id,
            folder: r.folder,
            folderName: r.folder_name,
            keepNewest: r.keep_newest === null ? null : Number(r.keep_newest),
            expireAfterDays: r.expire_after_days === null ? null : Number(r.expire_after_days),
            expireAction: r.expire_action,
            providerRef: r.provider_ref,
            nextDueAt: iso(r.next_due_at),
            createdAt: isoOf(r.created_at),
            updatedAt: isoOf(r.updated_at),
          }));
        },
        (r) => r.senderId,
      );
    },

    movedMessages(userId: string) {
      return perMailbox(
        userId,
        async (mailboxId, after) => {
          const rows = await db
            .selectFrom('moved_messages')
            .select(['mailbox_id', 'sender_id', 'cause', 'destination', 'moved_id', 'origin', 'created_at'])
            .where('mailbox_id', '=', mailboxId)
            .where('moved_id', '>', after)
            .orderBy('moved_id')
            .limit(PAGE)
            .execute();
          return rows.map((r) => ({
            mailboxId: r.mailbox_id,
            senderId: r.sender_id,
            cause: r.cause,
            destination: parsed(r.destination),
            id: r.moved_id,
            origin: r.origin,
            createdAt: isoOf(r.created_at),
          }));
        },
        (m) => m.id,
      );
    },

    trashedMessages(userId: string) {
      return perMailbox(
        userId,
        async (mailboxId, after) => {
          const rows = await db
            .selectFrom('trashed_messages')
            .select(['mailbox_id', 'address', 'trash_id', 'origin', 'created_at'])
            .where('mailbox_id', '=', mailboxId)
            .where('trash_id', '>', after)
            .orderBy('trash_id')
            .limit(PAGE)
            .execute();
          return rows.map((r) => ({
            mailboxId: r.mailbox_id,
            address: r.address,
            id: r.trash_id,
            origin: r.origin,
            createdAt: isoOf(r.created_at),
          }));
        },
        (m) => m.id,
      );
    },

    blockRules(userId: string) {
      return perMailbox(
        userId,
        async (mailboxId, after) => {
          const rows = await db
            .selectFrom('block_rules')
            .select(['mailbox_id', 'address', 'provider_ref', 'created_at'])
            .where('mailbox_id', '=', mailboxId)
            .where('address', '>', after)
            .orderBy('address')
            .limit(PAGE)
            .execute();
          return rows.map((r) => ({
            mailboxId: r.mailbox_id,
            address: r.address,
            providerRef: r.provider_ref,
            createdAt: isoOf(r.created_at),
          }));
        },
        (b) => b.address,
      );
    },

    /** Receipts of every action: unsubscribes, blocks, keeps (unblock), failed ones too. */
    unsubscribeReceipts(userId: string) {
      return keyset(
        async (after: string) => {
          const rows = await db
            .selectFrom('unsubscribe_receipts')
            .select([
              'id',
              'sender_id',
              'method',
              'target',
              'recipient',
              'ok',
              'pending',
              'detail',
              'created_at',
            ])
            .where('user_id', '=', userId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(PAGE)
            .execute();
          return rows.map((r) => ({
            id: r.id,
            senderId: r.sender_id,
            method: r.method,
            target: r.target,
            recipient: r.recipient,
            ok: Number(r.ok) === 1,
            pending: Number(r.pending) === 1,
            detail: r.detail,
            createdAt: isoOf(r.created_at),
          }));
        },
        (r) => r.id,
        '',
      );
    },

    bulkActions(userId: string) {
      return keyset(
        async (after: string) => {
          const rows = await db
            .selectFrom('bulk_actions')
            .select(['id', 'action', 'move_to_trash', 'total', 'created_at', 'finished_at'])
            .where('user_id', '=', userId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(PAGE)
            .execute();
          return rows.map((r) => ({
            id: r.id,
            action: r.action,
            moveToTrash: Number(r.move_to_trash) === 1,
            total: Number(r.total),
            createdAt: isoOf(r.created_at),
            finishedAt: iso(r.finished_at),
          }));
        },
        (b) => b.id,
        '',
      );
    },

    /** Items of the user's bulk actions, bulk after bulk, by (bulk_id, position). */
    async *bulkItems(userId: string) {
      const bulkIds = keyset(
        (after: string) =>
          db
            .selectFrom('bulk_actions')
            .select('id')
            .where('user_id', '=', userId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(PAGE)
            .execute(),
        (b) => b.id,
        '',
      );
      for await (const page of bulkIds) {
        for (const bulk of page) {
          yield* keyset(
            async (after: number) => {
              const rows = await db
                .selectFrom('bulk_items')
                .select(['bulk_id', 'position', 'subscription_id', 'outcome', 'result', 'done_at'])
                .where('bulk_id', '=', bulk.id)
                .where('position', '>', after)
                .orderBy('position')
                .limit(PAGE)
                .execute();
              return rows.map((r) => ({
                bulkId: r.bulk_id,
                position: Number(r.position),
                subscriptionId: r.subscription_id,
                outcome: r.outcome,
                result: parsed(r.result),
                doneAt: iso(r.done_at),
              }));
            },
            (i) => i.position,
            -1,
          );
        }
      }
    },

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
              eb
                .selectFrom('unsubscribe_receipts')
                .select('unsubscribe_receipts.method')
                .whereRef('unsubscribe_receipts.sender_id', '=', 'senders.id')
                .where('unsubscribe_receipts.ok', '=', 1)
                .orderBy('unsubscribe_receipts.created_at', 'desc')
                .limit(1)
                .$asScalar()
                .$castTo<ReceiptMethod | null>()
                .as('method'),
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
