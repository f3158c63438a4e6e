import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { SCREENS } from '#contract/routes.js';
import { useSession } from '../lib/session';
import { Loading } from './loading';

/** Session gate (docs/product.md §4): without a session the visitor goes to the sign-in page. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { signedIn } = useSession();
  if (signedIn === null) return <Loading />;
  if (!signedIn) return <Navigate to={SCREENS.signin} replace />;
  return children;
}
