// Pieces shared by the auth screens: the centred card, the error banner, labelled fields and
// the idle/submitting state of a form (docs/product.md §4 Forms), on react-hook-form.
import { type FormEvent, type ReactNode, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import type { FieldValues, UseFormRegisterReturn, UseFormReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { SCREENS } from '#contract/routes.js';
import { messageOf } from '../lib/api-client';
import { formMessage } from './form-schema';

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

/** The failure above a form; `children` follow the message (e.g. a link to what helps). */
export function ErrorBanner({ message, children }: { message: string | null; children?: ReactNode }) {
  if (!message) return null;
  return (
    <Alert variant="danger" role="alert">
      {message}
      {children}
    </Alert>
  );
}

/** " See plans" after a message asking for a plan (docs/product.md §8, 401 and the OAuth add flow). */
export function SeePlansLink() {
  return (
    <>
      {' '}
      <Link to={SCREENS.pricing} className="alert-link">
        See plans
      </Link>
    </>
  );
}

interface FieldProps {
  id: string;
  label: string;
  type?: 'email' | 'password' | 'text';
  autoComplete: string;
  /** What react-hook-form's `register(name)` returned. */
  registration: UseFormRegisterReturn;
}

export function Field({ id, label, type = 'text', autoComplete, registration }: FieldProps) {
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control type={type} autoComplete={autoComplete} {...registration} />
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

interface SubmitOptions<T extends FieldValues> {
  /** The form (react-hook-form, validated on submit only by its schema). */
  form: UseFormReturn<T>;
  /** The call; when it resolves the page navigates away, so the form stays busy. */
  run: (values: T) => Promise<void>;
  /** The screen's default banner when the server gave no message (or a choice by the failure). */
  fallback: string | ((failure: unknown) => string);
}

/**
 * Idle/submitting state of a form: validate (the form's schema), call, banner on failure and back to
 * idle. The banner shows the first validation message, else the server's.
 */
export function useSubmit<T extends FieldValues>({ form, run, fallback }: SubmitOptions<T>) {
  const [done, setDone] = useState(false);
  const { errors, isSubmitting } = form.formState;
  const busy = isSubmitting || done;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await run(values);
      setDone(true);
    } catch (failure) {
      const message = messageOf(failure, typeof fallback === 'string' ? fallback : fallback(failure));
      form.setError('root.server', { message });
    }
  });

  return {
    busy,
    error: formMessage(errors),
    onSubmit: (event: FormEvent) => (busy ? event.preventDefault() : onSubmit(event)),
  };
}
