import { useEffect, useMemo, useState } from 'react';
import type { SubscriptionCategory } from '#contract/api.js';
import { useSubscriptionList } from '../api/list-query';
import { filterByAddress, itemsOfPages, type SortOrder, totalOf } from './list-model';
import { loadReceipt } from './subscription-row';
import { useListReauth } from './use-list-reauth';

/**
 * The list's senders, a page at a time (not fetched while grouped by brand): those loaded, those shown, and
 * how many there are in all and match the search. The server orders and searches its pages (each answer
 * carries `total`); the typed search (`query`) filters the rows on screen at once, before the server's
 * answer to it (`q`) comes. A 401 asking to sign a mailbox in again opens the screen's dialog (`reauth`).
 */
export function useListRows(
  category: SubscriptionCategory,
  { order, query, q, grouped }: { order: SortOrder; query: string; q: string; grouped: boolean },
  askReauth: (authUrl: string, reason?: string) => void,
) {
  const list = useSubscriptionList(category, order, q, !grouped);
  // The receipts of the Unsubscribed list load while its senders are fetched; the rows then show them.
  const [, setReceipts] = useState(false);
  useEffect(() => {
    if (category === 'unsubscribed') loadReceipt().then(() => setReceipts(true), console.warn);
  }, [category]);
  const pages = list.data?.pages;
  const loadedItems = useMemo(() => itemsOfPages(pages), [pages]);
  const visible = useMemo(() => filterByAddress(loadedItems, query), [loadedItems, query]);
  const total = totalOf(pages, loadedItems.length);
  const reauth = useListReauth(list, askReauth);
  return {
    list,
    /** The first answer (or failure) came. */
    loaded: !list.isPending,
    failed: list.isError && !list.data,
    reauth,
    loadedItems,
    visible,
    total,
    matching: total,
  };
}
