import { type QueryClient, useQuery } from '@tanstack/react-query';
import { type BillingState, billingStateSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { USER_KEY } from '../../../lib/query-keys';

/** The Billing screen's state (GET /get-billing). */
export const getBilling = () => api.get(API.billing, billingStateSchema);

const BILLING_KEY = [...USER_KEY, 'billing'] as const;

/** The Billing screen's state; `pollMs`: ask again every so often (a payment being confirmed), or false. */
export function useBilling(pollMs: (state: BillingState | undefined) => number | false) {
  return useQuery({
    queryKey: BILLING_KEY,
    queryFn: getBilling,
    refetchInterval: (query) => pollMs(query.state.data),
    meta: { errorMessage: 'Failed to fetch billing...' },
  });
}

/**
 * The free unsubscribes left (GET /get-billing's usage.unsubscribesLeft), for the list and a bulk
 * confirmation; null while unknown or when nothing is limited (premium, billing off).
 */
export function useFreeUnsubscribesLeft(): number | null {
  const { data } = useQuery({
    queryKey: BILLING_KEY,
    queryFn: getBilling,
    meta: { errorMessage: 'Failed to fetch billing...' },
  });
  return data?.usage.unsubscribesLeft ?? null;
}

/** After an unsubscribe, a block or a manual confirmation (each may use one): the count is asked again. */
export function invalidateTrialUsage(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: BILLING_KEY });
}
