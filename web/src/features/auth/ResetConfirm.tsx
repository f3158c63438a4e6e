import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { SCREENS } from '../../../../contract/routes.js';
import { SCREEN_ERRORS, validateReset } from '../../../../contract/validation.js';
import { resetPassword } from '../../api/calls';
import { AuthCard, ErrorBanner, Field, SubmitButton, useSubmit } from '../../components/AuthForm';

/** /reset-password/confirm?token= (SPEC §2 Reset screen). */
export default function ResetConfirm() {
  const [params] = useSearchParams();
  const token = params.get('token');
  if (!token) return <Navigate to={SCREENS.resetPassword} replace />;
  return <ResetForm token={token} />;
}

function ResetForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const navigate = useNavigate();

  const { busy, error, onSubmit } = useSubmit({
    validate: () => validateReset({ password, confirm }),
    fallback: SCREEN_ERRORS.resetPassword,
    run: async () => {
      await resetPassword({ token, password });
      navigate(SCREENS.signinPassword, { replace: true });
    },
  });

  return (
    <AuthCard title="Choose a New Password">
      <Form noValidate onSubmit={onSubmit}>
        <ErrorBanner message={error} />
        <Field
          id="reset-password"
          label="New Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
        />
        <Field
          id="reset-confirm"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={setConfirm}
        />
        <SubmitButton busy={busy} label="Reset Password" busyLabel="Resetting…" />
      </Form>
    </AuthCard>
  );
}
