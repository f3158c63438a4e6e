// The subscription list's logic (docs/product.md §2 Subscription list screen, §4 Live updates), kept pure so
// that it can be tested without a browser.
import type {
  EmailAccount,
  Subscription,
  SubscriptionCategory,
  SubscriptionSort,
  SubscriptionsResponse,
} from '#contract/api.js';

export type SortOrder = SubscriptionSort;

/** The spec's two orders first (their labels as they were), then the two the read rates allow. */
export const SORT_OPTIONS: readonly { value: SortOrder; label: string }[] = [
  { value: 'newest', label: 'Newest to Oldest Messages' },
  { value: 'messages', label: 'Most Messages to Least Messages' },
  { value: 'readRate', label: 'Least Read First' },
  { value: 'perMonth', label: 'Most Messages per Month' },
];

/** docs/product.md §9: the default sort is newest. */
export const DEFAULT_SORT: SortOrder = 'newest';

export function isSortOrder(value: string): value is SortOrder {
  return SORT_OPTIONS.some((option) => option.value === value);
}

/**
 * Items whose sender address or name contains the query, ignoring case (as the server's `q`); an empty
 * query keeps everything.
 */
export function filterByAddress(items: readonly Subscription[], query: string): Subscription[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...items];
  return items.filter(
    (item) => item.address.toLowerCase().includes(needle) || item.senderName.toLowerCase().includes(needle),
  );
}

function sameSender(a: Subscription, b: Subscription): boolean {
  return a.id === b.id || a.address.toLowerCase() === b.address.toLowerCase();
}

/**
 * A live `new-subscription` item joins the list of a screen only when it belongs to the screen's
 * category and no item with the same id or address is there yet. Unchanged lists are returned as is.
 */
export function mergeLiveSubscription(
  items: Subscription[],
  item: Subscription,
  category: SubscriptionCategory,
): Subscription[] {
  if (item.category !== category) return items;
  if (items.some((existing) => sameSender(existing, item))) return items;
  return [...items, item];
}

/** A fetched list plus the live items that arrived while it was on its way. */
export function mergeLiveSubscriptions(
  items: readonly Subscription[],
  incoming: readonly Subscription[],
  category: SubscriptionCategory,
): Subscription[] {
  let merged = [...items];
  for (const item of incoming) merged = mergeLiveSubscription(merged, item, category);
  return merged;
}

