import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { ErrorBanner } from '../../components/auth-form';
import { CodeField } from '../../components/code-field';
import { codeProblem, normaliseCode } from '../../components/one-time-code';
import { messageOf } from '../../lib/api-client';

interface CodeFormProps {
  id: string;
  /** Only an authenticator app's code (turning two-step sign-in on), not a recovery code. */
  appOnly?: boolean;
  submitLabel: string;
  busyLabel: string;
  danger?: boolean;
  /** Sends the normalised code; a throw shows its message above the field. */
  onCode: (code: string) => Promise<void>;
  onCancel: () => void;
  /** The message when the server gave none. */
  fallback: string;
  /** The field takes the keyboard's focus when the form appears (opened by a button that goes away). */
  focusOnMount?: boolean;
}

/** The Security section's one-field forms that prove the authenticator app is at hand. */
export function CodeForm(props: CodeFormProps) {
  const { id, appOnly = false, submitLabel, busyLabel, danger, onCode, onCancel, fallback } = props;
  const form = useForm({ defaultValues: { code: '' } });
  const [error, setError] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;
  const { setFocus } = form;
  const focusOnMount = props.focusOnMount ?? false;
  useEffect(() => {
    if (focusOnMount) setFocus('code');
  }, [focusOnMount, setFocus]);

  const onSubmit = form.handleSubmit(async ({ code }) => {
    const problem = codeProblem(code, { appOnly });
    if (problem) {
      setError(problem);
      form.setFocus('code');
      return;
    }
    setError(null);
    try {
      await onCode(normaliseCode(code));
    } catch (failure) {
      setError(messageOf(failure, fallback));
      form.setFocus('code');
    }
  });

  return (
    <Form
      noValidate
      onSubmit={(event) => (busy ? event.preventDefault() : onSubmit(event))}
      className="security-code-form"
    >
      <ErrorBanner message={error} />
      <CodeField id={id} recovery={!appOnly} registration={form.register('code')} />
      <div className="d-flex flex-wrap gap-2">
        <Button type="submit" variant={danger ? 'danger' : 'primary'} disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
