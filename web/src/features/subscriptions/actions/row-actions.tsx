import Button from 'react-bootstrap/Button';
import type { Subscription, SubscriptionCategory } from '#contract/api.js';

interface RowActionsProps {
  item: Subscription;
  /** The list the row is on: it decides which buttons show. */
  category: SubscriptionCategory;
  /** An action of the row is running: its buttons wait. */
  busy: boolean;
  onKeep: () => void;
  onBlock: () => void;
  onUnsubscribe: () => void;
  /** Opens the Organise dialog (a rule for the sender's mail); none on the Unsubscribed list. */
  onOrganise?: () => void;
}

/**
 * A row's buttons (docs/product.md §2/§4): Keep on every list but kept, Unsubscribe on every list but
 * unsubscribed, Block for an unsubscribed sender that still sends, Organise… (a rule) where given. Each button's name starts with its
 * visible label (WCAG 2.5.3), the sender follows unseen.
 */
export function RowActions({
  item,
  category,
  busy,
  onKeep,
  onBlock,
  onUnsubscribe,
  onOrganise,
}: RowActionsProps) {
  return (
    <div className="row-actions">
      {category !== 'kept' && (
        <Button size="sm" variant="outline-success" disabled={busy} onClick={onKeep}>
          Keep Subscription<span className="visually-hidden"> {item.address}</span>
        </Button>
      )}
      {category === 'unsubscribed' && item.stillSending && (
        <Button size="sm" variant="outline-danger" disabled={busy} onClick={onBlock}>
          Block<span className="visually-hidden"> {item.address}</span>
        </Button>
      )}
      {category !== 'unsubscribed' && (
        <Button size="sm" variant="outline-danger" disabled={busy} onClick={onUnsubscribe}>
          Unsubscribe<span className="visually-hidden"> {item.address}</span>
        </Button>
      )}
      {onOrganise && (
        // On a desktop row, where the sender's name shares the line with the buttons, a folder icon (its
        // name and tooltip say Organise…); on narrower screens the buttons wrap and it says so.
        <Button
          size="sm"
          variant="outline-primary"
          className="row-organise"
          disabled={busy}
          onClick={onOrganise}
          title="Organise…"
          aria-label={`Organise… ${item.address}`}
        >
          <svg
            className="d-none d-lg-inline align-text-bottom"
            width="16"
            height="16"
            viewBox="0 0 16 16"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.4"
            strokeLinejoin="round"
            aria-hidden="true"
          >
            <path d="M1.75 3.25h4.5l1.5 1.5h6.5v8.5H1.75z" />
          </svg>
          <span className="d-lg-none">Organise…</span>
        </Button>
      )}
    </div>
  );
}
