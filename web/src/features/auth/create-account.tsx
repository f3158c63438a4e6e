import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { z } from 'zod';
import { appPasswordProviderFor } from '#contract/providers.js';
import { SCREENS } from '#contract/routes.js';
import { MESSAGES, SCREEN_ERRORS, validateSignup } from '#contract/validation.js';
import { AuthCard, ErrorBanner, Field, SubmitButton, useSubmit } from '../../components/auth-form';
import { ruleSchema, useSchemaForm } from '../../components/form-schema';
import { track } from '../../lib/analytics';
import { rememberSignupAddress } from '../../lib/signup-address';
import { signUp } from './api/sign-up';
import { SignedOutOnly } from './signed-out-only';
import { useSignedIn } from './use-signed-in';

/** The sign-up body's rules plus the confirmation, which only the form has. */
const createAccountSchema = ruleSchema(
  { email: z.string(), password: z.string(), confirm: z.string() },
  validateSignup,
  (message) =>
    message === MESSAGES.invalidEmail
      ? 'email'
      : message === MESSAGES.passwordsDoNotMatch
        ? 'confirm'
        : 'password',
);

/** /create-account (docs/product.md §2 Create account screen); a signed-in visitor goes to the app. */
export default function CreateAccount() {
  return (
    <SignedOutOnly>
      <CreateAccountForm />
    </SignedOutOnly>
  );
}

function CreateAccountForm() {
  const form = useSchemaForm(createAccountSchema, { email: '', password: '', confirm: '' });
  const signedIn = useSignedIn();

  const { busy, error, onSubmit } = useSubmit({
    form,
    fallback: SCREEN_ERRORS.signup,
    run: async ({ email, password }) => {
      const { redirectUrl } = await signUp({ email: email.trim(), password });
      // Google and Microsoft sign-ups are not counted: the server's redirect does not say a user was created.
      track('sign_up', { method: 'Email' });
      // The Add Mailbox form that follows is prefilled with it (lib/signup-address.ts).
      rememberSignupAddress(email.trim());
      // Yahoo and iCloud mailboxes connect with an app-specific password next.
      const provider = appPasswordProviderFor(email);
      await signedIn(provider ? `${SCREENS.addMailbox}?provider=${provider}` : redirectUrl);
    },
  });

  return (
    <AuthCard title="Create Account">
      <Form noValidate onSubmit={onSubmit}>
        <ErrorBanner message={error} />
        <Field
          id="signup-email"
          label="Email"
          type="email"
          autoComplete="email"
          registration={form.register('email')}
        />
        <Field
          id="signup-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          registration={form.register('password')}
        />
        <Field
          id="signup-confirm"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          registration={form.register('confirm')}
        />
        <SubmitButton busy={busy} label="Create Account" busyLabel="Creating..." />
      </Form>
      <p className="text-center mt-3 mb-0 small">
        Already have an account? <Link to={SCREENS.signinPassword}>Sign in</Link>
      </p>
    </AuthCard>
  );
}
