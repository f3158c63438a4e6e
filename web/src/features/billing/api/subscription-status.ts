import { useQuery } from '@tanstack/react-query';
import { statusResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { USER_KEY } from '../../../lib/query-keys';

/** Whether the user has an active subscription (GET /subscription-status). */
export const getSubscriptionStatus = () => api.get(API.subscriptionStatus, statusResponseSchema);

export const SUBSCRIPTION_STATUS_KEY = [...USER_KEY, 'subscription-status'] as const;

/** Whether the user has an active subscription; null until known. */
export function useHasSubscription({ enabled = true }: { enabled?: boolean } = {}): boolean | null {
  const { data } = useQuery({
    queryKey: SUBSCRIPTION_STATUS_KEY,
    queryFn: async () => (await getSubscriptionStatus()).status === true,
    enabled,
  });
  return enabled ? (data ?? null) : null;
}
