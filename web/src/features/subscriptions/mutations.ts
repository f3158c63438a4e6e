// The row actions as mutations (docs/product.md §4 Keep, Unsubscribe flow, Block): each success writes its answer
// into the cached lists (queries.ts applyAction). Failures are the flow's to answer
// (useSubscriptionActions.tsx), except a 403, which the query client answers for all.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subscription, SubscriptionCategory } from '../../../../contract/api.js';
import {
  blockSubscription,
  keepSubscription,
  manualUnsubscribe,
  unsubscribe as unsubscribeCall,
} from '../../api/calls';
import { applyAction } from './queries';

interface WithConfirm {
  item: Subscription;
  /** The user agreed that a block also trashes mail without list headers (after a 409). */
  confirmBlock?: boolean;
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
    mutationFn: ({ item, confirmBlock = false }: WithConfirm) => unsubscribeCall(item.id, confirmBlock),
  });

  return {
    keep,
    block,
    manualUnsubscribe: manual,
    unsubscribe,
    /** The unsubscribe succeeded (one click, or blocked and trashed): the item leaves the list. */
    removed: (item: Subscription) => moved(item),
  };
}
