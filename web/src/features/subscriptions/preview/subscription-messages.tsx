import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useSubscriptionMessages } from '../api/subscription-messages';
import { formatDate } from '../list/row-receipt';
import { MessagePreview } from './message-preview';

interface SubscriptionMessagesProps {
  subscriptionId: string;
  /** Who sent them, for the preview's header. */
  sender: { name: string; address: string };
  /** The row's Keep and Unsubscribe, offered in the preview's header. */
  onKeep?: () => void;
  onUnsubscribe?: () => void;
}

/**
 * The messages of one sender, newest first, each with Read (its preview); the first ten fetched when first
 * shown, ten more with each "Show more".
 */
export default function SubscriptionMessages({ subscriptionId, ...preview }: SubscriptionMessagesProps) {
  const { messages, loading, hasMore, loadingMore, more } = useSubscriptionMessages(subscriptionId);
  if (!messages) {
    return loading ? (
      <Spinner animation="border" size="sm" role="status" className="mt-2">
        <span className="visually-hidden">Loading…</span>
      </Spinner>
    ) : null;
  }
  return (
    <>
      <ul className="subscription-messages list-unstyled mb-0 mt-2" aria-busy={loading || loadingMore}>
        {messages.length === 0 && <li className="text-muted small">No messages found.</li>}
        {messages.map((message) => (
          <li key={message.id} className="subscription-message">
            <span className="text-break">{message.subject || '(no subject)'}</span>
            <span className="d-flex align-items-center gap-2 ms-auto">
              {formatDate(message.date) && (
                <span className="text-muted small text-nowrap">{formatDate(message.date)}</span>
              )}
              <MessagePreview subscriptionId={subscriptionId} message={message} {...preview} />
            </span>
          </li>
        ))}
      </ul>
      {hasMore && (
        <Button
          variant="link"
          size="sm"
          className="subscription-messages-more"
          // Not disabled while the next ten come: the keyboard's focus stays on it.
          onClick={() => {
            if (!loadingMore) more();
          }}
        >
          {loadingMore ? 'Loading more…' : 'Show more'}
          <span className="visually-hidden"> messages from {preview.sender.address}</span>
        </Button>
      )}
    </>
  );
}
