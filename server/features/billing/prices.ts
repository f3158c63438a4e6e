import type { Price } from '#contract/api.js';
import { DomainError, UpstreamUnavailableError } from '#server/lib/errors.js';
import { BILLING_ERRORS, type StripeContext } from './stripe-api.js';
import type { Interval } from './stripe-subscription.js';

// The two configured prices as the pricing page shows them, read from Stripe and kept a few minutes;
// readers arriving while they load share one call.

const PRICES_TTL_MS = 5 * 60 * 1000;

export function createPrices({ settings, stripe: api, now, log }: StripeContext) {
  let cache: { at: number; data: Price[] } | null = null;
  let loading: Promise<Price[]> | null = null;

  async function load(): Promise<Price[]> {
    const intervals: Interval[] = ['month', 'year'];
    const prices = await Promise.all(intervals.map((i) => api.prices.retrieve(settings.prices[i])));
    return prices.map((p, index) => ({
      id: p.id,
      unit_amount: p.unit_amount ?? 0,
      currency: p.currency,
      recurring: { interval: p.recurring?.interval === 'year' ? 'year' : (intervals[index] as Interval) },
    }));
  }

  return async function prices(): Promise<Price[]> {
    if (cache && cache.at > now() - PRICES_TTL_MS) return cache.data;
    loading ??= load()
      .then((data) => {
        cache = { at: now(), data };
        return data;
      })
      .finally(() => {
        loading = null;
      });
    try {
      return await loading;
    } catch (error) {
      if (error instanceof DomainError) throw error;
      log?.error({ err: error }, 'Stripe prices could not be read');
      throw new UpstreamUnavailableError(BILLING_ERRORS.pricesUnavailable);
    }
  };
}
