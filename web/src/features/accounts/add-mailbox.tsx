import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import type { AddMailboxBody } from '#contract/api.js';
import { BILLING_MESSAGES } from '#contract/billing.js';
import {
  type AppPasswordProvider,
  addMailboxTitle,
  isAppPasswordProvider,
  providerById,
  providerDomainError,
} from '#contract/providers.js';
import { SCREENS } from '#contract/routes.js';
import {
  IMAP_MESSAGES,
  MESSAGES,
  SCREEN_ERRORS,
  validateAddMailbox,
  validateImapServer,
} from '#contract/validation.js';
import {
  AuthCard,
  ErrorBanner,
  Field,
  SeePlansLink,
  SubmitButton,
  useSubmit,
} from '../../components/auth-form';
import { ruleSchema, useSchemaForm } from '../../components/form-schema';
import { RequireSession } from '../../components/require-session';
import { isStatus } from '../../lib/api-client';
import { useGoTo } from '../../lib/navigation';
import { forgetSignupAddress, signupAddress } from '../../lib/signup-address';
import { addMailbox } from './api/add-mailbox';
import { useServerSuggestion } from './use-server-suggestion';

// The heading, the help link, the address rule and the server fields of each provider are its row in
// contract/providers.ts.

const TLS_PORT = 993;

function providerOf(value: string | null): AppPasswordProvider | null {
  const provider = value?.trim().toLowerCase() ?? '';
  return isAppPasswordProvider(provider) ? provider : null;
}

/**
 * The address typed at sign-up (lib/signup-address.ts) when it can be this provider's: a gmail.com address
 * is not offered to the Yahoo form.
 */
function prefilledAddress(provider: AppPasswordProvider | null): string {
  const typed = signupAddress();
  return typed && (!provider || !providerDomainError(provider, typed)) ? typed : '';
}

/** /add-mailbox?provider=… (docs/product.md §2 Add mailbox screen): connect a mailbox with an app password. */
export default function AddMailbox() {
  const [params] = useSearchParams();
  const provider = providerOf(params.get('provider'));
  return (
    <RequireSession>
      {/* Another provider is another form, with its own defaults. */}
      <AddMailboxForm
        key={provider ?? ''}
        provider={provider}
        initialEmail={params.get('email') ?? prefilledAddress(provider)}
      />
    </RequireSession>
  );
}

const NO_PROVIDER = 'Choose your email provider first.';

/**
 * The add-mailbox rules of the provider (its address rule, the app password), then, for providers that
 * ask where the IMAP server is, host and port (the port as typed: text).
 */
function addMailboxSchema(provider: AppPasswordProvider | null, asksServer: boolean) {
  return ruleSchema(
    { email: z.string(), appPassword: z.string(), host: z.string(), port: z.string(), secure: z.boolean() },
    ({ email, appPassword, host, port }) => {
      if (!provider) return NO_PROVIDER;
      return (
        validateAddMailbox({ provider, email, appPassword }) ??
        (asksServer ? validateImapServer({ host, port }) : null)
      );
    },
    (message) => {
      if (message === MESSAGES.appPasswordRequired) return 'appPassword';
      if (message === IMAP_MESSAGES.hostRequired) return 'host';
      if (message === IMAP_MESSAGES.portInvalid) return 'port';
      return 'email';
    },
  );
}

type Server = NonNullable<NonNullable<ReturnType<typeof providerById>>['addMailbox']>['server'];
type MailboxSchema = ReturnType<typeof addMailboxSchema>;

/** The body of POST /add-mailbox: the address and password, and the server fields where the form asks them. */
function bodyOf(
  { email, appPassword, host, port, secure }: z.output<MailboxSchema>,
  server: Server,
): AddMailboxBody {
  const answer: AddMailboxBody = { email: email.trim(), appPassword };
  const defaults = server?.defaults;
  if (!defaults) return answer;
  const typed = { host: host.trim(), port: Number(port.trim()), secure };
  // Where the server fields are optional (Proton Mail Bridge), unchanged ones mean the server's preset
  // (which an operator may override).
  const preset =
    server?.asks === 'optional' &&
    typed.host === defaults.host &&
    typed.port === defaults.port &&
    typed.secure === defaults.secure;
  return preset ? answer : { ...answer, ...typed };
}