/** 'N Message(s)': singular for 1. */
export function messageCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'Message' : 'Messages'}`;
}

/** '3 Subscriptions Left to Review'; '1 Subscription Left to Review'. */
export function countCaption(count: number, caption: string): string {
  return `${count} ${count === 1 ? caption.replace(/^Subscriptions\b/, 'Subscription') : caption}`;
}

/** The caption while a search is on: "3 of 40 match" (how many match of the category's senders). */
export function matchCaption(matching: number, total: number | null): string {
  return total === null ? `${matching} match` : `${matching} of ${total} match`;
}

/** The domain of a sender address (what the logo is looked up by), lower case; '' when there is none. */
export function senderDomain(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return '';
  return address
    .slice(at + 1)
    .trim()
    .replace(/[>\s].*$/, '')
    .toLowerCase();
}

/** The name a row shows: the sender's display name, else its address. */
export function senderName(item: Subscription): string {
  return item.senderName.trim() || item.address;
}

/** The heading's progress text while a scan runs. */
export function progressText(progress: { scanned: number; total: number }): string {
  return `Scanning… ${progress.scanned} / ${Math.max(progress.total, progress.scanned)} messages`;
}

/** Whether rows name their mailbox: only when the user has more than one. */
export function showsAccounts(
  items: readonly Subscription[],
  accounts: readonly EmailAccount[] | null,
): boolean {
  if (accounts && accounts.length > 1) return true;
  return new Set(items.map((item) => item.account.toLowerCase())).size > 1;
}

/**
 * Whether a mailbox is being scanned, or waits for its first scan (connected, never scanned, no
 * failure yet): either way the list is still filling.
 */
export function isScanning(account: EmailAccount): boolean {
  return account.status === 'scanning' || (account.status === 'active' && account.lastScannedAt === null);
}

/**
 * Whether the list is still filling: the newer of two reports decides — the mailboxes' statuses
 * (answered at `accountsAt`) or the live events (`live.at`: a scan started, progressed or ended).
 */
export function scanRunning(
  accounts: readonly EmailAccount[] | null,
  accountsAt: number,
  live: { scanning: boolean; at: number },
): boolean {
  if (accounts && accountsAt >= live.at) return accounts.some(isScanning);
  return live.scanning;
}

/** "12 a month · you read 3%": what a sender costs; null when neither is known. */
export function costLabel(item: Pick<Subscription, 'messagesPerMonth' | 'readRate'>): string | null {
  const parts: string[] = [];
  if (typeof item.messagesPerMonth === 'number') {
    const perMonth = item.messagesPerMonth;
    const shown = perMonth >= 10 || Number.isInteger(perMonth) ? Math.round(perMonth) : perMonth.toFixed(1);
    // Nothing dated in the last 90 days: say so rather than "0 a month".
    parts.push(perMonth === 0 ? 'none in 3 months' : perMonth < 0.1 ? 'under 1 a month' : `${shown} a month`);
  }
  if (typeof item.readRate === 'number') parts.push(`you read ${Math.round(item.readRate * 100)}%`);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** The pages of a list as loaded, one item per sender (a live item may also arrive in a later page). */
export function itemsOfPages(pages: readonly SubscriptionsResponse[] | undefined): Subscription[] {
  if (!pages) return [];
  const seen = new Set<string>();
  const items: Subscription[] = [];
  for (const page of pages) {
    for (const item of page.data ?? []) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }
  return items;
}

/** How many senders the caption counts: the server's `total` when it gave one, else those loaded. */
export function totalOf(pages: readonly SubscriptionsResponse[] | undefined, loaded: number): number {
  const total = pages?.[0]?.total;
  return typeof total === 'number' ? Math.max(total, 0) : loaded;
}

/** Pages without the item `id` (its page's `total` one less when it was there). */
export function withoutItem(pages: SubscriptionsResponse[], id: string): SubscriptionsResponse[] {
  const found = pages.some((page) => page.data.some((item) => item.id === id));
  if (!found) return pages;
  return pages.map((page, index) => ({
    ...page,
    data: page.data.filter((item) => item.id !== id),
    ...(index === 0 && typeof page.total === 'number' ? { total: page.total - 1 } : {}),
  }));
}

/** Pages with `updated` in place of the item of the same id. */
export function withUpdatedItem(
  pages: SubscriptionsResponse[],
  updated: Subscription,
): SubscriptionsResponse[] {
  return pages.map((page) => ({
    ...page,
    data: page.data.map((item) => (item.id === updated.id ? updated : item)),
  }));
}

/**
 * Pages with a sender that joined the category (a live item, or one an action moved here) and matches
 * the search (`q`): counted, and added at the end once every page is loaded (while pages remain, it
 * shows when the list is next fetched); not at all when a page holds it already (same id or address).
 */
export function withJoinedItem(
  pages: SubscriptionsResponse[],
  item: Subscription,
  q: string,
): SubscriptionsResponse[] {
  if (pages.length === 0) return pages;
  if (pages.some((page) => page.data.some((existing) => sameSender(existing, item)))) return pages;
  if (q.trim() && filterByAddress([item], q).length === 0) return pages;
  // Counted at once; shown at once only when it cannot belong to a page still to come.
  const append = !pages[pages.length - 1]?.nextCursor;
  return pages.map((page, index) => {
    let next = page;
    if (append && index === pages.length - 1) next = { ...next, data: [...next.data, item] };
    if (index === 0 && typeof next.total === 'number') next = { ...next, total: next.total + 1 };
    return next;
  });
}
