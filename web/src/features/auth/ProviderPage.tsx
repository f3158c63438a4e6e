import { AuthCard } from '../../components/AuthForm';
import { OAuthError } from '../../components/OAuthError';
import { type PickerMode, ProviderPicker } from '../../components/ProviderPicker';

/** /signin and /signup: the provider picker on its own card. */
export default function ProviderPage({ mode }: { mode: Exclude<PickerMode, 'add'> }) {
  return (
    <AuthCard>
      <OAuthError />
      <ProviderPicker mode={mode} />
    </AuthCard>
  );
}
