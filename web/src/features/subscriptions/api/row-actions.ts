// The row actions, their calls and mutations (docs/product.md §4 Keep, Unsubscribe flow, Block): each success
// writes its answer into the cached lists (list-query.ts applyAction). Failures are the flow's to answer
// (actions/use-subscription-actions.tsx), a 402 too (the plan dialog), except a 403, which the query
// client answers for all.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type Subscription,
  type SubscriptionCategory,
  subscriptionSchema,
  unsubscribeResultSchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { invalidateTrialUsage } from '../../billing';
import { subscriptionKeys } from './keys';
import { applyAction } from './list-query';

/** What an unsubscribe or a block may carry besides the sender. */
export interface ActionOptions {
  /** The user agreed that a block also trashes mail without list headers (after a 409). */
  confirmBlock?: boolean;
  /** Unsubscribe only: also move the sender's existing mail to the trash once unsubscribed. */
  moveToTrash?: boolean;
}

const ref = (subscriptionId: string) => ({ subscriptionId });

/** Keeps a sender (POST /keep-subscription); answers the updated item. */
export const keepSubscription = (subscriptionId: string) =>
  api.post(API.keepSubscription, ref(subscriptionId), subscriptionSchema);

/** After a Keep that lifted a block: the mail the block moved to the trash goes back (`restoredFromTrash`). */
export const putBackFromTrash = (subscriptionId: string) =>
  api.post(API.keepSubscription, { ...ref(subscriptionId), restoreFromTrash: true }, subscriptionSchema);

/** Unsubscribes from a sender (POST /unsubscribe); the answer says what comes next (actions/unsubscribe-flow.ts). */
export const unsubscribe = (subscriptionId: string, { confirmBlock, moveToTrash }: ActionOptions = {}) =>
  api.post(
    API.unsubscribe,
    {
      ...ref(subscriptionId),
      ...(confirmBlock ? { confirmBlock } : {}),
      // Always said, either way: without it the server takes the spec's default (a block trashes the mail).
      ...(moveToTrash === undefined ? {} : { moveToTrash }),
    },
    unsubscribeResultSchema,
  );

/** Undoes a Keep: the sender goes back to the review list; answers the updated item. */
export const reviewSubscription = (subscriptionId: string) =>
  api.post(API.reviewSubscription, ref(subscriptionId), subscriptionSchema);

/** Undoes a Block: the rule goes and the mail it trashed moves back (`restoredFromTrash`). */
export const unblockSubscription = (subscriptionId: string) =>
  api.post(API.unblockSubscription, ref(subscriptionId), subscriptionSchema);

/** Confirms a manual unsubscribe (the user opened the sender's page); answers the updated item. */
export const manualUnsubscribe = (subscriptionId: string) =>
  api.post(API.manualUnsubscribe, ref(subscriptionId), subscriptionSchema);

/** Blocks a sender (still sending, or its unsubscribe mail could not be sent); answers the updated item. */
export const blockSubscription = (subscriptionId: string, { confirmBlock }: ActionOptions = {}) =>
  api.post(
    API.blockSubscription,
    { ...ref(subscriptionId), ...(confirmBlock ? { confirmBlock } : {}) },
    subscriptionSchema,
  );

interface WithOptions extends ActionOptions {
  item: Subscription;
}

/** An undo: `item` as the action left it (its category is the list it is in now). */
interface Undo {
  item: Subscription;
}

/** A 402 of these is the flow's plan dialog (actions/use-subscription-actions.tsx), not a jump to /pricing. */
const PLAN_DIALOG = { planDialog: true } as const;

/** The mutations of the rows of the `category` list. */
export function useSubscriptionMutations(category: SubscriptionCategory) {
  const queryClient = useQueryClient();
  const moved = (item: Subscription, updated?: Subscription) =>
    applyAction(queryClient, category, item.id, updated);
  // An unsubscribe, a block or a manual confirmation may use one of the free trial's unsubscribes.
  const usedTrial = () => void invalidateTrialUsage(queryClient);

  const keep = useMutation({
    mutationKey: ['keep-subscription'],
    meta: PLAN_DIALOG,
    mutationFn: (item: Subscription) => keepSubscription(item.id),
    onSuccess: (updated, item) => moved(item, updated),
  });
  const block = useMutation({
    mutationKey: ['block-subscription'],
    meta: PLAN_DIALOG,
    onSettled: usedTrial,
    mutationFn: ({ item, ...options }: WithOptions) => blockSubscription(item.id, options),
    onSuccess: (updated, { item }) => moved(item, updated),
  });
  const manual = useMutation({
    mutationKey: ['manual-unsubscribe'],
    meta: PLAN_DIALOG,
    onSettled: usedTrial,
    mutationFn: (item: Subscription) => manualUnsubscribe(item.id),
    onSuccess: (updated, item) => moved(item, updated),
  });
  // Its answer says what comes next (actions/unsubscribe-flow.ts); the item leaves the list by `removed`.
  const unsubscribeMutation = useMutation({
    mutationKey: ['unsubscribe'],
    meta: PLAN_DIALOG,
    onSettled: usedTrial,
    mutationFn: ({ item, ...options }: WithOptions) => unsubscribe(item.id, options),
  });
  // Undo of a Keep and of a Block: the item leaves the list the action had put it in and goes back to
  // its own, which is fetched again when it is not all loaded (its place may be on a page not yet
  // fetched, and the user expects to see it back).
  const undone = (item: Subscription, updated: Subscription) => {
    applyAction(queryClient, item.category, item.id, updated);
    if (updated.category !== item.category) {
      void queryClient.invalidateQueries({ queryKey: subscriptionKeys.list(updated.category) });
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
    unsubscribe: unsubscribeMutation,
    review,
    unblock,
    /** The unsubscribe succeeded (one click, or blocked and trashed): the item leaves the list. */
    removed: (item: Subscription) => moved(item),
  };
}
