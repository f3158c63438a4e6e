import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/index.js';
import type { SyncState } from '../../mail/provider.js';
import type { SenderTally } from './aggregate.js';

// SQL of scans: senders, message references and the mailbox's checkpoint. A batch's tallies and
// the checkpoint after it are written in one transaction, so a scan killed between batches
// resumes with nothing lost and nothing counted twice.

export interface BatchResult {
  /** Ids of senders that became subscriptions with this batch (for the live event). */
  newSubscriptionIds: string[];
}

export function createScansRepository(db: Db) {
  return {
    async commitBatch(
      mailbox: { id: string; userId: string },
      tallies: Map<string, SenderTally>,
      state: SyncState,
      now: number,
    ): Promise<BatchResult> {
      const newSubscriptionIds: string[] = [];
      await db.transaction().execute(async (trx) => {
        const addresses = [...tallies.keys()];
        const existing = new Map<
          string,
          {
            id: string;
            is_subscription: number;
            last_message_at: number | null;
            unsubscribe_seen_at: number | null;
          }
        >();
        for (let i = 0; i < addresses.length; i += 500) {
          const rows = await trx
            .selectFrom('senders')
            .select(['id', 'address', 'is_subscription', 'last_message_at', 'unsubscribe_seen_at'])
            .where('mailbox_id', '=', mailbox.id)
            .where('address', 'in', addresses.slice(i, i + 500))
            .execute();
          for (const r of rows) existing.set(r.address, r);
        }
        const subscribed: Array<{ senderId: string; tally: SenderTally }> = [];
        for (const tally of tallies.values()) {
          const row = existing.get(tally.address);
          const unsub = tally.unsubscribe;
          if (!row) {
            const id = randomUUID();
            await trx
              .insertInto('senders')
              .values({
                id,
                user_id: mailbox.userId,
                mailbox_id: mailbox.id,
                address: tally.address,
                sender_name: tally.name,
                message_count: tally.count,
                last_message_at: tally.lastMessageAt,
                is_subscription: tally.isSubscription ? 1 : 0,
                list_signal: tally.listSignal ? 1 : 0,
                one_click: unsub?.oneClick ? 1 : 0,
                unsubscribe_http: JSON.stringify(unsub?.http ?? []),
                unsubscribe_mailto: JSON.stringify(unsub?.mailto ?? []),
                unsubscribe_seen_at: unsub?.seenAt ?? null,
                created_at: now,
                updated_at: now,
              })
              .execute();
            if (tally.isSubscription) {
              newSubscriptionIds.push(id);
              subscribed.push({ senderId: id, tally });
            }
            continue;
          }
          const newerMessage = (tally.lastMessageAt ?? 0) > (row.last_message_at ?? 0);
          const newerLinks =
            unsub && (row.unsubscribe_seen_at === null || (unsub.seenAt ?? 0) > row.unsubscribe_seen_at);
          await trx
            .updateTable('senders')
            .set((eb) => ({
              message_count: eb('message_count', '+', tally.count),
              updated_at: now,
              ...(newerMessage ? { last_message_at: tally.lastMessageAt, sender_name: tally.name } : {}),
              ...(tally.isSubscription ? { is_subscription: 1 } : {}),
              ...(tally.listSignal ? { list_signal: 1 } : {}),
              ...(newerLinks
                ? {
                    one_click: unsub.oneClick ? 1 : 0,
                    unsubscribe_http: JSON.stringify(unsub.http),
                    unsubscribe_mailto: JSON.stringify(unsub.mailto),
                    unsubscribe_seen_at: unsub.seenAt,
                  }
                : {}),
            }))
            .where('id', '=', row.id)
            .execute();
          if (row.is_subscription === 0 && tally.isSubscription) newSubscriptionIds.push(row.id);
          if (row.is_subscription === 1 || tally.isSubscription) subscribed.push({ senderId: row.id, tally });
        }
        const refs = subscribed.flatMap(({ senderId, tally }) =>
          tally.messages.map((m) => ({
            mailbox_id: mailbox.id,
            provider_id: m.id,
            sender_id: senderId,
            folder: m.folder,
            subject: m.subject.slice(0, 500),
            date: m.date,
          })),
        );
        for (let i = 0; i < refs.length; i += 200) {
          await trx
            .insertInto('messages')
            .values(refs.slice(i, i + 200))
            .onConflict((oc) => oc.columns(['mailbox_id', 'provider_id']).doNothing())
            .execute();
        }
        await trx
          .updateTable('mailboxes')
          .set({ sync_state: JSON.stringify(state), last_error: null })
          .where('id', '=', mailbox.id)
          .execute();
      });
      return { newSubscriptionIds };
    },

    async markScanComplete(mailboxId: string, now: number): Promise<void> {
      await db
        .updateTable('mailboxes')
        .set({ scan_complete: 1, last_scanned_at: now, status: 'active', last_error: null })
        .where('id', '=', mailboxId)
        .execute();
    },
  };
}

export type ScansRepository = ReturnType<typeof createScansRepository>;
