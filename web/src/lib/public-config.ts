import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from './api-client';

export type PublicConfigState = { status: 'loading' } | { status: 'ready'; config: PublicConfig | null };

/** The public configuration (GET /get-public-config), asked by the first page of every visit. */
export const getPublicConfig = () => api.getUnparsed<PublicConfig>(API.publicConfig);

const PUBLIC_CONFIG_KEY = ['public-config'] as const;

/**
 * The public configuration; `config` is null when it could not be fetched. It changes only with a
 * restart of the server: fetched once per page load, kept for every screen (a failed fetch is asked
 * again by the next screen that needs it).
 */
export function usePublicConfig(): PublicConfigState {
  const query = useQuery({
    queryKey: PUBLIC_CONFIG_KEY,
    queryFn: getPublicConfig,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    meta: { errorMessage: 'Failed to fetch public config...' },
  });
  // A screen opened after a failed fetch waits for the new attempt, as the first one did.
  if (query.isFetching && query.data === undefined) return { status: 'loading' };
  return { status: 'ready', config: query.data ?? null };
}
