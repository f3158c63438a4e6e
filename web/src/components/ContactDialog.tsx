import { type FormEvent, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { ALERTS, validateContact } from '../../../contract/validation.js';
import { sendEmail } from '../api/calls';
import { messageOf } from '../api/client';
import type { ContactPrefill } from './contact';

const SEND_FAILED = 'Failed to send the message. Please try again.';

/** Contact Us (SPEC §2): Name, Email address, Subject, Message; Send Message and Close. */
export function ContactDialog({ prefill, onClose }: { prefill: ContactPrefill; onClose: () => void }) {
  const titleId = useId();
  const [show, setShow] = useState(true);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [subject, setSubject] = useState(prefill.subject ?? '');
  const [message, setMessage] = useState(prefill.message ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = validateContact({ name, email, subject, message });
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      await sendEmail({ from: `${name.trim()} <${email.trim()}>`, subject: subject.trim(), text: message });
      window.alert(ALERTS.emailSent);
      setShow(false);
    } catch (failure) {
      setError(messageOf(failure, SEND_FAILED));
      setBusy(false);
    }
  }

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
            <Form.Control
              required
              autoComplete="name"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </Form.Group>
          <Form.Group className="mb-3" controlId="contact-email">
            <Form.Label>Email address</Form.Label>
            <Form.Control
              required
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </Form.Group>
          <Form.Group className="mb-3" controlId="contact-subject">
            <Form.Label>Subject</Form.Label>
            <Form.Control required value={subject} onChange={(e) => setSubject(e.target.value)} />
          </Form.Group>
          <Form.Group controlId="contact-message">
            <Form.Label>Message</Form.Label>
            <Form.Control
              required
              as="textarea"
              rows={5}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
            />
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
