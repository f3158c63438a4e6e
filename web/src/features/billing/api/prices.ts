import { useQuery } from '@tanstack/react-query';
import { ANALYTICS_CLIENT_ID_HEADER } from '#contract/analytics.js';
import { pricesResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { analyticsClientId } from '../../../lib/analytics';
import { api } from '../../../lib/api-client';
import { type PlanPrices, pricesByInterval } from '../plans';

/** The pricing calls carry the visitor's analytics client id when it is known (docs/product.md §7). */
export const analyticsHeaders = (clientId: string | null): Record<string, string> =>
  clientId ? { [ANALYTICS_CLIENT_ID_HEADER]: clientId } : {};

/** The plans' prices (GET /get-prices). */
export const getPrices = (clientId: string | null) =>
  api.get(API.prices, pricesResponseSchema, analyticsHeaders(clientId));

/** The same for everyone. */
const PRICES_KEY = ['prices'] as const;

/**
 * The plans' prices, with the analytics client id when known; `prices` is null while loading or when the
 * call failed (`failed`; docs/product.md §8: only logged, the cards show no amounts).
 */
export function usePrices({ enabled = true }: { enabled?: boolean } = {}): {
  prices: PlanPrices | null;
  failed: boolean;
} {
  const { data, isError } = useQuery({
    queryKey: PRICES_KEY,
    queryFn: async () => pricesByInterval((await getPrices(await analyticsClientId())).data),
    staleTime: 5 * 60 * 1000,
    enabled,
    meta: { errorMessage: 'Failed to fetch prices...' },
  });
  return { prices: data ?? null, failed: isError };
}
