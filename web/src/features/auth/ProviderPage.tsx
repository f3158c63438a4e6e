import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { AuthCard } from '../../components/AuthForm';
import { OAuthError } from '../../components/OAuthError';
import { type PickerMode, ProviderPicker } from '../../components/ProviderPicker';
import { PasskeySignIn } from './PasskeySignIn';
import { rememberReturnPath } from './returnPath';
import { SignedOutOnly } from './SignedOutOnly';
import { SigninNotice } from './SigninNotice';

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
