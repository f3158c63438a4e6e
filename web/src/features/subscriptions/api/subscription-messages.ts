import { useQuery } from '@tanstack/react-query';
import { type SubscriptionMessage, subscriptionMessagesResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

/** The latest messages of one sender (GET /get-subscription-messages/:id). */
export const getSubscriptionMessages = (id: string) =>
  api.get(API.subscriptionMessages(id), subscriptionMessagesResponseSchema);

/**
 * The messages of one sender, fetched when its row is first expanded.
 * docs/product.md §8: a failed fetch is only logged; the next expand tries again.
 */
export function useSubscriptionMessages(id: string): {
  messages: SubscriptionMessage[] | null;
  loading: boolean;
} {
  const query = useQuery({
    queryKey: subscriptionKeys.messages(id),
    queryFn: async () => (await getSubscriptionMessages(id)).data,
    // Fetched once per row on screen (collapse and expand again reuse it), dropped with the row.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    meta: { errorMessage: 'Failed to fetch messages...' },
  });
  return { messages: query.data ?? null, loading: query.isFetching };
}
