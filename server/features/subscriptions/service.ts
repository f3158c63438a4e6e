import { sql } from 'kysely';
import type {
  Subscription,
  SubscriptionCategory,
  SubscriptionMessage,
  UnsubscribeMethod,
} from '../../../contract/api.js';
import type { Db } from '../../db/index.js';
import { notFound } from '../../lib/errors.js';
import { capName } from '../../mail/headers/detect.js';

// Reading subscriptions: the senders of a user's mailboxes that carry list headers.

export const CATEGORIES: readonly SubscriptionCategory[] = ['uncategorized', 'kept', 'unsubscribed'];

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function createSubscriptionsService(db: Db) {
  const base = (userId: string) =>
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

  type Row = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;
  const present = (r: Row): Subscription => ({
    id: r.id,
    address: r.address,
    // Names are cut when parsed; a row stored before that cap is cut here, so no list answer carries it.
    senderName: capName(r.sender_name),
    messageCount: Number(r.message_count),
    category: r.category as SubscriptionCategory,
    lastMessageAt: iso(r.last_message_at),
    account: r.account,
    unsubscribedAt: iso(r.unsubscribed_at === null ? null : Number(r.unsubscribed_at)),
    unsubscribeMethod:
      r.category === 'unsubscribed' ? ((r.unsubscribe_method ?? null) as UnsubscribeMethod | null) : null,
    stillSending: r.still_sending === 1,
  });

  return {
    async list(userId: string, category: SubscriptionCategory): Promise<Subscription[]> {
      const rows = await base(userId)
        .where('senders.category', '=', category)
        .orderBy('senders.last_message_at', 'desc')
        .orderBy('senders.address')
        .execute();
      return rows.map(present);
    },

    async byIds(userId: string, ids: string[]): Promise<Subscription[]> {
      if (ids.length === 0) return [];
      return (await base(userId).where('senders.id', 'in', ids).execute()).map(present);
    },

    /** Keep or unsubscribed: moves the user's subscription to a category. Idempotent. */
    async setCategory(
      userId: string,
      senderId: string,
      category: SubscriptionCategory,
    ): Promise<Subscription> {
      const updated = await db
        .updateTable('senders')
        .set({
          category,
          updated_at: Date.now(),
          // Set once when the sender becomes unsubscribed; cleared when it moves elsewhere.
          unsubscribed_at:
            category === 'unsubscribed' ? sql<number>`coalesce(unsubscribed_at, ${Date.now()})` : null,
          ...(category === 'unsubscribed' ? {} : { still_sending: 0 }),
        })
        .where('id', '=', senderId)
        .where('user_id', '=', userId)
        .where('is_subscription', '=', 1)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw notFound('Subscription not found.');
      return present(await base(userId).where('senders.id', '=', senderId).executeTakeFirstOrThrow());
    },

    async messages(userId: string, senderId: string): Promise<SubscriptionMessage[]> {
      const owner = await db
        .selectFrom('senders')
        .select('id')
        .where('id', '=', senderId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!owner) throw notFound('Subscription not found.');
      const rows = await db
        .selectFrom('messages')
        .select(['provider_id', 'subject', 'date'])
        .where('sender_id', '=', senderId)
        .orderBy('date', 'desc')
        .limit(500)
        .execute();
      return rows.map((r) => ({ id: r.provider_id, subject: r.subject, date: iso(r.date) }));
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
