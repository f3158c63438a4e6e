// The subscription lists in the query cache (docs/product.md §2 Subscription list screen, §4 Live updates): one
// query per category, the live events and the row actions write into them (live.ts, mutations.ts).
import { type QueryClient, useQuery } from '@tanstack/react-query';
import type { Subscription, SubscriptionCategory, SubscriptionMessage } from '../../../../contract/api.js';
import { getSubscriptionMessages, getSubscriptions } from '../../api/calls';
import { queryKeys } from '../../api/queryKeys';
import { mergeLiveSubscription, mergeLiveSubscriptions } from './subscriptionList';

/**
 * Live items that arrived while a list fetch was on its way, per running fetch: the answer may predate
 * them, so they are merged into it.
 */
const arrivingDuringFetch = new Set<Subscription[]>();

async function fetchList(category: SubscriptionCategory): Promise<Subscription[]> {
  const arrived: Subscription[] = [];
  arrivingDuringFetch.add(arrived);
  try {
    const answer = await getSubscriptions(category);
    return mergeLiveSubscriptions(answer?.data ?? [], arrived, category);
  } finally {
    arrivingDuringFetch.delete(arrived);
  }
}

export function useSubscriptionList(category: SubscriptionCategory) {
  return useQuery({
    queryKey: queryKeys.subscriptions(category),
    queryFn: () => fetchList(category),
    meta: { errorMessage: 'Failed to fetch subscriptions...' },
  });
}

/**
 * The messages of one sender, fetched when its row is first expanded.
 * docs/product.md §8: a failed fetch is only logged; the next expand tries again.
 */
export function useSubscriptionMessages(
  id: string,
  expanded: boolean,
): { messages: SubscriptionMessage[] | null; loading: boolean } {
  const query = useQuery({
    queryKey: queryKeys.subscriptionMessages(id),
    queryFn: async () => (await getSubscriptionMessages(id))?.data ?? [],
    enabled: expanded,
    // Fetched once per row on screen (collapse and expand again reuse it), dropped with the row.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    meta: { errorMessage: 'Failed to fetch messages...' },
  });
  return { messages: query.data ?? null, loading: query.isFetching };
}

/** A `new-subscription` item: into the list of its category (when cached) and the fetches under way. */
export function addLiveSubscription(queryClient: QueryClient, item: Subscription): void {
  for (const arrived of arrivingDuringFetch) arrived.push(item);
  queryClient.setQueryData<Subscription[]>(queryKeys.subscriptions(item.category), (items) =>
    items ? mergeLiveSubscription(items, item, item.category) : items,
  );
}

/**
 * After an action on an item of the `from` list (docs/product.md §4): the item leaves that list, unless the answer
 * keeps it there (a block on the Unsubscribed list), in which case it is updated in place; an updated
 * item also joins the cached list of its new category. A list fetch still on its way may predate the
 * action: it is asked again.
 */
export function applyAction(
  queryClient: QueryClient,
  from: SubscriptionCategory,
  id: string,
  updated?: Subscription,
): void {
  queryClient.setQueryData<Subscription[]>(queryKeys.subscriptions(from), (items) => {
    if (!items) return items;
    return updated?.category === from
      ? items.map((item) => (item.id === id ? updated : item))
      : items.filter((item) => item.id !== id);
  });
  if (updated && updated.category !== from) {
    queryClient.setQueryData<Subscription[]>(queryKeys.subscriptions(updated.category), (items) =>
      items ? [...items.filter((item) => item.id !== id), updated] : items,
    );
  }
  void queryClient.invalidateQueries({
    queryKey: queryKeys.subscriptionLists,
    predicate: (query) => query.state.fetchStatus === 'fetching',
  });
}
