// Pieces shared by the auth screens: the centred card, the error banner, labelled fields and
// the idle/submitting state of a form (SPEC §4 Forms).
import { type FormEvent, type ReactNode, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { messageOf } from '../api/client';

export function AuthCard({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <div className="container auth-page py-5">
      <Card className="auth-card mx-auto shadow-sm">
        <Card.Body className="p-4">
          {title && <h1 className="h3 text-center mb-4">{title}</h1>}
          {children}
        </Card.Body>
      </Card>
    </div>
  );
}

export function ErrorBanner({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert variant="danger" role="alert">
      {message}
    </Alert>
  );
}

interface FieldProps {
  id: string;
  label: string;
  type?: 'email' | 'password' | 'text';
  autoComplete: string;
  value: string;
  onChange: (value: string) => void;
}

export function Field({ id, label, type = 'text', autoComplete, value, onChange }: FieldProps) {
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={type}
        autoComplete={autoComplete}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Form.Group>
  );
}

export function SubmitButton({
  busy,
  label,
  busyLabel,
  disabled = false,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  /** Disabled for another reason than being busy (e.g. nothing chosen yet). */
  disabled?: boolean;
}) {
  return (
    <Button type="submit" variant="primary" className="w-100" disabled={busy || disabled}>
      {busy ? busyLabel : label}
    </Button>
  );
}

interface SubmitOptions {
  /** Client-side validation, run on submit only; a message stops the submission. */
  validate: () => string | null;
  /** The call; when it resolves the page navigates away, so the form stays busy. */
  run: () => Promise<void>;
  /** The screen's default banner when the server gave no message (or a choice by the failure). */
  fallback: string | ((failure: unknown) => string);
}

/** Idle/submitting state of a form: validate, call, banner on failure and back to idle. */
export function useSubmit({ validate, run, fallback }: SubmitOptions) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const invalid = validate();
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      await run();
    } catch (failure) {
      setError(messageOf(failure, typeof fallback === 'string' ? fallback : fallback(failure)));
      setBusy(false);
    }
  }

  return { busy, error, onSubmit };
}
