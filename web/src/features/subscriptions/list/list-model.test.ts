import { describe, expect, it } from 'vitest';
import type { EmailAccount, Subscription } from '#contract/api.js';
import {
  costLabel,
  countCaption,
  filterByAddress,
  isScanning,
  isSortOrder,
  itemsOfPages,
  matchCaption,
  mergeLiveSubscription,
  mergeLiveSubscriptions,
  messageCountLabel,
  progressText,
  SORT_OPTIONS,
  scanRunning,
  senderDomain,
  senderName,
  showsAccounts,
  totalOf,
  withJoinedItem,
  withoutItem,
  withUpdatedItem,
} from './list-model';

function sub(overrides: Partial<Subscription> & Pick<Subscription, 'id' | 'address'>): Subscription {
  return {
    senderName: '',
    messageCount: 1,
    category: 'uncategorized',
    lastMessageAt: null,
    account: 'me@example.com',
    ...overrides,
  };
}

const news = sub({
  id: 'a',
  address: 'news@daily.com',
  messageCount: 3,
  lastMessageAt: '2024-03-01T00:00:00Z',
});
const deals = sub({
  id: 'b',
  address: 'Deals@Shop.example',
  messageCount: 12,
  lastMessageAt: '2024-01-15T00:00:00Z',
});
const digest = sub({
  id: 'c',
  address: 'digest@weekly.org',
  messageCount: 3,
  lastMessageAt: '2024-05-20T00:00:00Z',
});
const undated = sub({ id: 'd', address: 'old@archive.net', messageCount: 40, lastMessageAt: null });
const all = [news, deals, digest, undated];

describe('the orders offered', () => {
  it('offers the two orders of the spec first, then least read and most per month', () => {
    expect(SORT_OPTIONS.map((o) => o.label)).toEqual([
      'Newest to Oldest Messages',
      'Most Messages to Least Messages',
      'Least Read First',
      'Most Messages per Month',
    ]);
    expect(SORT_OPTIONS.map((o) => o.value)).toEqual(['newest', 'messages', 'readRate', 'perMonth']);
    expect(isSortOrder('newest')).toBe(true);
    expect(isSortOrder('oldest')).toBe(false);
  });
});

describe('search by name or address', () => {
  it('matches a case-insensitive substring of the address or the name', () => {
    expect(filterByAddress(all, 'SHOP').map((s) => s.id)).toEqual(['b']);
    expect(filterByAddress(all, '  weekly ').map((s) => s.id)).toEqual(['c']);
    const named = sub({ id: 'n', address: 'a@b.c', senderName: 'Weekly Digest' });
    expect(filterByAddress([named], 'weekly')).toEqual([named]);
    expect(filterByAddress([named], 'monthly')).toEqual([]);
  });

  it('keeps everything for an empty query', () => {
    expect(filterByAddress(all, '')).toEqual(all);
    expect(filterByAddress(all, '   ')).toEqual(all);
  });
});

describe('live items', () => {
  it('appends an item of the screen category', () => {
    const item = sub({ id: 'e', address: 'new@sender.com' });
    expect(mergeLiveSubscription([news], item, 'uncategorized')).toEqual([news, item]);
  });

  it('ignores items of another category', () => {
    const list = [news];
    const kept = sub({ id: 'e', address: 'new@sender.com', category: 'kept' });
    expect(mergeLiveSubscription(list, kept, 'uncategorized')).toBe(list);
    expect(mergeLiveSubscription(list, kept, 'kept')).toEqual([news, kept]);
  });

  it('ignores an item whose id or address is already listed', () => {
    const list = [news, deals];
    expect(mergeLiveSubscription(list, { ...news, messageCount: 9 }, 'uncategorized')).toBe(list);
    expect(
      mergeLiveSubscription(list, sub({ id: 'z', address: 'deals@shop.example' }), 'uncategorized'),
    ).toBe(list);
  });

  it('merges the items that arrived while a fetch was running', () => {
    const fresh = sub({ id: 'e', address: 'new@sender.com' });
    const kept = sub({ id: 'f', address: 'kept@sender.com', category: 'kept' });
    expect(mergeLiveSubscriptions([news], [news, fresh, kept, fresh], 'uncategorized')).toEqual([
      news,
      fresh,
    ]);
  });
});

describe('row and heading texts', () => {
  it('says Message for one and Messages otherwise', () => {
    expect(messageCountLabel(1)).toBe('1 Message');
    expect(messageCountLabel(2)).toBe('2 Messages');
    expect(messageCountLabel(0)).toBe('0 Messages');
  });

  it('puts the count before the caption', () => {
    expect(countCaption(3, 'Subscriptions Left to Review')).toBe('3 Subscriptions Left to Review');
    expect(countCaption(1, 'Subscriptions Left to Review')).toBe('1 Subscription Left to Review');
    expect(countCaption(1, 'Subscriptions Unsubscribed From')).toBe('1 Subscription Unsubscribed From');
    expect(countCaption(0, 'Subscriptions Kept')).toBe('0 Subscriptions Kept');
  });

  it('counts a search as what matches of all', () => {
    expect(matchCaption(3, 40)).toBe('3 of 40 match');
    expect(matchCaption(0, 40)).toBe('0 of 40 match');
    // The category's total not known yet: what matches alone.
    expect(matchCaption(3, null)).toBe('3 match');
  });

  it('shows scan progress', () => {
    expect(progressText({ scanned: 120, total: 500 })).toBe('Scanning… 120 / 500 messages');
    expect(progressText({ scanned: 7, total: 0 })).toBe('Scanning… 7 / 7 messages');
  });

  it('finds the domain of a sender address', () => {
    expect(senderDomain('News@Mail.Example.COM')).toBe('mail.example.com');
    expect(senderDomain('a@b@c.org')).toBe('c.org');
    expect(senderDomain('no-domain')).toBe('');
  });

  it('names the sender by display name, else by address', () => {
    expect(senderName(sub({ id: '1', address: 'a@b.c', senderName: ' The Daily ' }))).toBe('The Daily');
    expect(senderName(sub({ id: '1', address: 'a@b.c', senderName: '  ' }))).toBe('a@b.c');
  });
});

