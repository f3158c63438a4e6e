// The subscription lists in the query cache (docs/product.md §2 Subscription list screen, §4 Live updates): one
// paged query per category, order and search; the live events and the row actions write into every cached
// one of a category (live.ts, mutations.ts).
import { type InfiniteData, type QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type {
  Subscription,
  SubscriptionCategory,
  SubscriptionMessage,
  SubscriptionSort,
  SubscriptionsResponse,
} from '#contract/api.js';
import { getSubscriptionMessages, getSubscriptions } from '../../api/calls';
import { queryKeys } from '../../lib/query-keys';
import { mergeLiveSubscriptions, withJoinedItem, withoutItem, withUpdatedItem } from './subscriptionList';

/** Senders per page as the list scrolls. */
export const PAGE_SIZE = 50;

type Pages = InfiniteData<SubscriptionsResponse, string | null>;

/**
 * Live items that arrived while a list fetch was on its way, per running fetch: the answer may predate
 * them, so they are merged into it (into the last page only: an earlier one is followed by more).
 */
const arrivingDuringFetch = new Set<Subscription[]>();

async function fetchPage(
  category: SubscriptionCategory,
  sort: SubscriptionSort,
  q: string,
  cursor: string | null,
): Promise<SubscriptionsResponse> {
  const arrived: Subscription[] = [];
  arrivingDuringFetch.add(arrived);
  try {
    const answer = await getSubscriptions(category, { sort, q, limit: PAGE_SIZE, cursor });
    const data = answer?.data ?? [];
    if (answer?.nextCursor) return { ...answer, data };
    return { ...answer, data: mergeLiveSubscriptions(data, arrived, category) };
  } finally {
    arrivingDuringFetch.delete(arrived);
  }
}

/** The list of one category in one order and for one search, a page at a time. */
export function useSubscriptionList(category: SubscriptionCategory, sort: SubscriptionSort, q: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.subscriptionPages(category, sort, q),
    queryFn: ({ pageParam }) => fetchPage(category, sort, q, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? null,
    // A new search or order keeps the rows on screen until its first page comes.
    placeholderData: (previous) => previous,
    meta: { errorMessage: 'Failed to fetch subscriptions...', reauthDialog: true },
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

/** The query key's search (its last part). */
function searchOf(queryKey: readonly unknown[]): string {
  const q = queryKey[4];
  return typeof q === 'string' ? q : '';
}

/** Changes every cached list of `category` (each order and search). */
function updateLists(
  queryClient: QueryClient,
  category: SubscriptionCategory,
  change: (pages: SubscriptionsResponse[], q: string) => SubscriptionsResponse[],
): void {
  for (const [queryKey, data] of queryClient.getQueriesData<Pages>({
    queryKey: queryKeys.subscriptions(category),
  })) {
    if (!data?.pages) continue;
    const pages = change(data.pages, searchOf(queryKey));
    if (pages !== data.pages) queryClient.setQueryData<Pages>(queryKey, { ...data, pages });
  }
}

/** A `new-subscription` item: into the lists of its category (when cached) and the fetches under way. */
export function addLiveSubscription(queryClient: QueryClient, item: Subscription): void {
  for (const arrived of arrivingDuringFetch) arrived.push(item);
  updateLists(queryClient, item.category, (pages, q) => withJoinedItem(pages, item, q));
}

/**
 * After an action on an item of the `from` list (docs/product.md §4): the item leaves that list, unless the answer
 * keeps it there (a block on the Unsubscribed list), in which case it is updated in place; an updated
 * item also joins the cached lists of its new category. A list fetch still on its way may predate the
 * action: it is asked again.
 */
export function applyAction(
  queryClient: QueryClient,
  from: SubscriptionCategory,
  id: string,
  updated?: Subscription,
): void {
  updateLists(queryClient, from, (pages) =>
    updated?.category === from ? withUpdatedItem(pages, updated) : withoutItem(pages, id),
  );
  if (updated && updated.category !== from) {
    updateLists(queryClient, updated.category, (pages, q) =>
      withJoinedItem(withoutItem(pages, id), updated, q),
    );
  }
  void queryClient.invalidateQueries({
    queryKey: queryKeys.subscriptionLists,
    predicate: (query) => query.state.fetchStatus === 'fetching',
  });
}
