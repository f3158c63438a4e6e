import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { BrandRow, BrandsResponse, SenderRule, Subscription } from '#contract/api.js';
import { subscriptionKeys } from '../api/keys';
import { applyToBrands, brandPagesWithout, setBrandSenderRule } from './brand-pages';
import {
  addressesPreview,
  brandCaption,
  brandsOfPages,
  filterBrands,
  selectionOf,
  sendersLabel,
  withSenders,
} from './brand-view';

function sub(id: string, address: string, over: Partial<Subscription> = {}): Subscription {
  return {
    id,
    address,
    senderName: '',
    messageCount: 2,
    category: 'uncategorized',
    lastMessageAt: null,
    account: 'me@example.com',
    messagesPerMonth: 1.5,
    ...over,
  };
}

const news = sub('n', 'news@news.shop.co.uk', { senderName: 'Shop News' });
const deals = sub('d', 'deals@offers.shop.co.uk', { messageCount: 3, messagesPerMonth: 0.4 });
const alice = sub('a', 'me@alice.github.io');
const brand = (name: string, senders: Subscription[], over: Partial<BrandRow> = {}): BrandRow => ({
  brand: name,
  senders,
  messageCount: senders.reduce((n, s) => n + s.messageCount, 0),
  messagesPerMonth: senders.reduce((n, s) => n + (s.messagesPerMonth ?? 0), 0),
  readRate: 0.5,
  lastMessageAt: null,
  ...over,
});
const pages = (): BrandsResponse[] => [
  { data: [brand('shop.co.uk', [news, deals])], nextCursor: 'x', total: 2 },
  { data: [brand('alice.github.io', [alice])], nextCursor: null, total: 2 },
];

describe('brand pages after an action on a sender', () => {
  it('takes the sender and its counts out of its brand, keeping the others', () => {
    const next = brandPagesWithout(pages(), 'n');
    expect(next[0]?.data[0]).toMatchObject({
      brand: 'shop.co.uk',
      senders: [deals],
      messageCount: 3,
      messagesPerMonth: 0.4,
      readRate: 0.5,
    });
    expect(next[0]?.total).toBe(2);
    expect(next[1]).toEqual(pages()[1]);
  });

  it('drops a brand left without senders, counting one brand less', () => {
    const next = brandPagesWithout(pages(), 'a');
    expect(next[1]?.data).toEqual([]);
    expect(next[0]?.total).toBe(1);
  });

  it('updates a sender that stays in the list in place, and leaves pages without it as they are', () => {
    const blocked = { ...deals, unsubscribeMethod: 'block' as const };
    expect(brandPagesWithout(pages(), 'd', blocked)[0]?.data[0]?.senders).toEqual([news, blocked]);
    const same = pages();
    expect(brandPagesWithout(same, 'nobody')).toBe(same);
  });

  it('writes into every cached brand list of the category, and only of it', () => {
    const client = new QueryClient();
    const data = (p: BrandsResponse[]) => ({ pages: p, pageParams: [null, 'x'] });
    const newest = subscriptionKeys.brands('uncategorized', 'newest', '');
    const searched = subscriptionKeys.brands('uncategorized', 'messages', 'shop');
    const kept = subscriptionKeys.brands('kept', 'newest', '');
    for (const key of [newest, searched, kept]) client.setQueryData(key, data(pages()));
    applyToBrands(client, 'uncategorized', 'a');
    for (const key of [newest, searched]) {
      expect(client.getQueryData<{ pages: BrandsResponse[] }>(key)?.pages[0]?.total).toBe(1);
    }
    expect(client.getQueryData<{ pages: BrandsResponse[] }>(kept)?.pages).toEqual(pages());
  });
});

describe('a sender’s rule in the brand lists', () => {
  it('shows the new rule on the sender’s row in every cached brand list', () => {
    const client = new QueryClient();
    const newest = subscriptionKeys.brands('uncategorized', 'newest', '');
    const kept = subscriptionKeys.brands('kept', 'newest', '');
    for (const key of [newest, kept]) client.setQueryData(key, { pages: pages(), pageParams: [null] });
    const rule: SenderRule = { folder: 'Shops', keepNewest: null, expireAfterDays: null, expireAction: null };
    setBrandSenderRule(client, 'd', rule);
    for (const key of [newest, kept]) {
      const senders = client.getQueryData<{ pages: BrandsResponse[] }>(key)?.pages[0]?.data[0]?.senders;
      expect(senders?.map((s) => s.rule ?? null)).toEqual([null, rule]);
    }
  });
});

describe('the brand view', () => {
  it('lists each brand of the pages once, without empty ones', () => {
    const rows = brandsOfPages([
      ...pages(),
      { data: [brand('shop.co.uk', [news]), brand('empty.example', [])] },
    ]);
    expect(rows.map((r) => r.brand)).toEqual(['shop.co.uk', 'alice.github.io']);
    expect(brandsOfPages(undefined)).toEqual([]);
  });

  it('filters by brand, sender name or address, ignoring case', () => {
    const rows = brandsOfPages(pages());
    expect(filterBrands(rows, 'GITHUB').map((r) => r.brand)).toEqual(['alice.github.io']);
    expect(filterBrands(rows, 'shop news').map((r) => r.brand)).toEqual(['shop.co.uk']);
    expect(filterBrands(rows, 'offers.').map((r) => r.brand)).toEqual(['shop.co.uk']);
    expect(filterBrands(rows, '  ')).toHaveLength(2);
    expect(filterBrands(rows, 'nowhere')).toEqual([]);
  });

  it('selects and unselects a brand as all of its senders', () => {
    const chosen = withSenders([alice], [news, deals], true);
    expect(chosen.map((s) => s.id)).toEqual(['a', 'n', 'd']);
    const map = new Map(chosen.map((s) => [s.id, s]));
    expect(selectionOf(map, [news, deals])).toBe('all');
    expect(selectionOf(new Map([['n', news]]), [news, deals])).toBe('some');
    expect(selectionOf(new Map(), [news, deals])).toBe('none');
    expect(withSenders(chosen, [news, deals], false)).toEqual([alice]);
    // Adding a brand again keeps each sender once.
    expect(withSenders(chosen, [news], true).map((s) => s.id)).toEqual(['a', 'd', 'n']);
  });

  it('says how many brands and senders', () => {
    expect(brandCaption(1)).toBe('1 brand');
    expect(brandCaption(6)).toBe('6 brands');
    expect(sendersLabel(1)).toBe('1 sender');
    expect(sendersLabel(3)).toBe('3 senders');
    expect(addressesPreview([news])).toBe('news@news.shop.co.uk');
    expect(addressesPreview([news, deals, alice])).toBe(
      'news@news.shop.co.uk, deals@offers.shop.co.uk and 1 more',
    );
  });
});
