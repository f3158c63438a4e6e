import Spinner from 'react-bootstrap/Spinner';
import { useSubscriptionMessages } from '../api/subscription-messages';
import { formatDate } from '../list/row-receipt';
import { MessagePreview } from './message-preview';

/** The messages of one sender, newest first, each with Read (its preview); fetched when first shown. */
export default function SubscriptionMessages({ subscriptionId }: { subscriptionId: string }) {
  const { messages, loading } = useSubscriptionMessages(subscriptionId);
  if (!messages) {
    return loading ? (
      <Spinner animation="border" size="sm" role="status" className="mt-2">
        <span className="visually-hidden">Loading…</span>
      </Spinner>
    ) : null;
  }
  return (
    <ul className="subscription-messages list-unstyled mb-0 mt-2" aria-busy={loading}>
      {messages.length === 0 && <li className="text-muted small">No messages found.</li>}
      {messages.map((message) => (
        <li key={message.id} className="subscription-message">
          <span className="text-break">{message.subject || '(no subject)'}</span>
          <span className="d-flex align-items-center gap-2 ms-auto">
            {formatDate(message.date) && (
              <span className="text-muted small text-nowrap">{formatDate(message.date)}</span>
            )}
            <MessagePreview subscriptionId={subscriptionId} message={message} />
          </span>
        </li>
      ))}
    </ul>
  );
}
