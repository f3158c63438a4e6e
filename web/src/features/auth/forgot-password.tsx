import Form from 'react-bootstrap/Form';
import { Link, useNavigate } from 'react-router';
import { forgotPasswordBodySchema } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { SCREEN_ERRORS } from '#contract/validation.js';
import { AuthCard, ErrorBanner, Field, SubmitButton, useSubmit } from '../../components/auth-form';
import { useSchemaForm } from '../../components/form-schema';
import { track } from '../../lib/analytics';
import { forgotPassword } from './api/reset-password';

/** /reset-password (docs/product.md §2 Forgot password screen). */
export default function ForgotPassword() {
  // The API's own body schema: the form has exactly its field.
  const form = useSchemaForm(forgotPasswordBodySchema, { email: '' });
  const navigate = useNavigate();

  const { busy, error, onSubmit } = useSubmit({
    form,
    fallback: SCREEN_ERRORS.forgotPassword,
    run: async ({ email }) => {
      await forgotPassword(email.trim());
      track('forgot_password');
      navigate(SCREENS.resetPasswordSent, { state: { email: email.trim() } });
    },
  });

  return (
    <AuthCard title="Reset your password">
      <p className="text-muted">Enter the email address of your account and we will send you a reset link.</p>
      <Form noValidate onSubmit={onSubmit}>
        <ErrorBanner message={error} />
        <Field
          id="forgot-email"
          label="Email"
          type="email"
          autoComplete="email"
          registration={form.register('email')}
        />
        <SubmitButton busy={busy} label="Send reset link" busyLabel="Sending…" />
      </Form>
      <p className="text-center mt-3 mb-0 small">
        <Link to={SCREENS.signinPassword}>Back to sign in</Link>
      </p>
    </AuthCard>
  );
}
