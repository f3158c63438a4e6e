import { type ReactNode, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useNavigate } from 'react-router';
import type { PublicConfig } from '#contract/api.js';
import { type PickerMode, PROVIDERS, type ProviderDescriptor, pickerTarget } from '#contract/providers.js';
import { usePublicConfig } from '../lib/public-config';
import { ContactLink } from './contact';

export type { PickerMode };

// The providers, their names and where each use of the picker sends them are the rows of
// contract/providers.ts, in its order.

const TITLES: Record<PickerMode, string> = {
  signin: 'Sign In',
  signup: 'Sign Up',
  add: 'Add an Email Account',
};

const SUGGESTION = { subject: 'New provider suggestion', message: 'Please add support for: ' };

/**
 * Whether an OAuth provider is switched off on this server (false while unknown). The server's `reason`
 * is not shown: whatever a server's setup says there, visitors get one plain sentence and a way to ask.
 */
function isUnavailable(provider: ProviderDescriptor, config: PublicConfig | null): boolean {
  if (!('oauth' in provider) || !config) return false;
  return !config.providers[provider.oauth].available;
}

const UNAVAILABLE_TEXT = 'Not available on this server yet.';

const askFor = (label: string) => ({
  subject: `${label} sign-in`,
  message: `I would like to use Inbox Genie with ${label}. `,
});

interface ProviderPickerProps {
  mode: PickerMode;
  /** h1 on its own screen, h2 when it is part of a larger page. */
  headingLevel?: 1 | 2;
  /** Another way in, under the provider's button (the sign-in screen's passkey button). */
  children?: ReactNode;
}

/** docs/product.md §2 Provider picker. */
export function ProviderPicker({ mode, headingLevel = 1, children }: ProviderPickerProps) {
  const navigate = useNavigate();
  const selectId = useId();
  const publicConfig = usePublicConfig();
  const [choice, setChoice] = useState('');
  const provider = PROVIDERS.find((p) => p.label === choice);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const configLoading = publicConfig.status === 'loading';
  const unavailable =
    provider !== undefined && publicConfig.status === 'ready' && isUnavailable(provider, publicConfig.config);

  function connect() {
    if (!provider) return;
    const target = pickerTarget(provider, mode);
    // OAuth starts on the server (a full page load); the password providers' screens are the SPA's.
    if (target.kind === 'server') window.location.assign(target.href);
    else navigate(target.path);
  }

  return (
    <div className="provider-picker">
      <Heading className="h3 text-center mb-4">{TITLES[mode]}</Heading>
      <Form.Group className="mb-3">
        <Form.Label htmlFor={selectId}>Email provider</Form.Label>
        <Form.Select id={selectId} value={choice} onChange={(e) => setChoice(e.target.value)}>
          <option value="">Choose your email provider</option>
          {PROVIDERS.map((p) => (
            <option key={p.id} value={p.label}>
              {p.label}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      {provider && unavailable && (
        <Alert variant="warning" role="status">
          <strong>{provider.label}:</strong> {UNAVAILABLE_TEXT}{' '}
          <ContactLink prefill={askFor(provider.label)}>Contact us</ContactLink> to ask for it.
        </Alert>
      )}
      {provider && !unavailable && (
        <Button
          className="w-100"
          variant="primary"
          onClick={connect}
          disabled={provider.auth === 'oauth' && configLoading}
        >
          Sign in with {provider.label}
        </Button>
      )}
      {children}
      <p className="text-center mt-4 mb-0 small">
        Don't see your provider? <ContactLink prefill={SUGGESTION}>Suggest a New Provider</ContactLink>
      </p>
    </div>
  );
}
