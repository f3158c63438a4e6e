// Whether the visitor is signed in (GET /signin-status/), shared by the nav bar and the gates. It is
// asked once per page load and again right after signing in; a sign-in or sign-out also drops the
// user's cached data, so that the next user never sees the previous one's lists.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useMemo } from 'react';
import { Navigate } from 'react-router';
import { SCREENS } from '#contract/routes.js';
import { signinStatus } from '../../api/calls';
import { Loading } from '../../components/Loading';
import { queryKeys } from '../../lib/query-keys';

interface Session {
  /** null until the first status answer arrives. */
  signedIn: boolean | null;
  /** Asks the server again, e.g. right after signing in. */
  refresh: () => Promise<boolean>;
  /** Records a sign-out (logout, account deletion) without asking the server. */
  signedOut: () => void;
}

/** A failed status call counts as signed out. */
const fetchSignedIn = () =>
  signinStatus()
    .then((answer) => answer.status === true)
    .catch(() => false);

export function useSession(): Session {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: queryKeys.signinStatus,
    queryFn: fetchSignedIn,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const refresh = useCallback(async () => {
    const status = await queryClient.fetchQuery({
      queryKey: queryKeys.signinStatus,
      queryFn: fetchSignedIn,
      staleTime: 0,
    });
    queryClient.removeQueries({ queryKey: queryKeys.user });
    return status;
  }, [queryClient]);

  const signedOut = useCallback(() => {
    queryClient.setQueryData(queryKeys.signinStatus, false);
    queryClient.removeQueries({ queryKey: queryKeys.user });
  }, [queryClient]);

  return useMemo(() => ({ signedIn: data ?? null, refresh, signedOut }), [data, refresh, signedOut]);
}

/** Session gate (docs/product.md §4): without a session the visitor goes to the sign-in page. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { signedIn } = useSession();
  if (signedIn === null) return <Loading />;
  if (!signedIn) return <Navigate to={SCREENS.signin} replace />;
  return children;
}
