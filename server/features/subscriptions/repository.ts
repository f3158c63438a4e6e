import type { Db } from '#server/db/index.js';
import { sendersStamp } from '#server/db/senders-stamp.js';
import { createBrandsRepository } from './brands-repository.js';
import { createListPageRepository } from './page-repository.js';
import { createSubscriptionRows } from './rows-repository.js';
import { createSubscriptionSendersRepository } from './senders-repository.js';

// SQL of subscriptions: the senders of a user's mailboxes that are lists, with the mailbox they wrote to
// and how they were unsubscribed, and the references to their messages. In files of their own, merged
// here: what the queries share (rows-repository.ts), the list's pages and totals (page-repository.ts), the
// list grouped by brand (brands-repository.ts) and the reads and writes of given senders
// (senders-repository.ts). The types they answer are in subscription.ts, StoredSubscription beside its
// mapper in rows-repository.ts.

export type { StoredSubscription } from './rows-repository.js';
export {
  type BrandGroupsQuery,
  type BrandPosition,
  containsPattern,
  type KeysetPosition,
  ORDER_DIRECTIONS,
  type PageQuery,
  type StoredBrand,
  type StoredMessage,
  type SubscriptionOrder,
} from './subscription.js';

export function createSubscriptionsRepository(db: Db) {
  const shared = createSubscriptionRows(db);
  return {
    ...createBrandsRepository(db, shared),
    /** A string that changes when the user's senders may have (db/senders-stamp.ts). */
    stamp: sendersStamp(db),
    ...createListPageRepository(db, shared),
    ...createSubscriptionSendersRepository(db, shared),
  };
}

export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;
