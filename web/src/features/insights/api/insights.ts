import { useQuery } from '@tanstack/react-query';
import { insightsResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { USER_KEY } from '../../../lib/query-keys';

/** The Insights screen's figures in the query cache, under the signed-in user's. */
export const insightsKey = [...USER_KEY, 'insights'] as const;

/** GET /insights. */
export const getInsights = () => api.get(API.insights, insightsResponseSchema);

export function useInsights() {
  return useQuery({
    queryKey: insightsKey,
    queryFn: getInsights,
    meta: { errorMessage: 'Failed to fetch your insights...' },
  });
}
