import { type InfiniteData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SubscriptionCategory, SubscriptionSort, SubscriptionsResponse } from '#contract/api.js';
import { subscriptionKeys } from '../api/keys';
import { getSubscriptions } from '../api/list-query';
import { itemsOfPages, totalOf } from './list-model';

/**
 * How many senders the category holds without the search, for "3 of 40 match" while searching: the
 * unsearched list's own total when it is cached (the live events keep it true), else asked once (a page of
 * one sender, for its `total`). null until known, and while not searching.
 */
export function useCategoryTotal(
  category: SubscriptionCategory,
  sort: SubscriptionSort,
  searching: boolean,
): number | null {
  const queryClient = useQueryClient();
  const cached = queryClient.getQueryData<InfiniteData<SubscriptionsResponse>>(
    subscriptionKeys.pages(category, sort, ''),
  )?.pages;
  const cachedTotal = cached ? totalOf(cached, itemsOfPages(cached).length) : null;
  const asked = useQuery({
    // Beside the category's lists (whose updates skip it: it has no pages), dropped when not in use.
    queryKey: [...subscriptionKeys.list(category), 'total'],
    queryFn: async () => (await getSubscriptions(category, { limit: 1 })).total ?? null,
    enabled: searching && cachedTotal === null,
    gcTime: 0,
  });
  if (!searching) return null;
  return cachedTotal ?? asked.data ?? null;
}
