import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { SubscriptionCategory } from '../../db/schema.js';

// SQL of subscriptions: the senders of a user's mailboxes that are lists, with the mailbox they wrote to
// and how they were unsubscribed, and the references to their messages.

export function createSubscriptionsRepository(db: Db) {
  /** The user's subscriptions, with the columns the screens show. */
  const subscriptions = (userId: string) =>
    db
      .selectFrom('senders')
      .innerJoin('mailboxes', 'mailboxes.id', 'senders.mailbox_id')
      .select([
        'senders.id',
        'senders.address',
        'senders.sender_name',
        'senders.message_count',
        'senders.category',
        'senders.last_message_at',
        'senders.unsubscribed_at',
        'senders.still_sending',
        'mailboxes.email as account',
        (eb) =>
          eb
            .selectFrom('unsubscribe_receipts')
            .select('unsubscribe_receipts.method')
            .whereRef('unsubscribe_receipts.sender_id', '=', 'senders.id')
            .where('unsubscribe_receipts.ok', '=', 1)
            .orderBy('unsubscribe_receipts.created_at', 'desc')
            .limit(1)
            .as('unsubscribe_method'),
      ])
      .where('senders.user_id', '=', userId)
      .where('senders.is_subscription', '=', 1);

  return {
    /** A category's subscriptions, newest mail first. */
    async inCategory(userId: string, category: SubscriptionCategory) {
      return subscriptions(userId)
        .where('senders.category', '=', category)
        .orderBy('senders.last_message_at', 'desc')
        .orderBy('senders.address')
        .execute();
    },

    async byIds(userId: string, ids: readonly string[]) {
      return subscriptions(userId).where('senders.id', 'in', ids).execute();
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
    async messagesOf(senderIds: readonly string[]) {
      return db
        .selectFrom('messages')
        .select(['provider_id', 'subject', 'date'])
        .where('sender_id', 'in', senderIds)
        .orderBy('date', 'desc')
        .limit(500)
        .execute();
    },
  };
}

export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;
export type SubscriptionRow = Awaited<ReturnType<SubscriptionsRepository['byIds']>>[number];
