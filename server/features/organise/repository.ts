import type { Selectable } from 'kysely';
import type { SenderRule } from '#contract/api.js';
import type { Db } from '#server/db/index.js';
import type { SenderRulesTable, SubscriptionCategory } from '#server/db/schema.js';
import type { Destination, MovedMessage, TrashedMessage } from '#server/mail/provider.js';
import { followMoves } from '../mailboxes/repository.js';
import type { TrackedMessage } from './engine.js';
import { columnsOfRule, ruleOfColumns } from './rule-repository.js';

// SQL of organising: sender rules, the moves rules and the Screener made (ids and folders, for undo),
// and the Screener's switch per mailbox and mark per sender.

/** A sender's rule as stored: its fields (rule.ts) and its run state. */
export interface StoredRule extends SenderRule {
  folderName: string | null;
  providerRef: string | null;
  nextDueAt: number | null;
  /** What the rule keeps, as its last run left it (engine.ts); null: not known. */
  tracked: TrackedMessage[] | null;
}

/** A sender of the user, as organising needs it. */
export interface OrganisedSender {
  id: string;
  userId: string;
  mailboxId: string;
  address: string;
  senderName: string;
  account: string;
  category: SubscriptionCategory;
  isSubscription: boolean;
  screened: boolean;
  /** Blocked in its mailbox (a block rule, ours or the provider's). */
  blocked: boolean;
}

export type MoveCause = 'rule' | 'screener';

/** A move of one of the mailbox's senders' messages, as recordMoves takes it. */
export interface OwnedMove extends MovedMessage {
  senderId: string;
}

/** A recorded move: the message where it is now, where it came from, and the destination it went to. */
export interface RecordedMove extends TrashedMessage {
  destination: Destination;
}

