import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { keepFirst } from './stripe-subscription.js';

const sub = (id: string, interval: 'month' | 'year', created: number, ending = false) =>
  ({
    id,
    created,
    cancel_at_period_end: ending,
    cancel_at: null,
    items: { data: [{ price: { recurring: { interval } } }] },
  }) as unknown as Stripe.Subscription;

const kept = (...subs: Stripe.Subscription[]) => [...subs].sort(keepFirst)[0]!.id;

describe('keepFirst: which of a user’s live subscriptions stays', () => {
  it('keeps the yearly over the monthly, whichever was paid first', () => {
    expect(kept(sub('m', 'month', 1), sub('y', 'year', 2))).toBe('y');
    expect(kept(sub('y', 'year', 1), sub('m', 'month', 2))).toBe('y');
  });

  it('keeps the one paid first of two alike, and the id decides a tie', () => {
    expect(kept(sub('b', 'month', 2), sub('a', 'month', 1))).toBe('a');
    expect(kept(sub('b', 'month', 1), sub('a', 'month', 1))).toBe('a');
  });

  it('keeps one not set to end over a yearly that ends', () => {
    expect(kept(sub('y', 'year', 1, true), sub('m', 'month', 2))).toBe('m');
  });
});
