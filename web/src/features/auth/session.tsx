// Whether the visitor is signed in (GET /signin-status/), shared by the nav bar and the gates.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { Navigate } from 'react-router';
import { SCREENS } from '../../../../contract/routes.js';
import { signinStatus } from '../../api/calls';
import { Loading } from '../../components/Loading';

interface Session {
  /** null until the first status answer arrives. */
  signedIn: boolean | null;
  /** Asks the server again, e.g. right after signing in. */
  refresh: () => Promise<boolean>;
  /** Records a sign-out (logout, account deletion) without asking the server. */
  signedOut: () => void;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [signedIn, setSignedIn] = useState<boolean | null>(null);

  const refresh = useCallback(async () => {
    const status = await signinStatus()
      .then((answer) => answer.status === true)
      .catch(() => false);
    setSignedIn(status);
    return status;
  }, []);

  const signedOut = useCallback(() => setSignedIn(false), []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const value = useMemo(() => ({ signedIn, refresh, signedOut }), [signedIn, refresh, signedOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a SessionProvider');
  return session;
}

/** Session gate (SPEC §4): without a session the visitor goes to the sign-in page. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { signedIn } = useSession();
  if (signedIn === null) return <Loading />;
  if (!signedIn) return <Navigate to={SCREENS.signin} replace />;
  return children;
}
