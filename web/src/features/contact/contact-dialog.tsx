import { useEffect, useId, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { z } from 'zod';
import { ALERTS, type ContactInput, contactFieldErrors } from '#contract/validation.js';
import type { ContactPrefill } from '../../components/contact';
import { useSchemaForm } from '../../components/form-schema';
import { messageOf } from '../../lib/api-client';
import { sendEmail } from './api/send-email';

const SEND_FAILED = 'Failed to send the message. Please try again.';

/** The contact rule field by field: each message shows under its own field. */
const contactSchema = z
  .object({ name: z.string(), email: z.string(), subject: z.string(), message: z.string() })
  .superRefine((values, ctx) => {
    for (const [field, message] of Object.entries(contactFieldErrors(values))) {
      ctx.addIssue({ code: 'custom', message, path: [field] });
    }
  });

/**
 * Contact Us (docs/product.md §2): Name, Email address, Subject, Message; Send Message and Close. Once sent, the
 * dialog says so in place of the form.
 */
export function ContactDialog({ prefill, onClose }: { prefill: ContactPrefill; onClose: () => void }) {
  const titleId = useId();
  const idPrefix = useId();
  const [show, setShow] = useState(true);
  const form = useSchemaForm(contactSchema, {
    name: '',
    email: '',
    subject: prefill.subject ?? '',
    message: prefill.message ?? '',
  });
  const [sent, setSent] = useState(false);
  const busy = form.formState.isSubmitting || sent;
  // Once sent, the form gives way to the success and Close takes the focus of the button that went.
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (sent) closeRef.current?.focus();
  }, [sent]);
  const { errors } = form.formState;
  const serverError = errors.root?.server?.message;

  const submit = form.handleSubmit(async ({ name, email, subject, message }) => {
    try {
      await sendEmail({ from: `${name.trim()} <${email.trim()}>`, subject: subject.trim(), text: message });
      // docs/decisions/098: the success shows in the dialog (it also opens on public pages, without notes).
      setSent(true);
    } catch (failure) {
      form.setError('root.server', { message: messageOf(failure, SEND_FAILED) });
    }
  });

  const field = (name: keyof ContactInput) => ({
    id: `${idPrefix}-${name}`,
    error: errors[name]?.message,
    registration: form.register(name),
  });

  return (
    <Modal show={show} onHide={() => setShow(false)} onExited={onClose} centered aria-labelledby={titleId}>
      <Form noValidate onSubmit={submit}>
        <Modal.Header>
          <Modal.Title id={titleId}>Contact Us</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {sent ? (
            <Alert variant="success" role="status" className="mb-0">
              {ALERTS.emailSent}
            </Alert>
          ) : (
            <>
              {serverError && (
                <Alert variant="danger" role="alert">
                  {serverError}
                </Alert>
              )}
              <p className="small text-body-secondary mb-3">
                Fields marked <span className="text-danger">*</span> are required.
              </p>
              <ContactField label="Name" autoComplete="name" {...field('name')} />
              <ContactField label="Email address" type="email" autoComplete="email" {...field('email')} />
              <ContactField label="Subject" {...field('subject')} />
              <ContactField label="Message" multiline className="mb-0" {...field('message')} />
            </>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button ref={closeRef} variant={sent ? 'primary' : 'secondary'} onClick={() => setShow(false)}>
            Close
          </Button>
          {!sent && (
            <Button type="submit" variant="primary" disabled={busy}>
              Send Message
            </Button>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

function RequiredMark() {
  return (
    <span className="text-danger" aria-hidden="true">
      *
    </span>
  );
}

interface ContactFieldProps {
  id: string;
  label: string;
  registration: UseFormRegisterReturn;
  error?: string;
  type?: 'email' | 'text';
  autoComplete?: string;
  multiline?: boolean;
  className?: string;
}

/** A required field with its own message under it, tied to it for screen readers. */
function ContactField({
  id,
  label,
  registration,
  error,
  type = 'text',
  autoComplete,
  multiline = false,
  className = 'mb-3',
}: ContactFieldProps) {
  const errorId = `${id}-error`;
  const common = {
    required: true,
    'aria-required': true,
    autoComplete,
    isInvalid: Boolean(error),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
    ...registration,
  };
  return (
    <Form.Group className={className} controlId={id}>
      <Form.Label>
        {label} <RequiredMark />
      </Form.Label>
      {multiline ? (
        <Form.Control as="textarea" rows={5} {...common} />
      ) : (
        <Form.Control type={type} {...common} />
      )}
      {error && (
        <Form.Control.Feedback type="invalid" id={errorId}>
          {error}
        </Form.Control.Feedback>
      )}
    </Form.Group>
  );
}
