import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { SCREENS } from '#contract/routes.js';
import { MESSAGES, SCREEN_ERRORS, validateReset } from '#contract/validation.js';
import { AuthCard, ErrorBanner, Field, SubmitButton, useSubmit } from '../../components/AuthForm';
import { ruleSchema, useSchemaForm } from '../../components/formSchema';
import { noticeState } from '../../components/notice';
import { track } from '../../lib/analytics';
import { resetPassword } from './api/reset-password';

/** /reset-password/confirm?token= (docs/product.md §2 Reset screen). */
export default function ResetConfirm() {
  const [params] = useSearchParams();
  const token = params.get('token');
  if (!token) return <Navigate to={SCREENS.resetPassword} replace />;
  return <ResetForm token={token} />;
}

/** The reset body's password rule plus the confirmation, which only the form has. */
const resetSchema = ruleSchema({ password: z.string(), confirm: z.string() }, validateReset, (message) =>
  message === MESSAGES.passwordsDoNotMatch ? 'confirm' : 'password',
);

function ResetForm({ token }: { token: string }) {
  const form = useSchemaForm(resetSchema, { password: '', confirm: '' });
  const navigate = useNavigate();

  const { busy, error, onSubmit } = useSubmit({
    form,
    fallback: SCREEN_ERRORS.resetPassword,
    run: async ({ password }) => {
      await resetPassword({ token, password });
      track('password_reset');
      navigate(SCREENS.signinPassword, { replace: true, state: noticeState('passwordChanged') });
    },
  });

  return (
    <AuthCard title="Choose a New Password">
      <Form noValidate onSubmit={onSubmit}>
        {error === MESSAGES.resetTokenInvalid ? <InvalidLinkBanner /> : <ErrorBanner message={error} />}
        <Field
          id="reset-password"
          label="New Password"
          type="password"
          autoComplete="new-password"
          registration={form.register('password')}
        />
        <Field
          id="reset-confirm"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          registration={form.register('confirm')}
        />
        <SubmitButton busy={busy} label="Reset Password" busyLabel="Resetting…" />
      </Form>
    </AuthCard>
  );
}

const REQUEST_AGAIN = 'request a new one';

/** The server's message for a used or expired link, its last words a link to ask for a new one. */
function InvalidLinkBanner() {
  const at = MESSAGES.resetTokenInvalid.lastIndexOf(REQUEST_AGAIN);
  const before = at >= 0 ? MESSAGES.resetTokenInvalid.slice(0, at) : `${MESSAGES.resetTokenInvalid} `;
  const after = at >= 0 ? MESSAGES.resetTokenInvalid.slice(at + REQUEST_AGAIN.length) : '';
  return (
    <Alert variant="danger" role="alert">
      {before}
      <Link to={SCREENS.resetPassword} className="alert-link">
        {at >= 0 ? REQUEST_AGAIN : 'Request a new link'}
      </Link>
      {after}
    </Alert>
  );
}
