import { describe, expect, it } from 'vitest';
import type { Price } from '#contract/api.js';
import {
  beginCheckoutParams,
  bulkRunText,
  checkoutReturn,
  formatAmount,
  freeLeftText,
  pendingPollInterval,
  periodLine,
  premiumName,
  priceLabel,
  pricesByInterval,
  usageLines,
  yearlySavingsPercent,
} from './plans';

const price = (id: string, unit_amount: number, interval: 'month' | 'year', currency = 'usd'): Price => ({
  id,
  unit_amount,
  currency,
  recurring: { interval },
});

const monthly = price('price_month', 999, 'month');
const yearly = price('price_year', 9999, 'year');

describe('price display', () => {
  it('shows cents / 100 with two decimals', () => {
    expect(formatAmount(999)).toBe('$9.99');
    expect(formatAmount(1000)).toBe('$10.00');
    expect(formatAmount(0)).toBe('$0.00');
    expect(formatAmount(123456)).toBe('$1,234.56');
    expect(priceLabel(monthly)).toBe('$9.99 / month');
    expect(priceLabel(yearly)).toBe('$99.99 / year');
    expect(formatAmount(999, 'eur')).toBe('€9.99');
    expect(formatAmount(999, 'not a currency')).toBe('9.99');
  });

  it('picks the first price of each interval', () => {
    expect(pricesByInterval([yearly, monthly, price('other', 1, 'month')])).toEqual({
      month: monthly,
      year: yearly,
    });
    expect(pricesByInterval([])).toEqual({ month: null, year: null });
  });
});

describe('yearly savings', () => {
  it('compares the year against twelve months, in whole percent', () => {
    // 12 × 9.99 = 119.88; 99.99 saves 19.89 → 16.6 % → 17 %.
    expect(yearlySavingsPercent(monthly, yearly)).toBe(17);
    expect(yearlySavingsPercent(price('m', 1000, 'month'), price('y', 6000, 'year'))).toBe(50);
  });

  it('says nothing without a saving or without both prices', () => {
    expect(yearlySavingsPercent(monthly, price('y', 11988, 'year'))).toBeNull();
    expect(yearlySavingsPercent(monthly, price('y', 20000, 'year'))).toBeNull();
    expect(yearlySavingsPercent(null, yearly)).toBeNull();
    expect(yearlySavingsPercent(monthly, null)).toBeNull();
    expect(yearlySavingsPercent(price('m', 0, 'month'), price('y', 0, 'year'))).toBeNull();
    expect(yearlySavingsPercent(monthly, price('y', 100, 'year', 'eur'))).toBeNull();
  });
});

describe('begin_checkout', () => {
  it('names the plan and its price in dollars', () => {
    expect(beginCheckoutParams('year', yearly)).toEqual({
      currency: 'USD',
      value: 99.99,
      coupon: 'Yearly_Plan',
      items: [{ item_id: 'price_year', item_name: 'Inbox Genie Premium (Yearly)', price: 99.99 }],
    });
    expect(beginCheckoutParams('month', null)).toEqual({
      currency: 'USD',
      coupon: 'Monthly_Plan',
      items: [{ item_name: 'Inbox Genie Premium (Monthly)' }],
    });
  });
});

describe('the Billing screen', () => {
  it('shows the trial use', () => {
    expect(
      usageLines({
        unsubscribesUsed: 3,
        unsubscribesLimit: 10,
        unsubscribesLeft: 7,
        mailboxes: 1,
        mailboxesLimit: 1,
      }),
    ).toEqual(['3 of 10 free unsubscribes used', '1 of 1 mailbox']);
    expect(
      usageLines({
        unsubscribesUsed: 0,
        unsubscribesLimit: 1,
        unsubscribesLeft: 1,
        mailboxes: 2,
        mailboxesLimit: 3,
      }),
    ).toEqual(['0 of 1 free unsubscribe used', '2 of 3 mailboxes']);
    expect(
      usageLines({
        unsubscribesUsed: 40,
        unsubscribesLimit: null,
        unsubscribesLeft: null,
        mailboxes: 4,
        mailboxesLimit: null,
      }),
    ).toEqual([]);
  });

  it('says how many free unsubscribes are left, and how many of a bulk will run', () => {
    expect(freeLeftText(3)).toBe('3 free unsubscribes left');
    expect(freeLeftText(1)).toBe('1 free unsubscribe left');
    expect(freeLeftText(0)).toBe('No free unsubscribes left');
    expect(bulkRunText(5, 3)).toBe('3 of the 5 will run: 3 free unsubscribes left. The rest need a plan.');
    expect(bulkRunText(2, 0)).toBe('None of the 2 will run: no free unsubscribes left. They need a plan.');
    expect(bulkRunText(1, 0)).toBe('It will not run: no free unsubscribes left. It needs a plan.');
    expect(bulkRunText(2, 5)).toBe('All 2 will run: 5 free unsubscribes left.');
    expect(bulkRunText(1, 1)).toBe('It will run: 1 free unsubscribe left.');
  });

  it('says when the plan renews or ends, in US English', () => {
    const end = '2026-03-04T12:00:00.000Z';
    expect(periodLine({ currentPeriodEnd: end, cancelAtPeriodEnd: false })).toBe('Renews on March 4, 2026');
    expect(periodLine({ currentPeriodEnd: end, cancelAtPeriodEnd: true })).toBe('Ends on March 4, 2026');
    expect(periodLine({ currentPeriodEnd: null, cancelAtPeriodEnd: false })).toBeNull();
    expect(periodLine({ currentPeriodEnd: 'soon', cancelAtPeriodEnd: false })).toBeNull();
    expect(premiumName('month')).toBe('Premium (Monthly)');
    expect(premiumName(null)).toBe('Premium');
  });

  it('reads the return from Checkout and polls a pending one for 30 s at most', () => {
    expect(checkoutReturn(new URLSearchParams('checkout=success'))).toBe('success');
    expect(checkoutReturn(new URLSearchParams('checkout=pending'))).toBe('pending');
    expect(checkoutReturn(new URLSearchParams('checkout=<b>'))).toBeNull();
    expect(pendingPollInterval(null, 0, 'free')).toBe(false);
    expect(pendingPollInterval(1000, 1000, 'free')).toBe(2000);
    expect(pendingPollInterval(1000, 30_999, undefined)).toBe(2000);
    expect(pendingPollInterval(1000, 31_000, 'free')).toBe(false);
    expect(pendingPollInterval(1000, 2000, 'premium')).toBe(false);
  });
});
