import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { AuthCard } from '../../components/auth-form';
import { OAuthError } from '../../components/oauth-error';
import { type PickerMode, ProviderPicker } from '../../components/provider-picker';
import { PasskeySignIn } from './passkey-sign-in';
import { rememberReturnPath } from './return-path';
import { SignedOutOnly } from './signed-out-only';
import { SigninNotice } from './signin-notice';

/**
 * /signin and /signup: the provider picker on its own card (on /signin with a passkey's way in too).
 * `?next=<path>`: where to return after. A signed-in visitor goes to the app (or `next`) instead.
 */
export default function ProviderPage({ mode }: { mode: Exclude<PickerMode, 'add'> }) {
  return (
    <SignedOutOnly>
      <ProviderCard mode={mode} />
    </SignedOutOnly>
  );
}

function ProviderCard({ mode }: { mode: Exclude<PickerMode, 'add'> }) {
  const [params] = useSearchParams();
  const next = params.get('next');
  useEffect(() => {
    if (next) rememberReturnPath(next);
  }, [next]);
  return (
    <AuthCard>
      {mode === 'signin' && <SigninNotice />}
      <OAuthError />
      <ProviderPicker mode={mode}>{mode === 'signin' && <PasskeySignIn />}</ProviderPicker>
    </AuthCard>
  );
}
