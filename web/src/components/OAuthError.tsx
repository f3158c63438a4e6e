import { useSearchParams } from 'react-router';
import { ErrorBanner } from './AuthForm';

/**
 * The server sends a failed Google or Microsoft sign-in back with `?error=oauth&message=…`
 * (to /signin for sign-in and sign-up, to /genie/accounts when adding a mailbox); this shows why.
 */
export function OAuthError() {
  const [params] = useSearchParams();
  if (params.get('error') !== 'oauth') return null;
  return (
    <ErrorBanner
      message={params.get('message') || 'Signing in with your provider did not complete. Please try again.'}
    />
  );
}
