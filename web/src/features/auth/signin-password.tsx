import Form from 'react-bootstrap/Form';
import { Link, useNavigate } from 'react-router';
import { signinBodySchema } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { SCREEN_ERRORS } from '#contract/validation.js';
import { AuthCard, ErrorBanner, Field, SubmitButton, useSubmit } from '../../components/auth-form';
import { useSchemaForm } from '../../components/form-schema';
import { track } from '../../lib/analytics';
import { signIn } from './api/sign-in';
import { PasskeySignIn } from './passkey-sign-in';
import { SignedOutOnly } from './signed-out-only';
import { SigninNotice } from './signin-notice';
import { useSignedIn } from './use-signed-in';

/** /signin/password (docs/product.md §2 Sign-in screen); a signed-in visitor goes to the app. */
export default function SigninPassword() {
  return (
    <SignedOutOnly>
      <SigninForm />
    </SignedOutOnly>
  );
}

function SigninForm() {
  // The API's own body schema: the form has exactly its fields.
  const form = useSchemaForm(signinBodySchema, { email: '', password: '' });
  const signedIn = useSignedIn();
  const navigate = useNavigate();

  const { busy, error, onSubmit } = useSubmit({
    form,
    fallback: SCREEN_ERRORS.signin,
    run: async ({ email, password }) => {
      const answer = await signIn({ email: email.trim(), password });
      // Two-step sign-in: no session yet, the code comes first (the return path waits in sessionStorage).
      if ('totpRequired' in answer) {
        navigate(SCREENS.signinTotp);
        return;
      }
      track('login', { method: 'Email' });
      await signedIn(answer.redirectUrl || SCREENS.connectMailbox);
    },
  });

  return (
    <AuthCard title="Sign In">
      <SigninNotice />
      <Form noValidate onSubmit={onSubmit}>
        <ErrorBanner message={error} />
        <Field
          id="signin-email"
          label="Email"
          type="email"
          autoComplete="email"
          registration={form.register('email')}
        />
        <Field
          id="signin-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          registration={form.register('password')}
        />
        <div className="text-end mb-3 small">
          <Link to={SCREENS.resetPassword}>Forgot Password?</Link>
        </div>
        <SubmitButton busy={busy} label="Sign In" busyLabel="Signing in…" />
      </Form>
      <PasskeySignIn />
      <p className="text-center mt-3 mb-0 small">
        New here? <Link to={SCREENS.createAccount}>Create an account</Link>
      </p>
    </AuthCard>
  );
}
