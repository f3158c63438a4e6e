import type { ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';

interface ErrorStateProps {
  /** What failed, in the spec's words where it has them (e.g. "Failed to fetch email accounts..."). */
  message: string;
  /** Asks again; the button is left out without it. */
  onRetry?: () => void;
  /** Shown instead of Retry, e.g. a way to sign in again. */
  children?: ReactNode;
}

/** A fetch that failed: said as such, with Retry — never shown as an empty list. */
export function ErrorState({ message, onRetry, children }: ErrorStateProps) {
  return (
    <Alert
      variant="danger"
      className="error-state d-flex flex-wrap align-items-center justify-content-between gap-2"
    >
      <span>{message}</span>
      {children}
      {onRetry && (
        <Button size="sm" variant="outline-danger" onClick={onRetry}>
          Retry
        </Button>
      )}
    </Alert>
  );
}
