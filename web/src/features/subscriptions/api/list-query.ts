// The subscription lists in the query cache (docs/product.md §2 Subscription list screen, §4 Live updates): one
// paged query per category, order and search; the live events and the row actions write into every cached
// one of a category (app/live-updates.ts, row-actions.ts).
import { type InfiniteData, type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import {
  type SenderRule,
  type Subscription,
  type SubscriptionCategory,
  type SubscriptionSort,
  type SubscriptionsResponse,
  subscriptionsResponseSchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { applyToBrands, setBrandSenderRule } from '../brands/brand-pages';
import { mergeLiveSubscriptions, withJoinedItem, withoutItem, withUpdatedItem } from '../list/list-model';
import { subscriptionKeys } from './keys';

export interface SubscriptionsPageQuery {
  sort?: SubscriptionSort;
  /** Matches the sender's name or address; empty: every sender. */
  q?: string;
  limit?: number;
  cursor?: string | null;
}

/** One category's list (GET /get-subscriptions); with `limit`, one page of it (`nextCursor` leads to the next, `total` counts all). */
export const getSubscriptions = (category: SubscriptionCategory, page: SubscriptionsPageQuery = {}) => {
  const params = new URLSearchParams({ category });
  if (page.sort) params.set('sort', page.sort);
  if (page.q?.trim()) params.set('q', page.q.trim());
  if (page.limit) params.set('limit', String(page.limit));
  if (page.cursor) params.set('cursor', page.cursor);
  return api.get(`${API.subscriptions}?${params}`, subscriptionsResponseSchema);
};

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
    if (answer.nextCursor) return answer;
    return { ...answer, data: mergeLiveSubscriptions(answer.data, arrived, category) };
  } finally {
    arrivingDuringFetch.delete(arrived);
  }
}

/**
 * The list of one category in one order and for one search, a page at a time. `enabled` false: not
 * fetched (the screen shows the list grouped by brand instead).
 */
export function useSubscriptionList(
  category: SubscriptionCategory,
  sort: SubscriptionSort,
  q: string,
  enabled = true,
) {
  return useInfiniteQuery({
    enabled,
    queryKey: subscriptionKeys.pages(category, sort, q),
    queryFn: ({ pageParam }) => fetchPage(category, sort, q, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? null,
    // A new search or order keeps the rows on screen until its first page comes.
    placeholderData: (previous) => previous,
    meta: { errorMessage: 'Failed to fetch subscriptions...', reauthDialog: true },
  });
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
    queryKey: subscriptionKeys.list(category),
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
  applyToBrands(queryClient, from, id, updated);
  void queryClient.invalidateQueries({
    queryKey: subscriptionKeys.lists,
    predicate: (query) => query.state.fetchStatus === 'fetching',
  });
}

/**
 * A sender's rule changed (the Organise dialog, the Rules screen): its row, in whichever cached list it
 * is, shows the new rule at once.
 */
export function setSubscriptionRule(queryClient: QueryClient, id: string, rule: SenderRule | null): void {
  for (const [queryKey, data] of queryClient.getQueriesData<Pages>({ queryKey: subscriptionKeys.lists })) {
    if (!data?.pages?.some((page) => page.data.some((item) => item.id === id))) continue;
    queryClient.setQueryData<Pages>(queryKey, {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        data: page.data.map((item) => (item.id === id ? { ...item, rule } : item)),
      })),
    });
  }
  setBrandSenderRule(queryClient, id, rule);
}
