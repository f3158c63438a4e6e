// The free trial's limit met inside the app (a 402 of an unsubscribe, a block or a manual confirmation):
// the server's reason and the two paid plans, in a dialog over the list, instead of a jump to the public
// /pricing page, whose free-trial card would offer the visitor what they have just used up
// (docs/decisions/105-words-that-cannot-be-misread.md). Loaded with the first one shown.
import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { BILLING_MESSAGES } from '#contract/billing.js';
import { PaidPlans } from './paid-plans';

interface PlanLimitDialogProps {
  show: boolean;
  /** The 402's message (the server says why); the trial's own words when it gave none. */
  message: string;
  onClose: () => void;
}

export default function PlanLimitDialog({ show, message, onClose }: PlanLimitDialogProps) {
  const titleId = useId();
  return (
    <Modal show={show} onHide={onClose} centered size="lg" aria-labelledby={titleId}>
      <Modal.Header closeButton>
        <Modal.Title id={titleId}>Your free unsubscribes are used up</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="plan-limit-reason">{message || BILLING_MESSAGES.unsubscribeLimit}</p>
        <p className="text-muted small">Nothing was sent to this sender.</p>
        <PaidPlans headingLevel={3} />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Not now
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
