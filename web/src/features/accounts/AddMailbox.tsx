import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { Link, useSearchParams } from 'react-router';
import {
  type AddMailboxBody,
  APP_PASSWORD_PROVIDERS,
  type AppPasswordProvider,
} from '../../../../contract/api.js';
import { SCREENS } from '../../../../contract/routes.js';
import { SCREEN_ERRORS, validateAddMailbox, validateImapServer } from '../../../../contract/validation.js';
import { addMailbox } from '../../api/calls';
import { isStatus } from '../../api/client';
import { AuthCard, ErrorBanner, Field, SubmitButton, useSubmit } from '../../components/AuthForm';
import { useGoTo } from '../../navigation';
import { RequireSession } from '../auth/session';

const TITLES: Partial<Record<AppPasswordProvider, string>> = {
  yahoo: 'Add Yahoo Account',
  icloud: 'Add Icloud Account',
};
const DEFAULT_TITLE = 'Add Email Account';

/** Where each provider explains how to create an app-specific password. */
const HELP_LINKS: Partial<Record<AppPasswordProvider, { href: string; label: string }>> = {
  yahoo: {
    href: 'https://help.yahoo.com/kb/SLN15241.html',
    label: 'How do I create a Yahoo app password?',
  },
  icloud: {
    href: 'https://support.apple.com/en-us/102654',
    label: 'How do I create an iCloud app-specific password?',
  },
};

interface ImapServer {
  host: string;
  port: number;
  secure: boolean;
}

/** Providers whose form asks where the IMAP server is, and what it starts with. */
const SERVER_DEFAULTS: Partial<Record<AppPasswordProvider, ImapServer>> = {
  imap: { host: '', port: 993, secure: true },
  // Proton Mail Bridge on this computer, speaking STARTTLS.
  protonmail: { host: '127.0.0.1', port: 1143, secure: false },
};

const TLS_PORT = 993;

function providerOf(value: string | null): AppPasswordProvider | null {
  const provider = value?.trim().toLowerCase() ?? '';
  return (APP_PASSWORD_PROVIDERS as readonly string[]).includes(provider)
    ? (provider as AppPasswordProvider)
    : null;
}

/** /add-mailbox?provider=… (SPEC §2 Add mailbox screen): connect a mailbox with an app password. */
export default function AddMailbox() {
  const [params] = useSearchParams();
  const provider = providerOf(params.get('provider'));
  return (
    <RequireSession>
      {/* Another provider is another form, with its own defaults. */}
      <AddMailboxForm key={provider ?? ''} provider={provider} initialEmail={params.get('email') ?? ''} />
    </RequireSession>
  );
}

const NO_PROVIDER = 'Choose your email provider first.';

function AddMailboxForm({
  provider,
  initialEmail,
}: {
  provider: AppPasswordProvider | null;
  initialEmail: string;
}) {
  // The same form again for a mailbox whose password stopped working (SPEC §8, 401 redirectUrl).
  const [email, setEmail] = useState(initialEmail);
  const [appPassword, setAppPassword] = useState('');
  const defaults = provider ? SERVER_DEFAULTS[provider] : undefined;
  const [host, setHost] = useState(defaults?.host ?? '');
  const [port, setPort] = useState(String(defaults?.port ?? TLS_PORT));
  const [secure, setSecure] = useState(defaults?.secure ?? true);
  const [secureTouched, setSecureTouched] = useState(false);
  const goTo = useGoTo();

  const help = provider ? HELP_LINKS[provider] : undefined;
  const title = (provider && TITLES[provider]) ?? DEFAULT_TITLE;

  function body(): AddMailboxBody {
    const answer: AddMailboxBody = { email: email.trim(), appPassword };
    if (!defaults) return answer;
    const server = { host: host.trim(), port: Number(port.trim()), secure };
    // Unchanged Proton Mail Bridge settings are the server's preset (which an operator may override).
    const preset =
      provider === 'protonmail' &&
      server.host === defaults.host &&
      server.port === defaults.port &&
      server.secure === defaults.secure;
    return preset ? answer : { ...answer, ...server };
  }

  const { busy, error, onSubmit } = useSubmit({
    validate: () => {
      if (!provider) return NO_PROVIDER;
      return (
        validateAddMailbox({ provider, email, appPassword }) ??
        (defaults ? validateImapServer({ host, port }) : null)
      );
    },
    // SPEC §8: the server's message as given; a 401 without one means a plan is needed.
    fallback: (failure) =>
      isStatus(failure, 401) ? SCREEN_ERRORS.subscriptionRequired : SCREEN_ERRORS.addMailbox,
    run: async () => {
      if (!provider) return;
      const { redirectUrl } = await addMailbox(provider, body());
      goTo(redirectUrl || SCREENS.subscriptions);
    },
  });

  function changePort(value: string) {
    setPort(value);
    // TLS from the first byte is the rule on 993; the switch follows the port until it is set by hand.
    if (!secureTouched) setSecure(Number(value.trim()) === TLS_PORT);
  }

  return (
    <AuthCard title={title}>
      {!provider && (
        <p className="text-muted">
          No email provider chosen. <Link to={SCREENS.addAccount}>Choose your email provider</Link> first.
        </p>
      )}
      <Form noValidate onSubmit={onSubmit}>
        <ErrorBanner message={error} />
        <Field
          id="mailbox-email"
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
        />
        <Form.Group className="mb-3" controlId="mailbox-app-password">
          <Form.Label>App-Specific Password</Form.Label>
          <Form.Control
            type="password"
            autoComplete="off"
            value={appPassword}
            onChange={(e) => setAppPassword(e.target.value)}
          />
          {help && (
            <Form.Text>
              <a href={help.href} target="_blank" rel="noopener noreferrer">
                {help.label}
              </a>
            </Form.Text>
          )}
        </Form.Group>
        {defaults && (
          <fieldset className="mb-3">
            <legend className="fs-6 fw-semibold">Server settings</legend>
            {provider === 'protonmail' && (
              <p className="small text-muted">
                Proton Mail connects through Proton Mail Bridge; use the host, port and password it shows.
              </p>
            )}
            <div className="row g-2">
              <Form.Group className="col-12 col-sm-8" controlId="mailbox-host">
                <Form.Label>IMAP Server</Form.Label>
                <Form.Control
                  type="text"
                  inputMode="url"
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  placeholder="imap.example.com"
                  value={host}
                  onChange={(e) => setHost(e.target.value)}
                />
              </Form.Group>
              <Form.Group className="col-12 col-sm-4" controlId="mailbox-port">
                <Form.Label>Port</Form.Label>
                <Form.Control
                  type="text"
                  inputMode="numeric"
                  autoComplete="off"
                  value={port}
                  onChange={(e) => changePort(e.target.value)}
                />
              </Form.Group>
            </div>
            <Form.Check
              type="switch"
              role="switch"
              id="mailbox-secure"
              className="mt-2"
              label="Use TLS (SSL)"
              checked={secure}
              onChange={(e) => {
                setSecureTouched(true);
                setSecure(e.target.checked);
              }}
            />
          </fieldset>
        )}
        <SubmitButton busy={busy} disabled={!provider} label="Add Account" busyLabel="Adding..." />
      </Form>
    </AuthCard>
  );
}
