import { useQuery } from '@tanstack/react-query';
import { subscriptionStatus } from '../../api/calls';
import { queryKeys } from '../../api/queryKeys';

/** Whether the user has an active subscription (GET /subscription-status); null until known. */
export function useHasSubscription(): boolean | null {
  const { data } = useQuery({
    queryKey: queryKeys.subscriptionStatus,
    queryFn: async () => (await subscriptionStatus()).status === true,
  });
  return data ?? null;
}
