import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '#contract/api.js';
import { getPublicConfig } from '../api/calls';
import { queryKeys } from './query-keys';

export type PublicConfigState = { status: 'loading' } | { status: 'ready'; config: PublicConfig | null };

/**
 * The public configuration; `config` is null when it could not be fetched. It changes only with a
 * restart of the server: fetched once per page load, kept for every screen (a failed fetch is asked
 * again by the next screen that needs it).
 */
export function usePublicConfig(): PublicConfigState {
  const query = useQuery({
    queryKey: queryKeys.publicConfig,
    queryFn: getPublicConfig,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    meta: { errorMessage: 'Failed to fetch public config...' },
  });
  // A screen opened after a failed fetch waits for the new attempt, as the first one did.
  if (query.isFetching && query.data === undefined) return { status: 'loading' };
  return { status: 'ready', config: query.data ?? null };
}
