import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '#server/db/index.js';
import type { ReceiptMethod } from '#server/db/schema.js';
import { MAX_URIS } from '#server/mail/headers/list-unsubscribe.js';
import { MAILBOX_CREDENTIALS, mailboxCredentials } from '../mailboxes/repository.js';
import type { AbandonedFlight, BlockRule, Flight, FlightAnswer, PendingReceipt, Sender } from './sender.js';

// The SQL of the unsubscribe engine: the sender and its mailbox, receipts (written pending before a
// sender or a mailbox is contacted, settled after), the one in-flight run per sender, block rules.
// Rows leave as the domain objects of sender.ts.

export type { ReceiptMethod };

/** A stored URI list; rows written before the parser's caps are cut to them here. */
const parseUris = (json: string): string[] => (JSON.parse(json) as string[]).slice(0, MAX_URIS);

export function createUnsubscribeRepository(db: Db) {
  return {
    /** The user's subscription with that id, or nothing (another user's reads as unknown). */
    async sender(userId: string, subscriptionId: string): Promise<Sender | undefined> {
      const row = await db
        .selectFrom('senders')
        .innerJoin('mailboxes', 'mailboxes.id', 'senders.mailbox_id')
        .select([
          'senders.id',
          'senders.address',
          'senders.category',
          'senders.one_click',
          'senders.unsubscribe_http',
          'senders.unsubscribe_mailto',
          'senders.message_count',
          'senders.list_message_count',
          ...MAILBOX_CREDENTIALS,
        ])
        .where('senders.id', '=', subscriptionId)
        .where('senders.user_id', '=', userId)
        .where('senders.is_subscription', '=', 1)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        id: row.id,
        address: row.address,
        category: row.category,
        oneClick: row.one_click === 1,
        unsubscribeHttp: parseUris(row.unsubscribe_http),
        unsubscribeMailto: parseUris(row.unsubscribe_mailto),
        messageCount: Number(row.message_count),
        listMessageCount: Number(row.list_message_count),
        mailbox: { ...mailboxCredentials(row), provider: row.provider, status: row.status },
      };
    },

    /** A receipt written before the attempt; settle() records its outcome. */
    async startReceipt(
      userId: string,
      senderId: string,
      r: { method: ReceiptMethod; target: string; recipient?: string | null },
      at: number,
    ): Promise<string> {
      const id = randomUUID();
      await db
        .insertInto('unsubscribe_receipts')
        .values({
          id,
          user_id: userId,
          sender_id: senderId,
          method: r.method,
          target: r.target.slice(0, 2048),
          recipient: r.recipient ?? null,
          ok: 0,
          pending: 1,
          detail: 'started',
          created_at: at,
        })
        .execute();
      return id;
    },

    async settle(receiptId: string, outcome: { ok: boolean; detail: string }): Promise<void> {
      await db
        .updateTable('unsubscribe_receipts')
        .set({ ok: outcome.ok ? 1 : 0, pending: 0, detail: outcome.detail.slice(0, 1000) })
        .where('id', '=', receiptId)
        .execute();
    },

    async receipt(
      userId: string,
      senderId: string,
      r: { method: ReceiptMethod; target: string; ok: boolean; detail: string },
      at: number,
    ): Promise<void> {
      await db
        .insertInto('unsubscribe_receipts')
        .values({
          id: randomUUID(),
          user_id: userId,
          sender_id: senderId,
          method: r.method,
          target: r.target.slice(0, 2048),
          ok: r.ok ? 1 : 0,
          detail: r.detail.slice(0, 1000),
          created_at: at,
        })
        .execute();
    },

    /** The method of the sender's last successful unsubscribe attempt. */
    async lastSuccess(senderId: string): Promise<ReceiptMethod | null> {
      const last = await db
        .selectFrom('unsubscribe_receipts')
        .select('method')
        .where('sender_id', '=', senderId)
        .where('ok', '=', 1)
        .where('method', '!=', 'unblock')
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      return last?.method ?? null;
    },

    async markUnsubscribed(senderId: string, at: number): Promise<void> {
      await db
        .updateTable('senders')
        .set({ category: 'unsubscribed', updated_at: at, unsubscribed_at: at, still_sending: 0 })
        .where('id', '=', senderId)
        .execute();
    },

    async addBlockRule(mailboxId: string, address: string, providerRef: string | null, at: number) {
      await db
        .insertInto('block_rules')
        .values({ mailbox_id: mailboxId, address, provider_ref: providerRef, created_at: at })
        .onConflict((oc) => oc.columns(['mailbox_id', 'address']).doUpdateSet({ provider_ref: providerRef }))
        .execute();
    },

    async blockRule(mailboxId: string, address: string): Promise<BlockRule | undefined> {
      const row = await db
        .selectFrom('block_rules')
        .select(['provider_ref', 'created_at'])
        .where('mailbox_id', '=', mailboxId)
        .where('address', '=', address)
        .executeTakeFirst();
      return row && { providerRef: row.provider_ref, createdAt: Number(row.created_at) };
    },

    async removeBlockRule(mailboxId: string, address: string): Promise<void> {
      await db
        .deleteFrom('block_rules')
        .where('mailbox_id', '=', mailboxId)
        .where('address', '=', address)
        .execute();
    },

    // ---- what a block moved to the trash (undo moves it back) --------------------------------------------

    /** The provider ids of a sender's newest messages in its mailbox (whose DKIM vouches for one-click). */
    async newestMessageIds(senderId: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('messages')
        .select('provider_id')
        .where('sender_id', '=', senderId)
        .where('gone', '=', 0)
        .orderBy('date', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => r.provider_id);
    },

    async trashedOf(mailboxId: string, address: string): Promise<Array<{ id: string; origin: string }>> {
      return db
        .selectFrom('trashed_messages')
        .select(['trash_id as id', 'origin'])
        .where('mailbox_id', '=', mailboxId)
        .where('address', '=', address)
        .execute();
    },

    async forgetTrashed(mailboxId: string, address: string): Promise<void> {
      await db
        .deleteFrom('trashed_messages')
        .where('mailbox_id', '=', mailboxId)
        .where('address', '=', address)
        .execute();
    },

    // ---- verification after a check -----------------------------------------------------------------------

    /**
     * Flags the mailbox's unsubscribed senders whose mail arrived more than `graceMs` after the unsubscribe,
     * except blocked ones (their mail goes to the trash anyway).
     */
    async flagStillSending(mailboxId: string, graceMs: number): Promise<void> {
      await db
        .updateTable('senders')
        .set({ still_sending: 1 })
        .where('mailbox_id', '=', mailboxId)
        .where('category', '=', 'unsubscribed')
        .where('still_sending', '=', 0)
        .where('unsubscribed_at', 'is not', null)
        .where(sql<boolean>`last_message_at > unsubscribed_at + ${graceMs}`)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('block_rules')
                .select('block_rules.address')
                .whereRef('block_rules.mailbox_id', '=', 'senders.mailbox_id')
                .whereRef('block_rules.address', '=', 'senders.address'),
            ),
          ),
        )
        .execute();
    },

    /** Flagged senders all of whose mail carries list headers: the ones a block may trash without asking. */
    async stillSendingListOnly(mailboxId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('senders')
        .select('id')
        .where('mailbox_id', '=', mailboxId)
        .where('category', '=', 'unsubscribed')
        .where('still_sending', '=', 1)
        .whereRef('list_message_count', '>=', 'message_count')
        .execute();
      return rows.map((r) => r.id);
    },

    // ---- one run per sender, across instances ------------------------------------------------------------

    /**
     * Takes the sender's flight: a new row, or a finished one reused. Null when another run holds it
     * (its lease still running); then `current` says since when, so the caller can wait for its answer.
     */
    async claimFlight(
      senderId: string,
      userId: string,
      now: number,
      leaseMs: number,
    ): Promise<
      { claimed: true; startedAt: number } | { claimed: false; startedAt: number; leaseUntil: number }
    > {
      // A finished run (answer set, lease cleared to 0) is taken over by an UPDATE guarded on that state,
      // so two instances cannot both take it; a missing row by an INSERT the primary key guards.
      const reused = await db
        .updateTable('unsubscribe_flights')
        .set({ started_at: now, lease_until: now + leaseMs, answer: null })
        .where('sender_id', '=', senderId)
        .where('lease_until', '=', 0)
        .executeTakeFirst();
      if (Number(reused.numUpdatedRows) === 1) return { claimed: true, startedAt: now };
      const inserted = await db
        .insertInto('unsubscribe_flights')
        .values({
          sender_id: senderId,
          user_id: userId,
          started_at: now,
          lease_until: now + leaseMs,
          answer: null,
        })
        .onConflict((oc) => oc.column('sender_id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { claimed: true, startedAt: now };
      const held = await this.flight(senderId);
      if (!held) return this.claimFlight(senderId, userId, now, leaseMs); // finished and removed meanwhile
      if (held.finished) return this.claimFlight(senderId, userId, now, leaseMs);
      return { claimed: false, startedAt: held.startedAt, leaseUntil: held.leaseUntil };
    },

    async flight(senderId: string): Promise<Flight | undefined> {
      const row = await db
        .selectFrom('unsubscribe_flights')
        .select(['started_at', 'lease_until', 'answer'])
        .where('sender_id', '=', senderId)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        startedAt: Number(row.started_at),
        leaseUntil: Number(row.lease_until),
        finished: Number(row.lease_until) === 0,
        answer: row.answer ? (JSON.parse(row.answer) as FlightAnswer) : null,
      };
    },

    async renewFlight(senderId: string, startedAt: number, leaseUntil: number): Promise<void> {
      await db
        .updateTable('unsubscribe_flights')
        .set({ lease_until: leaseUntil })
        .where('sender_id', '=', senderId)
        .where('started_at', '=', startedAt)
        .where('lease_until', '!=', 0)
        .execute();
    },

    /** Ends a run: its answer stays for callers that waited on it; lease 0 marks it finished. */
    async finishFlight(senderId: string, startedAt: number, answer: FlightAnswer): Promise<void> {
      await db
        .updateTable('unsubscribe_flights')
        .set({ lease_until: 0, answer: JSON.stringify(answer) })
        .where('sender_id', '=', senderId)
        .where('started_at', '=', startedAt)
        .execute();
    },

    /** Runs whose lease ran out (their process died), or every unfinished run (`all`: a lone SQLite process). */
    async abandonedFlights(now: number, options: { all: boolean }): Promise<AbandonedFlight[]> {
      let query = db
        .selectFrom('unsubscribe_flights')
        .select(['sender_id', 'started_at'])
        .where('lease_until', '!=', 0);
      if (!options.all) query = query.where('lease_until', '<', now);
      const rows = await query.execute();
      return rows.map((r) => ({ senderId: r.sender_id, startedAt: Number(r.started_at) }));
    },

    /** Receipts of attempts that were started and never settled (the process died in between). */
    async pendingReceipts(senderId: string): Promise<PendingReceipt[]> {
      return db
        .selectFrom('unsubscribe_receipts')
        .select(['id', 'method', 'target', 'recipient'])
        .where('sender_id', '=', senderId)
        .where('pending', '=', 1)
        .execute();
    },
  };
}

export type UnsubscribeRepository = ReturnType<typeof createUnsubscribeRepository>;
