// Whether the visitor is signed in (GET /signin-status/), shared by the nav bars, the gates and the screens. It is
// asked once per page load and again right after signing in; a sign-in or sign-out also drops the
// user's cached data, so that the next user never sees the previous one's lists.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { StatusResponse } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from './api-client';
import { SIGNIN_STATUS_KEY, USER_KEY } from './query-keys';

/** Whether the visitor is signed in (GET /signin-status); asked by the first page of every visit. */
export const getSigninStatus = () => api.getUnparsed<StatusResponse>(API.signinStatus);

/** A failed status call counts as signed out. */
const fetchSignedIn = () =>
  getSigninStatus()
    .then((answer) => answer.status === true)
    .catch(() => false);

export const signinStatusQueryOptions = (staleTime = Number.POSITIVE_INFINITY) => ({
  queryKey: SIGNIN_STATUS_KEY,
  queryFn: fetchSignedIn,
  staleTime,
});

interface Session {
  /** null until the first status answer arrives. */
  signedIn: boolean | null;
  /** Asks the server again, e.g. right after signing in. */
  refresh: () => Promise<boolean>;
  /** Records a sign-out (logout, account deletion) without asking the server. */
  signedOut: () => void;
}

export function useSession(): Session {
  const queryClient = useQueryClient();
  const { data } = useQuery(signinStatusQueryOptions());

  const refresh = useCallback(async () => {
    const status = await queryClient.fetchQuery(signinStatusQueryOptions(0));
    queryClient.removeQueries({ queryKey: USER_KEY });
    return status;
  }, [queryClient]);

  const signedOut = useCallback(() => {
    queryClient.setQueryData(SIGNIN_STATUS_KEY, false);
    queryClient.removeQueries({ queryKey: USER_KEY });
  }, [queryClient]);

  return useMemo(() => ({ signedIn: data ?? null, refresh, signedOut }), [data, refresh, signedOut]);
}
