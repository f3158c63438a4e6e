// The list grouped by brand in the query cache: GET /get-unsubscribe-emails?group=brand, a page of brands
// at a time, under the subscriptions' keys (refreshed with every list; the row actions write into it:
// brand-pages.ts applyToBrands).
import { useInfiniteQuery } from '@tanstack/react-query';
import {
  type BrandsResponse,
  brandsResponseSchema,
  type SubscriptionCategory,
  type SubscriptionSort,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from '../api/keys';
import { PAGE_SIZE } from '../api/list-query';

/** One page of the category's brands in the order, matching `q` (the brand, or a sender's name or address). */
export function getBrands(
  category: SubscriptionCategory,
  page: { sort: SubscriptionSort; q: string; cursor: string | null },
): Promise<BrandsResponse> {
  const params = new URLSearchParams({ category, group: 'brand', sort: page.sort, limit: String(PAGE_SIZE) });
  if (page.q.trim()) params.set('q', page.q.trim());
  if (page.cursor) params.set('cursor', page.cursor);
  return api.get(`${API.subscriptions}?${params}`, brandsResponseSchema);
}

/** The category's brands in one order and for one search, a page at a time. */
export function useBrandList(category: SubscriptionCategory, sort: SubscriptionSort, q: string) {
  return useInfiniteQuery({
    queryKey: subscriptionKeys.brands(category, sort, q),
    queryFn: ({ pageParam }) => getBrands(category, { sort, q, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? null,
    // A new search or order keeps the brands on screen until its first page comes.
    placeholderData: (previous) => previous,
    meta: { errorMessage: 'Failed to fetch brands...', reauthDialog: true },
  });
}
