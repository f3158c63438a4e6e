import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { SECURITY_MESSAGES } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { AuthCard, ErrorBanner, SubmitButton, useSubmit } from '../../components/auth-form';
import { CodeField } from '../../components/code-field';
import { useSchemaForm } from '../../components/form-schema';
import { normaliseCode } from '../../components/one-time-code';
import { signInWithCode } from './api/sign-in';
import { codeFormSchema } from './code-form';
import { SignedOutOnly } from './signed-out-only';
import { useSignedIn } from './use-signed-in';

/**
 * /signin/code: the second step of a sign-in (password, Google or Microsoft) when the account has two-step
 * sign-in on. The first step left a short-lived cookie; when it has expired, the way back is to sign in again.
 */
export default function SigninCode() {
  return (
    <SignedOutOnly>
      <SigninCodeForm />
    </SignedOutOnly>
  );
}

function SigninCodeForm() {
  const form = useSchemaForm(codeFormSchema, { code: '' });
  const signedIn = useSignedIn();

  const { busy, error, onSubmit } = useSubmit({
    form,
    fallback: SECURITY_MESSAGES.wrongCode,
    run: async ({ code }) => {
      const { redirectUrl } = await signInWithCode(normaliseCode(code));
      await signedIn(redirectUrl || SCREENS.connectMailbox);
    },
  });
  const expired = error === SECURITY_MESSAGES.signinExpired;

  return (
    <AuthCard title="Two-step sign-in">
      <p className="text-body-secondary">Your account asks for a second step.</p>
      <Form noValidate onSubmit={onSubmit}>
        <ErrorBanner message={error}>
          {expired && (
            <>
              {' '}
              <Link to={SCREENS.signin} className="alert-link">
                Sign in again
              </Link>
            </>
          )}
        </ErrorBanner>
        <CodeField id="signin-code" registration={form.register('code')} />
        <SubmitButton busy={busy} label="Continue" busyLabel="Checking…" />
      </Form>
      <p className="text-center mt-3 mb-0 small">
        <Link to={SCREENS.signin}>Back to sign in</Link>
      </p>
    </AuthCard>
  );
}
