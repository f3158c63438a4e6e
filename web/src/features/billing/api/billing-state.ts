import { useQuery } from '@tanstack/react-query';
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
