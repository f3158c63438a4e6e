import { useInfiniteQuery } from '@tanstack/react-query';
import { type SubscriptionMessage, subscriptionMessagesResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

/** Messages per page under an expanded row ("Show more" asks for the next page). */
export const MESSAGES_PAGE_SIZE = 10;

/** One page of a sender's messages, newest first (GET /get-subscriptions/:id?limit=&cursor=). */
export const getSubscriptionMessages = (id: string, cursor: string | null) => {
  const params = new URLSearchParams({ limit: String(MESSAGES_PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  return api.get(`${API.subscriptionMessages(id)}?${params}`, subscriptionMessagesResponseSchema);
};

/**
 * The messages of one sender, fetched when its row is first expanded, ten at a time: `more` fetches the
 * next ten (none when `hasMore` is false). docs/product.md §8: a failed fetch is only logged; the next
 * expand tries again.
 */
export function useSubscriptionMessages(id: string): {
  messages: SubscriptionMessage[] | null;
  loading: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  more: () => void;
} {
  const query = useInfiniteQuery({
    queryKey: subscriptionKeys.messages(id),
    queryFn: ({ pageParam }) => getSubscriptionMessages(id, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? null,
    // Fetched once per row on screen (collapse and expand again reuse it), dropped with the row.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    meta: { errorMessage: 'Failed to fetch messages...' },
  });
  const pages = query.data?.pages;
  return {
    messages: pages ? pages.flatMap((page) => page.data) : null,
    loading: query.isFetching && !query.isFetchingNextPage,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    more: () => void query.fetchNextPage(),
  };
}