function AddMailboxForm({
  provider,
  initialEmail,
}: {
  provider: AppPasswordProvider | null;
  initialEmail: string;
}) {
  const row = provider ? providerById(provider) : undefined;
  const server = row?.addMailbox?.server;
  const defaults = server?.defaults;
  const [schema] = useState(() => addMailboxSchema(provider, Boolean(defaults)));
  const form = useSchemaForm(schema, {
    // The same form again for a mailbox whose password stopped working (docs/product.md §8, 401 redirectUrl).
    email: initialEmail,
    appPassword: '',
    host: defaults?.host ?? '',
    port: String(defaults?.port ?? TLS_PORT),
    secure: defaults?.secure ?? true,
  });
  const goTo = useGoTo();
  // Any IMAP server: the host, port and TLS are suggested from the address's domain when the user leaves
  // the Email field (never over what they typed).
  const suggestion = useServerSuggestion(form, {
    enabled: server?.asks === 'required',
    defaultPort: String(defaults?.port ?? TLS_PORT),
  });

  const help = row?.addMailbox?.help;
  const title = addMailboxTitle(provider);

  const { busy, error, onSubmit } = useSubmit({
    form,
    // docs/product.md §8: the server's message as given; a 401 without one means a plan is needed.
    fallback: (failure) =>
      isStatus(failure, 401) ? SCREEN_ERRORS.subscriptionRequired : SCREEN_ERRORS.addMailbox,
    run: async (values) => {
      if (!provider) return;
      const { redirectUrl } = await addMailbox(provider, bodyOf(values, server));
      forgetSignupAddress();
      goTo(redirectUrl || SCREENS.subscriptions);
    },
  });

  return (
    <AuthCard title={title}>
      {!provider && (
        <p className="text-muted">
          No email provider chosen. <Link to={SCREENS.addAccount}>Choose your email provider</Link> first.
        </p>
      )}
      <Form noValidate onSubmit={onSubmit}>
        <ErrorBanner message={error}>
          {error === BILLING_MESSAGES.subscriptionRequired && <SeePlansLink />}
        </ErrorBanner>
        <Field
          id="mailbox-email"
          label="Email"
          type="email"
          autoComplete="email"
          registration={form.register('email', { onBlur: suggestion.onEmailBlur })}
        />
        <Form.Group className="mb-3" controlId="mailbox-app-password">
          <Form.Label>App-Specific Password</Form.Label>
          <Form.Control type="password" autoComplete="off" {...form.register('appPassword')} />
          {help && (
            <Form.Text>
              <a href={help.href} target="_blank" rel="noopener noreferrer">
                {help.label}
              </a>
            </Form.Text>
          )}
        </Form.Group>
        {defaults && <ServerSettings note={server?.note} suggested={suggestion.note} form={form} />}
        <SubmitButton busy={busy} disabled={!provider} label="Add Account" busyLabel="Adding..." />
      </Form>
    </AuthCard>
  );
}

/**
 * "Server settings", for providers that ask where the IMAP server is: host, port (as typed) and TLS.
 */
function ServerSettings({
  note,
  suggested,
  form,
}: {
  note: string | undefined;
  /** Where the IMAP server filled in came from, while the field holds it. */
  suggested: string | null;
  form: ReturnType<typeof useSchemaForm<MailboxSchema>>;
}) {
  const [secureTouched, setSecureTouched] = useState(false);
  return (
    <fieldset className="mb-3">
      <legend className="fs-6 fw-semibold">Server settings</legend>
      {note && <p className="small text-muted">{note}</p>}
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
            {...form.register('host')}
          />
        </Form.Group>
        <Form.Group className="col-12 col-sm-4" controlId="mailbox-port">
          <Form.Label>Port</Form.Label>
          <Form.Control
            type="text"
            inputMode="numeric"
            autoComplete="off"
            {...form.register('port', {
              // TLS from the first byte is the rule on 993; the switch follows the port until it
              // is set by hand.
              onChange: (e) => {
                if (!secureTouched) form.setValue('secure', Number(e.target.value.trim()) === TLS_PORT);
              },
            })}
          />
        </Form.Group>
      </div>
      {/* Present from the start, so a screen reader announces the suggestion when it arrives. */}
      <p className="small text-muted mt-1 mb-0" aria-live="polite">
        {suggested}
      </p>
      <Form.Check
        type="switch"
        role="switch"
        id="mailbox-secure"
        className="mt-2"
        label="Use TLS (SSL)"
        {...form.register('secure', { onChange: () => setSecureTouched(true) })}
      />
    </fieldset>
  );
}
