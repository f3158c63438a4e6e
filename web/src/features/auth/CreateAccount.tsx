import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { SCREENS } from '../../../../contract/routes.js';
import { appPasswordProviderFor, SCREEN_ERRORS, validateSignup } from '../../../../contract/validation.js';
import { signUp } from '../../api/calls';
import { AuthCard, ErrorBanner, Field, SubmitButton, useSubmit } from '../../components/AuthForm';
import { useSignedIn } from './useSignedIn';

/** /create-account (SPEC §2 Create account screen). */
export default function CreateAccount() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const signedIn = useSignedIn();

  const { busy, error, onSubmit } = useSubmit({
    validate: () => validateSignup({ email, password, confirm }),
    fallback: SCREEN_ERRORS.signup,
    run: async () => {
      const { redirectUrl } = await signUp({ email: email.trim(), password });
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
          value={email}
          onChange={setEmail}
        />
        <Field
          id="signup-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
        />
        <Field
          id="signup-confirm"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={setConfirm}
        />
        <SubmitButton busy={busy} label="Create Account" busyLabel="Creating..." />
      </Form>
      <p className="text-center mt-3 mb-0 small">
        Already have an account? <Link to={SCREENS.signinPassword}>Sign in</Link>
      </p>
    </AuthCard>
  );
}
