// The subscription list grouped by brand (GET /get-unsubscribe-emails?group=brand, docs/decisions/082-brands.md):
// its pages in the query cache and what the screen says of them, kept pure for the unit tests. The screen
// itself (brand-list.tsx) is loaded with the first "Group by brand"; these few lines also serve the row
// actions (api/list-query.ts applyAction), which write into every cached list of a category.
import type { QueryClient } from '@tanstack/react-query';
import type {
  BrandRow,
  BrandsResponse,
  SenderRule,
  Subscription,
  SubscriptionCategory,
} from '#contract/api.js';
import { subscriptionKeys } from '../api/keys';

/** The URL search parameter of the toggle: `?group=brand`. */
export const GROUP_PARAM = 'group';
export const GROUP_BRAND = 'brand';

const tenths = (n: number) => Math.max(0, Math.round(n * 10) / 10);

/**
 * Pages without the sender `id` (it left the category): its brand loses it and its counts (read rate aside:
 * the server's sum is not known here, the next fetch brings it), a brand left without senders goes, and
 * the first page's `total` with it. With `updated` still of the category (a block on the Unsubscribed
 * list), the sender is updated in place. Unchanged pages are returned as they were.
 */
export function brandPagesWithout(
  pages: BrandsResponse[],
  id: string,
  updated?: Subscription,
): BrandsResponse[] {
  const found = pages.some((page) => page.data.some((row) => row.senders.some((s) => s.id === id)));
  if (!found) return pages;
  let emptied = 0;
  const next = pages.map((page) => {
    const data: BrandRow[] = [];
    for (const row of page.data) {
      const gone = row.senders.find((s) => s.id === id);
      if (!gone) {
        data.push(row);
      } else if (updated) {
        data.push({ ...row, senders: row.senders.map((s) => (s.id === id ? updated : s)) });
      } else if (row.senders.length > 1) {
        data.push({
          ...row,
          senders: row.senders.filter((s) => s.id !== id),
          messageCount: Math.max(0, row.messageCount - gone.messageCount),
          messagesPerMonth: tenths(row.messagesPerMonth - (gone.messagesPerMonth ?? 0)),
        });
      } else {
        emptied += 1;
      }
    }
    return { ...page, data };
  });
  if (emptied === 0) return next;
  return next.map((page, index) =>
    index === 0 && typeof page.total === 'number'
      ? { ...page, total: Math.max(0, page.total - emptied) }
      : page,
  );
}

type BrandPages = { pages: BrandsResponse[]; pageParams: unknown[] };

/**
 * After an action on a sender of the `from` list: every cached brand page of that list (each order and
 * search) as brandPagesWithout answers. The other categories' brand lists are fetched when shown.
 */
export function applyToBrands(
  queryClient: QueryClient,
  from: SubscriptionCategory,
  id: string,
  updated?: Subscription,
): void {
  const inPlace = updated?.category === from ? updated : undefined;
  for (const [queryKey, data] of queryClient.getQueriesData<BrandPages>({
    queryKey: subscriptionKeys.brandLists(from),
  })) {
    if (!data?.pages) continue;
    const pages = brandPagesWithout(data.pages, id, inPlace);
    if (pages !== data.pages) queryClient.setQueryData<BrandPages>(queryKey, { ...data, pages });
  }
}

/** A sender's rule changed (the Organise dialog): its row in every cached brand list shows the new one. */
export function setBrandSenderRule(queryClient: QueryClient, id: string, rule: SenderRule | null): void {
  for (const [queryKey, data] of queryClient.getQueriesData<BrandPages>({
    queryKey: subscriptionKeys.allBrands,
  })) {
    if (!data?.pages?.some((page) => page.data.some((row) => row.senders.some((s) => s.id === id)))) continue;
    queryClient.setQueryData<BrandPages>(queryKey, {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        data: page.data.map((row) => ({
          ...row,
          senders: row.senders.map((s) => (s.id === id ? { ...s, rule } : s)),
        })),
      })),
    });
  }
}
