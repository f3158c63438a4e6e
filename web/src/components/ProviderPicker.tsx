import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useNavigate } from 'react-router';
import type { PublicConfig } from '../../../contract/api.js';
import { SCREENS } from '../../../contract/routes.js';
import { usePublicConfig } from '../api/publicConfig';
import { type OAuthIntent, type OAuthProvider, startOAuth } from '../navigation';
import { ContactLink } from './contact';

export type PickerMode = OAuthIntent;

interface Provider {
  name: string;
  /** Gmail and Outlook sign in with OAuth; every other provider uses a password account. */
  oauth?: OAuthProvider;
  /** ?provider= of the add-mailbox screen. */
  mailbox?: string;
}

// docs/product.md §2 names the routes of Yahoo and iCloud only. The other password providers follow them
// for Sign In (/signin/password) and Sign Up (/create-account); to add a mailbox, ProtonMail,
// AOL and Mail (any IMAP server) go to /add-mailbox?provider=protonmail|aol|imap.
const PROVIDERS: readonly Provider[] = [
  { name: 'Gmail', oauth: 'google' },
  { name: 'Outlook', oauth: 'outlook' },
  { name: 'ProtonMail', mailbox: 'protonmail' },
  { name: 'Yahoo', mailbox: 'yahoo' },
  { name: 'AOL', mailbox: 'aol' },
  { name: 'iCloud', mailbox: 'icloud' },
  { name: 'Mail', mailbox: 'imap' },
];

const TITLES: Record<PickerMode, string> = {
  signin: 'Sign In',
  signup: 'Sign Up',
  add: 'Add an Email Account',
};

const SUGGESTION = { subject: 'New provider suggestion', message: 'Please add support for: ' };

function passwordRoute(provider: Provider, mode: PickerMode): string {
  if (mode === 'signin') return SCREENS.signinPassword;
  if (mode === 'signup') return SCREENS.createAccount;
  return `${SCREENS.addMailbox}?provider=${provider.mailbox}`;
}

/** Why an OAuth provider cannot be used on this server, or null when it can (or is unknown). */
function unavailableReason(provider: Provider, config: PublicConfig | null): string | null {
  if (!provider.oauth || !config) return null;
  const state = config.providers[provider.oauth];
  return state.available ? null : (state.reason ?? `${provider.name} is not available right now.`);
}

interface ProviderPickerProps {
  mode: PickerMode;
  /** h1 on its own screen, h2 when it is part of a larger page. */
  headingLevel?: 1 | 2;
}

/** docs/product.md §2 Provider picker. */
export function ProviderPicker({ mode, headingLevel = 1 }: ProviderPickerProps) {
  const navigate = useNavigate();
  const selectId = useId();
  const publicConfig = usePublicConfig();
  const [choice, setChoice] = useState('');
  const provider = PROVIDERS.find((p) => p.name === choice);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const configLoading = publicConfig.status === 'loading';
  const reason =
    provider && publicConfig.status === 'ready' ? unavailableReason(provider, publicConfig.config) : null;

  function connect() {
    if (!provider) return;
    if (provider.oauth) startOAuth(provider.oauth, mode);
    else navigate(passwordRoute(provider, mode));
  }

  return (
    <div className="provider-picker">
      <Heading className="h3 text-center mb-4">{TITLES[mode]}</Heading>
      <Form.Group className="mb-3">
        <Form.Label htmlFor={selectId}>Email provider</Form.Label>
        <Form.Select id={selectId} value={choice} onChange={(e) => setChoice(e.target.value)}>
          <option value="">Choose your email provider</option>
          {PROVIDERS.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      {provider && reason && (
        <Alert variant="warning" role="status">
          <strong>{provider.name} is unavailable.</strong> {reason}
        </Alert>
      )}
      {provider && !reason && (
        <Button
          className="w-100"
          variant="primary"
          onClick={connect}
          disabled={Boolean(provider.oauth) && configLoading}
        >
          Sign in with {provider.name}
        </Button>
      )}
      <p className="text-center mt-4 mb-0 small">
        Don't see your provider? <ContactLink prefill={SUGGESTION}>Suggest a New Provider</ContactLink>
      </p>
    </div>
  );
}
