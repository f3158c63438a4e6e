import { useSearchParams } from 'react-router';
import { ErrorBanner, SeePlansLink } from './auth-form';
import { oauthErrorMessage, oauthNeedsPlan } from './oauth-error-message';

/**
 * The server sends a failed Google or Microsoft sign-in back with `?error=oauth&reason=<code>&provider=…`
 * (to /signin for sign-in and sign-up, to /genie/accounts when adding a mailbox); this shows why, in one
 * of the product's own sentences (with a link to the plans when a plan is what is missing).
 */
export function OAuthError() {
  const [params] = useSearchParams();
  return (
    <ErrorBanner message={oauthErrorMessage(params)}>
      {oauthNeedsPlan(params) && <SeePlansLink />}
    </ErrorBanner>
  );
}
