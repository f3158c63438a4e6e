import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { z } from 'zod';
import { ALERTS, validateContact } from '../../../contract/validation.js';
import { sendEmail } from '../api/calls';
import { messageOf } from '../api/client';
import type { ContactPrefill } from './contact';
import { formMessage, ruleSchema, useSchemaForm } from './formSchema';

const SEND_FAILED = 'Failed to send the message. Please try again.';

/** The contact rule: one message for the whole form, shown above it. */
const contactSchema = ruleSchema(
  { name: z.string(), email: z.string(), subject: z.string(), message: z.string() },
  validateContact,
  () => 'name',
);

/** Contact Us (docs/product.md §2): Name, Email address, Subject, Message; Send Message and Close. */
export function ContactDialog({ prefill, onClose }: { prefill: ContactPrefill; onClose: () => void }) {
  const titleId = useId();
  const [show, setShow] = useState(true);
  const form = useSchemaForm(contactSchema, {
    name: '',
    email: '',
    subject: prefill.subject ?? '',
    message: prefill.message ?? '',
  });
  const [sent, setSent] = useState(false);
  const busy = form.formState.isSubmitting || sent;
  const error = formMessage(form.formState.errors);

  const submit = form.handleSubmit(async ({ name, email, subject, message }) => {
    try {
      await sendEmail({ from: `${name.trim()} <${email.trim()}>`, subject: subject.trim(), text: message });
      setSent(true);
      window.alert(ALERTS.emailSent);
      setShow(false);
    } catch (failure) {
      form.setError('root.server', { message: messageOf(failure, SEND_FAILED) });
    }
  });

  return (
    <Modal show={show} onHide={() => setShow(false)} onExited={onClose} centered aria-labelledby={titleId}>
      <Form noValidate onSubmit={submit}>
        <Modal.Header>
          <Modal.Title id={titleId}>Contact Us</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {error && (
            <Alert variant="danger" role="alert">
              {error}
            </Alert>
          )}
          <Form.Group className="mb-3" controlId="contact-name">
            <Form.Label>Name</Form.Label>
            <Form.Control required autoComplete="name" {...form.register('name')} />
          </Form.Group>
          <Form.Group className="mb-3" controlId="contact-email">
            <Form.Label>Email address</Form.Label>
            <Form.Control required type="email" autoComplete="email" {...form.register('email')} />
          </Form.Group>
          <Form.Group className="mb-3" controlId="contact-subject">
            <Form.Label>Subject</Form.Label>
            <Form.Control required {...form.register('subject')} />
          </Form.Group>
          <Form.Group controlId="contact-message">
            <Form.Label>Message</Form.Label>
            <Form.Control required as="textarea" rows={5} {...form.register('message')} />
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setShow(false)}>
            Close
          </Button>
          <Button type="submit" variant="primary" disabled={busy}>
            Send Message
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
