// The subscription list's logic (docs/product.md §2 Subscription list screen, §4 Live updates), kept pure so
// that it can be tested without a browser.
import type { EmailAccount, Subscription, SubscriptionCategory } from '../../../../contract/api.js';

export type SortOrder = 'newest' | 'most';

export const SORT_OPTIONS: readonly { value: SortOrder; label: string }[] = [
  { value: 'newest', label: 'Newest to Oldest Messages' },
  { value: 'most', label: 'Most Messages to Least Messages' },
];

/** docs/product.md §9: the default sort is newest. */
export const DEFAULT_SORT: SortOrder = 'newest';

export function isSortOrder(value: string): value is SortOrder {
  return SORT_OPTIONS.some((option) => option.value === value);
}

/** Milliseconds of a timestamp; a missing or unreadable one sorts last. */
function timeOf(value: string | null): number {
  if (!value) return Number.NEGATIVE_INFINITY;
  const time = Date.parse(value);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

function descending(a: number, b: number): number {
  if (a === b) return 0;
  return a > b ? -1 : 1;
}

function byAddress(a: Subscription, b: Subscription): number {
  if (a.address === b.address) return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  return a.address < b.address ? -1 : 1;
}

const COMPARATORS: Record<SortOrder, (a: Subscription, b: Subscription) => number> = {
  newest: (a, b) =>
    descending(timeOf(a.lastMessageAt), timeOf(b.lastMessageAt)) ||
    descending(a.messageCount, b.messageCount) ||
    byAddress(a, b),
  most: (a, b) =>
    descending(a.messageCount, b.messageCount) ||
    descending(timeOf(a.lastMessageAt), timeOf(b.lastMessageAt)) ||
    byAddress(a, b),
};

/** A sorted copy: newest last message first, or most messages first; ties are stable by address. */
export function sortSubscriptions(items: readonly Subscription[], order: SortOrder): Subscription[] {
  return [...items].sort(COMPARATORS[order]);
}

/** Items whose sender address contains the query, ignoring case; an empty query keeps everything. */
export function filterByAddress(items: readonly Subscription[], query: string): Subscription[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...items];
  return items.filter((item) => item.address.toLowerCase().includes(needle));
}

/** What the table shows: the filtered items in the chosen order. */
export function visibleSubscriptions(
  items: readonly Subscription[],
  { order, query }: { order: SortOrder; query: string },
): Subscription[] {
  return sortSubscriptions(filterByAddress(items, query), order);
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

/** '3 Subscriptions Left to Review'. */
export function countCaption(count: number, caption: string): string {
  return `${count} ${caption}`;
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
