// The row actions as mutations (docs/product.md §4 Keep, Unsubscribe flow, Block): each success writes its answer
// into the cached lists (queries.ts applyAction). Failures are the flow's to answer
// (useSubscriptionActions.tsx), except a 403, which the query client answers for all.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subscription, SubscriptionCategory } from '#contract/api.js';
import {
  blockSubscription,
  keepSubscription,
  manualUnsubscribe,
  reviewSubscription,
  unblockSubscription,
  unsubscribe as unsubscribeCall,
} from '../../api/calls';
import { queryKeys } from '../../lib/query-keys';
import { applyAction } from './queries';

interface WithConfirm {
  item: Subscription;
  /** The user agreed that a block also trashes mail without list headers (after a 409). */
  confirmBlock?: boolean;
  /** Unsubscribe only: also move the sender's existing mail to the trash. */
  moveToTrash?: boolean;
}

/** An undo: `item` as the action left it (its category is the list it is in now). */
interface Undo {
  item: Subscription;
}

/** The mutations of the rows of the `category` list. */
export function useSubscriptionMutations(category: SubscriptionCategory) {
  const queryClient = useQueryClient();
  const moved = (item: Subscription, updated?: Subscription) =>
    applyAction(queryClient, category, item.id, updated);

  const keep = useMutation({
    mutationKey: ['keep-subscription'],
    mutationFn: (item: Subscription) => keepSubscription(item.id),
    onSuccess: (updated, item) => moved(item, updated),
  });
  const block = useMutation({
    mutationKey: ['block-subscription'],
    mutationFn: ({ item, confirmBlock = false }: WithConfirm) => blockSubscription(item.id, confirmBlock),
    onSuccess: (updated, { item }) => moved(item, updated),
  });
  const manual = useMutation({
    mutationKey: ['manual-unsubscribe'],
    mutationFn: (item: Subscription) => manualUnsubscribe(item.id),
    onSuccess: (updated, item) => moved(item, updated),
  });
  // Its answer says what comes next (unsubscribeFlow.ts); the item leaves the list by `removed`.
  const unsubscribe = useMutation({
    mutationKey: ['unsubscribe'],
    mutationFn: ({ item, confirmBlock = false, moveToTrash = false }: WithConfirm) =>
      unsubscribeCall(item.id, confirmBlock, moveToTrash),
  });
  // Undo of a Keep and of a Block: the item leaves the list the action had put it in and goes back to
  // its own, which is fetched again when it is not all loaded (its place may be on a page not yet
  // fetched, and the user expects to see it back).
  const undone = (item: Subscription, updated: Subscription) => {
    applyAction(queryClient, item.category, item.id, updated);
    if (updated.category !== item.category) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.subscriptions(updated.category) });
    }
  };
  const review = useMutation({
    mutationKey: ['review-subscription'],
    mutationFn: ({ item }: Undo) => reviewSubscription(item.id),
    onSuccess: (updated, { item }) => undone(item, updated),
  });
  const unblock = useMutation({
    mutationKey: ['unblock-subscription'],
    mutationFn: ({ item }: Undo) => unblockSubscription(item.id),
    onSuccess: (updated, { item }) => undone(item, updated),
  });

  return {
    keep,
    block,
    manualUnsubscribe: manual,
    unsubscribe,
    review,
    unblock,
    /** The unsubscribe succeeded (one click, or blocked and trashed): the item leaves the list. */
    removed: (item: Subscription) => moved(item),
  };
}
