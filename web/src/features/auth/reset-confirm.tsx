import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { SECURITY_MESSAGES } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { MESSAGES, SCREEN_ERRORS, validateReset } from '#contract/validation.js';
import { AuthCard, ErrorBanner, Field, SubmitButton, useSubmit } from '../../components/auth-form';
import { CodeField } from '../../components/code-field';
import { ruleSchema, useSchemaForm } from '../../components/form-schema';
import { noticeState } from '../../components/notice';
import { codeProblem, normaliseCode } from '../../components/one-time-code';
import { track } from '../../lib/analytics';
import { ApiError } from '../../lib/api-client';
import { resetPassword } from './api/reset-password';

/** /reset-password/confirm?token= (docs/product.md §2 Reset screen). */
export default function ResetConfirm() {
  const [params] = useSearchParams();
  const token = params.get('token');
  if (!token) return <Navigate to={SCREENS.resetPassword} replace />;
  return <ResetForm token={token} />;
}

/**
 * The reset body's password rule plus the confirmation, which only the form has; and the second step's
 * code once the server asked for it (`needsCode`: the account has two-step sign-in on).
 */
const resetSchema = ruleSchema(
  { password: z.string(), confirm: z.string(), code: z.string(), needsCode: z.boolean() },
  (values) => validateReset(values) ?? (values.needsCode ? codeProblem(values.code) : null),
  (message) =>
    message === MESSAGES.passwordsDoNotMatch
      ? 'confirm'
      : message === SECURITY_MESSAGES.codeRequired
        ? 'code'
        : 'password',
);

/** A 401 of the reset saying the account's second step is missing or wrong. */
function asksForCode(failure: unknown): boolean {
  return failure instanceof ApiError && failure.details.totpRequired === true;
}

/** The first ask for the code: said in words of this screen, the field's hint says which code. */
class CodeNeeded extends Error {
  override message = 'Your account has two-step sign-in: enter a code as well to choose a new password.';
}

function ResetForm({ token }: { token: string }) {
  const form = useSchemaForm(resetSchema, { password: '', confirm: '', code: '', needsCode: false });
  const navigate = useNavigate();
  const needsCode = form.watch('needsCode');
  const { setFocus } = form;
  useEffect(() => {
    if (needsCode) setFocus('code');
  }, [needsCode, setFocus]);

  const { busy, error, onSubmit } = useSubmit({
    form,
    fallback: (failure) => (failure instanceof CodeNeeded ? failure.message : SCREEN_ERRORS.resetPassword),
    run: async ({ password, code }) => {
      try {
        await resetPassword(needsCode ? { token, password, code: normaliseCode(code) } : { token, password });
      } catch (failure) {
        // A wrong code once the field is there: the server's message.
        if (!asksForCode(failure) || needsCode) throw failure;
        form.setValue('needsCode', true);
        throw new CodeNeeded();
      }
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
        {needsCode && <CodeField id="reset-code" registration={form.register('code')} />}
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
