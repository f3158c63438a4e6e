import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Subscription, subscriptionsResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { subscriptionKeys, unblockSubscription } from '../../subscriptions';
import { ruleKeys } from './keys';

/**
 * The senders the user blocked: the Unsubscribed list (GET /get-unsubscribe-emails?category=unsubscribed)
 * where the last thing done was a block. A block is a rule too (its mail goes to the trash), so the Rules
 * screen lists them beside the sender rules.
 */
export async function getBlockedSenders(): Promise<Subscription[]> {
  const query = new URLSearchParams({ category: 'unsubscribed' });
  const { data } = await api.get(`${API.subscriptions}?${query}`, subscriptionsResponseSchema);
  return data.filter((s) => s.unsubscribeMethod === 'block');
}

export const useBlockedSenders = () =>
  useQuery({
    queryKey: ruleKeys.blocked,
    queryFn: getBlockedSenders,
    meta: { errorMessage: 'Failed to fetch the blocked senders...' },
  });

/** Unblock (POST /unblock-subscription): the block goes, its trashed mail comes back, the lists follow. */
export function useUnblockSender() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['unblock-subscription'],
    mutationFn: (item: Subscription) => unblockSubscription(item.id),
    onSuccess: (_updated, item) => {
      queryClient.setQueryData<Subscription[]>(ruleKeys.blocked, (list) =>
        list?.filter((s) => s.id !== item.id),
      );
      void queryClient.invalidateQueries({ queryKey: subscriptionKeys.lists });
    },
  });
}