/** A mailbox of the user as GET /get-email-accounts answers it. */
const account = (email: string, status: EmailAccount['status'], lastScannedAt: string | null = null) =>
  ({
    email,
    provider: 'yahoo',
    status,
    lastScannedAt,
    error: null,
    lastCheckedAt: lastScannedAt,
    screener: false,
  }) satisfies EmailAccount;

describe('mailboxes', () => {
  it('names the mailbox of each row only when there are several', () => {
    expect(showsAccounts(all, [account('me@example.com', 'active')])).toBe(false);
    expect(showsAccounts(all, [account('me@example.com', 'active'), account('you@x.com', 'active')])).toBe(
      true,
    );
    expect(showsAccounts([news, { ...deals, account: 'other@example.com' }], null)).toBe(true);
  });

  it('counts a scanning mailbox and one waiting for its first scan as scanning', () => {
    expect(isScanning(account('a@b.c', 'scanning', '2024-01-01T00:00:00Z'))).toBe(true);
    expect(isScanning(account('a@b.c', 'active'))).toBe(true);
    expect(isScanning(account('a@b.c', 'active', '2024-01-01T00:00:00Z'))).toBe(false);
    expect(isScanning(account('a@b.c', 'reauth'))).toBe(false);
    expect(isScanning(account('a@b.c', 'error'))).toBe(false);
  });
});

describe('scanRunning', () => {
  const scanning = [account('a@b.c', 'scanning', '2024-01-01T00:00:00Z')];
  const idle = [account('a@b.c', 'active', '2024-01-01T00:00:00Z')];

  it('follows the mailboxes when their answer is the newer report', () => {
    expect(scanRunning(scanning, 200, { scanning: false, at: 100 })).toBe(true);
    expect(scanRunning(idle, 200, { scanning: true, at: 100 })).toBe(false);
    expect(scanRunning(idle, 100, { scanning: true, at: 100 })).toBe(false);
  });

  it('follows the live events when they are newer, or the mailboxes are not known yet', () => {
    expect(scanRunning(idle, 100, { scanning: true, at: 200 })).toBe(true);
    expect(scanRunning(scanning, 100, { scanning: false, at: 200 })).toBe(false);
    expect(scanRunning(null, 0, { scanning: true, at: 200 })).toBe(true);
    expect(scanRunning(null, 0, { scanning: false, at: 0 })).toBe(false);
  });
});

describe('what a sender costs', () => {
  it('says how many a month and how much of it is read', () => {
    expect(costLabel({ messagesPerMonth: 12, readRate: 0.031 })).toBe('12 a month · you read 3%');
    expect(costLabel({ messagesPerMonth: 2.5, readRate: null })).toBe('2.5 a month');
    expect(costLabel({ messagesPerMonth: 0.05 })).toBe('under 1 a month');
    expect(costLabel({ messagesPerMonth: 0, readRate: 1 })).toBe('none in 3 months · you read 100%');
    expect(costLabel({})).toBeNull();
  });
});

describe('the pages of a list', () => {
  const page = (data: Subscription[], extra: { nextCursor?: string | null; total?: number } = {}) => ({
    data,
    ...extra,
  });

  it('flattens pages, one item per sender, and counts by the server total', () => {
    const pages = [page([news, deals], { nextCursor: 'x', total: 10 }), page([deals, digest])];
    expect(itemsOfPages(pages).map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(totalOf(pages, 3)).toBe(10);
    expect(totalOf([page(all)], 4)).toBe(4);
  });

  it('drops an item and counts one less', () => {
    const pages = [page([news, deals], { nextCursor: 'x', total: 10 }), page([digest])];
    const after = withoutItem(pages, 'c');
    expect(itemsOfPages(after).map((s) => s.id)).toEqual(['a', 'b']);
    expect(totalOf(after, 2)).toBe(9);
    expect(withoutItem(pages, 'zz')).toBe(pages);
  });

  it('updates an item in place', () => {
    const pages = [page([news, deals], { total: 2 })];
    const after = withUpdatedItem(pages, { ...deals, stillSending: true });
    expect(after[0]?.data[1]?.stillSending).toBe(true);
  });

  it('adds a joining sender at the end only when every page is loaded and the search matches', () => {
    const fresh = sub({ id: 'e', address: 'new@sender.com' });
    const complete = [page([news], { nextCursor: null, total: 1 })];
    expect(itemsOfPages(withJoinedItem(complete, fresh, '')).map((s) => s.id)).toEqual(['a', 'e']);
    expect(totalOf(withJoinedItem(complete, fresh, ''), 0)).toBe(2);
    expect(withJoinedItem(complete, fresh, 'nomatch')).toBe(complete);
    expect(withJoinedItem(complete, { ...news }, '')).toBe(complete);
    const partial = [page([news], { nextCursor: 'x', total: 5 })];
    const joined = withJoinedItem(partial, fresh, '');
    expect(itemsOfPages(joined).map((s) => s.id)).toEqual(['a']);
    expect(totalOf(joined, 1)).toBe(6);
  });
});
