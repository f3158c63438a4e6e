import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { SECURITY_MESSAGES } from '#contract/api.js';
import { MESSAGES, MIN_PASSWORD_LENGTH, validateNewPassword } from '#contract/validation.js';
import { ErrorBanner } from '../../components/auth-form';
import { messageOf } from '../../lib/api-client';
import { useChangePassword } from './api/change-password';

type Fields = { currentPassword: string; newPassword: string; confirm: string };
type FieldErrors = Partial<Record<keyof Fields, string>>;

const FAILED = 'The password could not be changed. Please try again.';

/** The server's refusals that are about the current password, shown under that field. */
const CURRENT_PASSWORD_MESSAGES: readonly string[] = [
  SECURITY_MESSAGES.wrongCurrentPassword,
  SECURITY_MESSAGES.currentPasswordRequired,
];

/** The form's own checks, each under its field: the new password under sign-up's rule. */
function check({ currentPassword, newPassword, confirm }: Fields): FieldErrors {
  const errors: FieldErrors = {};
  if (!currentPassword) errors.currentPassword = SECURITY_MESSAGES.currentPasswordRequired;
  const rule = validateNewPassword(newPassword);
  if (rule) errors.newPassword = rule;
  else if (confirm !== newPassword) errors.confirm = MESSAGES.passwordsDoNotMatch;
  return errors;
}

/**
 * Settings → Security → "Change password": the current password, the new one twice. On success every
 * other browser is signed out (the server's answer says so) and this one stays signed in.
 */
export function ChangePassword() {
  const form = useForm<Fields>({ defaultValues: { currentPassword: '', newPassword: '', confirm: '' } });
  const change = useChangePassword();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const onSubmit = form.handleSubmit(async (values) => {
    setDone(null);
    setBanner(null);
    const found = check(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const { message } = await change.mutateAsync({
        currentPassword: values.currentPassword,
        newPassword: values.newPassword,
      });
      form.reset();
      setDone(message);
    } catch (failure) {
      const message = messageOf(failure, FAILED);
      if (CURRENT_PASSWORD_MESSAGES.includes(message)) setErrors({ currentPassword: message });
      else if (message === MESSAGES.passwordTooShort) setErrors({ newPassword: message });
      else setBanner(message);
    }
  });

  const field = (name: keyof Fields, label: string, autoComplete: string, hint?: string) => (
    <Form.Group className="mb-3" controlId={`change-password-${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="password"
        autoComplete={autoComplete}
        isInvalid={Boolean(errors[name])}
        aria-describedby={hint ? `change-password-${name}-hint` : undefined}
        {...form.register(name)}
      />
      {hint && !errors[name] && (
        <Form.Text id={`change-password-${name}-hint`} muted>
          {hint}
        </Form.Text>
      )}
      <Form.Control.Feedback type="invalid">{errors[name]}</Form.Control.Feedback>
    </Form.Group>
  );

  const busy = form.formState.isSubmitting;
  return (
    <section className="security-part" aria-labelledby="change-password-heading">
      <h3 className="h6 fw-semibold" id="change-password-heading">
        Change password
      </h3>
      <p className="text-body-secondary small">
        Every other browser signed in to your account is signed out; this one stays signed in.
      </p>
      <ErrorBanner message={banner} />
      {done && (
        <Alert variant="success" role="status">
          {done}
        </Alert>
      )}
      <Form
        noValidate
        className="change-password"
        style={{ maxWidth: '32rem' }}
        onSubmit={(e) => (busy ? e.preventDefault() : onSubmit(e))}
      >
        {field('currentPassword', 'Current password', 'current-password')}
        {field('newPassword', 'New password', 'new-password', `At least ${MIN_PASSWORD_LENGTH} characters.`)}
        {field('confirm', 'Repeat the new password', 'new-password')}
        <Button type="submit" variant="outline-primary" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </Button>
      </Form>
    </section>
  );
}
