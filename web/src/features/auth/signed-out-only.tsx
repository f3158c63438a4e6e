import { type ReactNode, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { Loading } from '../../components/loading';
import { useSession } from '../../lib/session';
import { signedInDestination } from './return-path';

/**
 * The sign-in and sign-up screens: a visitor who is already signed in goes to the app (or `?next=`)
 * instead of seeing the form. Decided once, with the first known status: the form's own sign-in
 * changes the status too, and then the form decides where to go (useSignedIn).
 */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const { signedIn } = useSession();
  const [params] = useSearchParams();
  const [signedInAtOpen, setSignedInAtOpen] = useState<boolean | null>(signedIn);
  if (signedInAtOpen === null && signedIn !== null) setSignedInAtOpen(signedIn);

  if (signedInAtOpen === null) return <Loading />;
  if (signedInAtOpen) {
    return <Navigate to={signedInDestination(params.get('next'), window.location.origin)} replace />;
  }
  return children;
}
