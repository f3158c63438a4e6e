import type { Subscription, SubscriptionCategory, SubscriptionMessage } from '../../../contract/api.js';
import { notFound } from '../../lib/errors.js';
import { capName } from '../../mail/headers/detect.js';
import type { Repositories } from '../repositories.js';
import type { SubscriptionRow } from './repository.js';

// Reading subscriptions: the senders of a user's mailboxes that carry list headers.

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A stored message reference as the screens get it. */
export const presentMessage = (r: {
  provider_id: string;
  subject: string;
  date: number | null;
}): SubscriptionMessage => ({
  id: r.provider_id,
  subject: r.subject,
  date: iso(r.date),
});

export function createSubscriptionsService(repos: Pick<Repositories, 'subscriptions'>) {
  const repo = repos.subscriptions;

  const present = (r: SubscriptionRow): Subscription => ({
    id: r.id,
    address: r.address,
    // Names are cut when parsed; a row stored before that cap is cut here, so no list answer carries it.
    senderName: capName(r.sender_name),
    messageCount: Number(r.message_count),
    category: r.category,
    lastMessageAt: iso(r.last_message_at),
    account: r.account,
    unsubscribedAt: iso(r.unsubscribed_at === null ? null : Number(r.unsubscribed_at)),
    // The last successful receipt says how; a lifted block ('unblock') is not a way of unsubscribing.
    unsubscribeMethod:
      r.category === 'unsubscribed' && r.unsubscribe_method && r.unsubscribe_method !== 'unblock'
        ? r.unsubscribe_method
        : null,
    stillSending: r.still_sending === 1,
  });

  return {
    async list(userId: string, category: SubscriptionCategory): Promise<Subscription[]> {
      return (await repo.inCategory(userId, category)).map(present);
    },

    async byIds(userId: string, ids: string[]): Promise<Subscription[]> {
      if (ids.length === 0) return [];
      return (await repo.byIds(userId, ids)).map(present);
    },

    /** Keep or unsubscribed: moves the user's subscription to a category. Idempotent. */
    async setCategory(
      userId: string,
      senderId: string,
      category: SubscriptionCategory,
    ): Promise<Subscription> {
      if (!(await repo.setCategory(userId, senderId, category, Date.now()))) {
        throw notFound('Subscription not found.');
      }
      const [item] = await repo.byIds(userId, [senderId]);
      if (!item) throw notFound('Subscription not found.');
      return present(item);
    },

    async messages(userId: string, senderId: string): Promise<SubscriptionMessage[]> {
      if (!(await repo.ownsSender(userId, senderId))) throw notFound('Subscription not found.');
      return (await repo.messagesOf([senderId])).map(presentMessage);
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
