import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { SECURITY_MESSAGES } from '#contract/api.js';
import { ErrorBanner } from '../../components/auth-form';
import { track } from '../../lib/analytics';
import { messageOf } from '../../lib/api-client';
import { isPasskeyCancel, passkeysSupported } from '../../lib/webauthn';
import { signInWithPasskey } from './api/passkey-sign-in';
import { useSignedIn } from './use-signed-in';

/**
 * "Sign in with a passkey" under a sign-in form: the browser offers this site's passkeys, no address typed.
 * Hidden where the browser has no WebAuthn. A closed prompt is no failure: the button is simply ready again.
 */
export function PasskeySignIn() {
  const signedIn = useSignedIn();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!passkeysSupported()) return null;

  async function run() {
    setBusy(true);
    setError(null);
    try {
      const { redirectUrl } = await signInWithPasskey();
      track('login', { method: 'Passkey' });
      // Busy until the next screen shows.
      await signedIn(redirectUrl);
    } catch (failure) {
      setBusy(false);
      if (!isPasskeyCancel(failure)) setError(messageOf(failure, SECURITY_MESSAGES.passkeyFailed));
    }
  }

  return (
    <div className="passkey-signin mt-3">
      <div className="or-divider text-body-secondary small my-3" aria-hidden="true">
        or
      </div>
      <ErrorBanner message={error} />
      <Button variant="outline-primary" className="w-100" disabled={busy} onClick={run}>
        {busy ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
      </Button>
    </div>
  );
}