export function createOrganiseRepository(db: Db) {
  return {
    /** The user's sender (undefined for another user's id or none). */
    async sender(userId: string, senderId: string): Promise<OrganisedSender | undefined> {
      const row = await db
        .selectFrom('senders')
        .innerJoin('mailboxes', 'mailboxes.id', 'senders.mailbox_id')
        .leftJoin('block_rules', (j) =>
          j
            .onRef('block_rules.mailbox_id', '=', 'senders.mailbox_id')
            .onRef('block_rules.address', '=', 'senders.address'),
        )
        .select([
          'senders.id',
          'senders.user_id',
          'senders.mailbox_id',
          'senders.address',
          'senders.sender_name',
          'senders.category',
          'senders.is_subscription',
          'senders.screened',
          'mailboxes.email',
          'block_rules.address as blocked',
        ])
        .where('senders.id', '=', senderId)
        .where('senders.user_id', '=', userId)
        .executeTakeFirst();
      return (
        row && {
          id: row.id,
          userId: row.user_id,
          mailboxId: row.mailbox_id,
          address: row.address,
          senderName: row.sender_name,
          account: row.email,
          category: row.category,
          isSubscription: row.is_subscription === 1,
          screened: row.screened === 1,
          blocked: row.blocked !== null,
        }
      );
    },

    async rule(senderId: string): Promise<StoredRule | undefined> {
      const row = await db
        .selectFrom('sender_rules')
        .selectAll()
        .where('sender_id', '=', senderId)
        .executeTakeFirst();
      return row && toRule(row);
    },

    /** Every rule of the user's senders, by sender name then address. */
    async rulesOfUser(
      userId: string,
    ): Promise<
      Array<{ senderId: string; address: string; senderName: string; account: string; rule: StoredRule }>
    > {
      const rows = await db
        .selectFrom('sender_rules')
        .innerJoin('senders', 'senders.id', 'sender_rules.sender_id')
        .innerJoin('mailboxes', 'mailboxes.id', 'senders.mailbox_id')
        .selectAll('sender_rules')
        .select(['senders.address', 'senders.sender_name', 'mailboxes.email'])
        .where('senders.user_id', '=', userId)
        .orderBy('senders.sender_name')
        .orderBy('senders.address')
        .execute();
      return rows.map((row) => ({
        senderId: row.sender_id,
        address: row.address,
        senderName: row.sender_name,
        account: row.email,
        rule: toRule(row),
      }));
    },

    /** The rules of a mailbox's senders, with the sender's address (the check applies them). */
    async rulesOfMailbox(
      mailboxId: string,
    ): Promise<Array<{ senderId: string; address: string; blocked: boolean; rule: StoredRule }>> {
      const rows = await db
        .selectFrom('sender_rules')
        .innerJoin('senders', 'senders.id', 'sender_rules.sender_id')
        .leftJoin('block_rules', (j) =>
          j
            .onRef('block_rules.mailbox_id', '=', 'senders.mailbox_id')
            .onRef('block_rules.address', '=', 'senders.address'),
        )
        .selectAll('sender_rules')
        .select(['senders.address', 'block_rules.address as blocked'])
        .where('sender_rules.mailbox_id', '=', mailboxId)
        .execute();
      return rows.map((row) => ({
        senderId: row.sender_id,
        address: row.address,
        blocked: row.blocked !== null,
        rule: toRule(row),
      }));
    },

    async saveRule(sender: { id: string; mailboxId: string }, rule: StoredRule, now: number): Promise<void> {
      const values = {
        ...columnsOfRule(rule),
        provider_ref: rule.providerRef,
        next_due_at: rule.nextDueAt,
        tracked: rule.tracked === null ? null : JSON.stringify(rule.tracked),
        updated_at: now,
      };
      await db
        .insertInto('sender_rules')
        .values({ sender_id: sender.id, mailbox_id: sender.mailboxId, created_at: now, ...values })
        .onConflict((oc) => oc.column('sender_id').doUpdateSet(values))
        .execute();
    },

    /** What runs of rules left: when each is next due, and what it keeps (one transaction). */
    async saveRuns(
      runs: ReadonlyArray<{ senderId: string; nextDueAt: number | null; tracked: TrackedMessage[] | null }>,
    ): Promise<void> {
      if (runs.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const run of runs) {
          await trx
            .updateTable('sender_rules')
            .set({
              next_due_at: run.nextDueAt,
              tracked: run.tracked === null ? null : JSON.stringify(run.tracked),
            })
            .where('sender_id', '=', run.senderId)
            .execute();
        }
      });
    },

    async deleteRule(senderId: string): Promise<void> {
      await db.deleteFrom('sender_rules').where('sender_id', '=', senderId).execute();
    },

    /**
     * Records moves. A message moved again (its `previous` id is a recorded one) keeps its first origin and
     * cause, so an undo puts it back where it was before the product touched it. The product's references
     * to the message follow it to its new id, and the new id counts as scanned: a check finding it in its
     * new folder does not count it twice.
     */
    async recordMoves(
      mailboxId: string,
      cause: MoveCause,
      destination: Destination,
      moved: ReadonlyArray<OwnedMove>,
      now: number,
    ): Promise<void> {
      if (moved.length === 0) return;
      const dest = JSON.stringify(destination);
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < moved.length; i += 200) {
          const chunk = moved.slice(i, i + 200);
          const earlier = new Map(
            (
              await trx
                .selectFrom('moved_messages')
                .select(['moved_id', 'origin', 'cause'])
                .where('mailbox_id', '=', mailboxId)
                .where(
                  'moved_id',
                  'in',
                  chunk.map((m) => m.previous),
                )
                .execute()
            ).map((r) => [r.moved_id, r]),
          );
          if (earlier.size > 0) {
            await trx
              .deleteFrom('moved_messages')
              .where('mailbox_id', '=', mailboxId)
              .where('moved_id', 'in', [...earlier.keys()])
              .execute();
          }
          await trx
            .insertInto('moved_messages')
            .values(
              chunk.map((m) => {
                const first = earlier.get(m.previous);
                return {
                  mailbox_id: mailboxId,
                  sender_id: m.senderId,
                  cause: first?.cause ?? cause,
                  destination: dest,
                  moved_id: m.id,
                  origin: first?.origin ?? m.origin,
                  created_at: now,
                };
              }),
            )
            .onConflict((oc) => oc.columns(['mailbox_id', 'moved_id']).doUpdateSet({ destination: dest }))
            .execute();
          await followMoves(trx, mailboxId, chunk, destination.kind === 'trash' ? 'trash' : 'folder');
        }
      });
    },

    /** The moves of a sender (of one cause), grouped by where they went. */
    async movesOf(senderId: string, cause: MoveCause): Promise<RecordedMove[]> {
      const rows = await db
        .selectFrom('moved_messages')
        .select(['moved_id', 'origin', 'destination'])
        .where('sender_id', '=', senderId)
        .where('cause', '=', cause)
        .execute();
      return rows.map((r) => ({
        id: r.moved_id,
        origin: r.origin,
        destination: JSON.parse(r.destination) as Destination,
      }));
    },

    async forgetMoves(senderId: string, cause?: MoveCause): Promise<void> {
      let q = db.deleteFrom('moved_messages').where('sender_id', '=', senderId);
      if (cause) q = q.where('cause', '=', cause);
      await q.execute();
    },

    async screenerOn(mailboxId: string): Promise<boolean> {
      const row = await db
        .selectFrom('mailboxes')
        .select('screener')
        .where('id', '=', mailboxId)
        .executeTakeFirst();
      return row?.screener === 1;
    },

    /** The user's mailbox of this address (undefined: not theirs). */
    async mailboxOf(userId: string, email: string): Promise<{ id: string; screener: boolean } | undefined> {
      const row = await db
        .selectFrom('mailboxes')
        .select(['id', 'screener'])
        .where('user_id', '=', userId)
        .where('email', '=', email.trim().toLowerCase())
        .executeTakeFirst();
      return row && { id: row.id, screener: row.screener === 1 };
    },

    async setScreener(mailboxId: string, on: boolean): Promise<void> {
      await db
        .updateTable('mailboxes')
        .set({ screener: on ? 1 : 0 })
        .where('id', '=', mailboxId)
        .execute();
    },

    /**
     * Marks as screened the senders among `senderIds` that the Screener takes: subscriptions still waiting
     * for a decision (the list's own rule; kept senders and personal mail never). Answers the marked ids.
     */
    async markScreened(mailboxId: string, senderIds: string[]): Promise<string[]> {
      if (senderIds.length === 0) return [];
      const rows = await db
        .updateTable('senders')
        .set({ screened: 1 })
        .where('mailbox_id', '=', mailboxId)
        .where('id', 'in', senderIds)
        .where('is_subscription', '=', 1)
        .where('category', '=', 'uncategorized')
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },

    /** Senders of the mailbox still screened (waiting for the user), with their addresses. */
    async screenedSenders(mailboxId: string): Promise<Array<{ id: string; address: string }>> {
      return db
        .selectFrom('senders')
        .select(['id', 'address'])
        .where('mailbox_id', '=', mailboxId)
        .where('screened', '=', 1)
        .where('category', '=', 'uncategorized')
        .execute();
    },

    async clearScreened(senderIds: string[]): Promise<void> {
      if (senderIds.length === 0) return;
      await db.updateTable('senders').set({ screened: 0 }).where('id', 'in', senderIds).execute();
    },

    /** Every sender of the mailbox with screened moves recorded or the mark on. */
    async screenerSendersOfMailbox(mailboxId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('senders')
        .select('id')
        .where('mailbox_id', '=', mailboxId)
        .where((eb) =>
          eb.or([
            eb('screened', '=', 1),
            eb.exists(
              eb
                .selectFrom('moved_messages')
                .select('moved_messages.sender_id')
                .whereRef('moved_messages.sender_id', '=', 'senders.id')
                .where('moved_messages.cause', '=', 'screener'),
            ),
          ]),
        )
        .execute();
      return rows.map((r) => r.id);
    },
  };
}

/** A stored rule row as the service sees it (PostgreSQL answers bigint columns as strings). */
function toRule(
  row: Omit<Selectable<SenderRulesTable>, 'sender_id' | 'mailbox_id' | 'created_at' | 'updated_at'>,
): StoredRule {
  return {
    ...ruleOfColumns(row),
    folderName: row.folder_name,
    providerRef: row.provider_ref,
    nextDueAt: row.next_due_at === null ? null : Number(row.next_due_at),
    tracked: row.tracked === null ? null : (JSON.parse(row.tracked) as TrackedMessage[]),
  };
}

export type OrganiseRepository = ReturnType<typeof createOrganiseRepository>;
