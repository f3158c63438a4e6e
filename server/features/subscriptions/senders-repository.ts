import { sql } from 'kysely';
import type { Db } from '#server/db/index.js';
import type { SubscriptionCategory } from '#server/db/schema.js';
import type { MessagePosition } from './cursor.js';
import { nullableNumber, type StoredSubscription, type SubscriptionRows } from './rows-repository.js';
import type { StoredMessage } from './subscription.js';

// One user's subscriptions by id: read them, move one to a category, whether a sender is theirs, and the
// references to their messages.

export function createSubscriptionSendersRepository(db: Db, shared: SubscriptionRows) {
  const { subscriptions, toSubscription } = shared;

  return {
    async byIds(userId: string, ids: readonly string[]): Promise<StoredSubscription[]> {
      return (await subscriptions(userId).where('senders.id', 'in', ids).execute()).map(toSubscription);
    },

    /** Moves the user's subscription to a category; false when it is not theirs (or not a subscription). */
    async setCategory(
      userId: string,
      senderId: string,
      category: SubscriptionCategory,
      now: number,
    ): Promise<boolean> {
      const updated = await db
        .updateTable('senders')
        .set({
          category,
          updated_at: now,
          // Set once when the sender becomes unsubscribed; cleared when it moves elsewhere.
          unsubscribed_at:
            category === 'unsubscribed' ? sql<number>`coalesce(unsubscribed_at, ${now})` : null,
          ...(category === 'unsubscribed' ? {} : { still_sending: 0 }),
        })
        .where('id', '=', senderId)
        .where('user_id', '=', userId)
        .where('is_subscription', '=', 1)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },

    /** Whether the sender is the user's (any sender, listed or not). */
    async ownsSender(userId: string, senderId: string): Promise<boolean> {
      const row = await db
        .selectFrom('senders')
        .select('id')
        .where('id', '=', senderId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The newest 500 message references of the senders, newest first. */
    async messagesOf(senderIds: readonly string[]): Promise<StoredMessage[]> {
      const rows = await db
        .selectFrom('messages')
        .select(['provider_id', 'subject', 'date'])
        .where('sender_id', 'in', senderIds)
        // Mail the product moved to the trash is not the sender's any more until an undo brings it back.
        .where('gone', '=', 0)
        .orderBy('date', 'desc')
        .limit(500)
        .execute();
      return rows.map((r) => ({
        providerId: r.provider_id,
        subject: r.subject,
        date: nullableNumber(r.date),
      }));
    },

    /**
     * One page of a sender's message references, newest first (undated ones last, on both databases: their
     * date counts as 0), after `after` when given; one more than `limit` tells the caller a next page exists.
     */
    async messagePage(
      senderId: string,
      limit: number,
      after: MessagePosition | null,
    ): Promise<StoredMessage[]> {
      const dated = sql<number>`coalesce(date, 0)`;
      let query = db
        .selectFrom('messages')
        .select(['provider_id', 'subject', 'date'])
        .where('sender_id', '=', senderId)
        .where('gone', '=', 0);
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb(dated, '<', after.date),
            eb.and([eb(dated, '=', after.date), eb('provider_id', '<', after.providerId)]),
          ]),
        );
      }
      const rows = await query
        .orderBy(dated, 'desc')
        .orderBy('provider_id', 'desc')
        .limit(limit + 1)
        .execute();
      return rows.map((r) => ({
        providerId: r.provider_id,
        subject: r.subject,
        date: nullableNumber(r.date),
      }));
    },
  };
}
