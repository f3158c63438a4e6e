import { type ReactNode, useId, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Spinner from 'react-bootstrap/Spinner';
import type { Subscription, UnsubscribeMethod } from '../../../../contract/api.js';
import { SenderLogo } from '../../components/SenderLogo';
import { MessagePreview } from './MessagePreview';
import { useSubscriptionMessages } from './queries';
import { messageCountLabel, senderDomain, senderName } from './subscriptionList';

interface SubscriptionRowProps {
  item: Subscription;
  logoBaseUrl: string | null;
  /** Names the mailbox under the address (the user has several). */
  showAccount: boolean;
  /** The buttons of the ACTIONS column. */
  actions?: ReactNode;
  /** Set while an action on this row runs; the row shows its loading spinner. */
  busy?: boolean;
}

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

function formatDate(value: string | null): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : dateFormat.format(date);
}

const METHOD_LABELS: Record<UnsubscribeMethod, string> = {
  'one-click': 'one-click',
  mailto: 'email request',
  manual: 'unsubscribe page',
  block: 'blocked',
};

/** "Unsubscribed <date> · <method>" for the Unsubscribed list (issue 4 receipts). */
export function unsubscribedLabel(item: Subscription): string | null {
  if (item.category !== 'unsubscribed') return null;
  const parts = [
    `Unsubscribed${formatDate(item.unsubscribedAt ?? null) ? ` ${formatDate(item.unsubscribedAt ?? null)}` : ''}`,
  ];
  if (item.unsubscribeMethod) parts.push(METHOD_LABELS[item.unsubscribeMethod]);
  return parts.join(' · ');
}

/** One sender: logo, name, address, message count, and its messages behind the expand caret. */
export function SubscriptionRow({
  item,
  logoBaseUrl,
  showAccount,
  actions,
  busy = false,
}: SubscriptionRowProps) {
  const listId = useId();
  const [expanded, setExpanded] = useState(false);
  const { messages, loading: loadingMessages } = useSubscriptionMessages(item.id, expanded);

  function toggle() {
    setExpanded((open) => !open);
  }

  return (
    <tr className="subscription-row" aria-busy={busy || loadingMessages}>
      <td className="subscription-sender">
        <div className="d-flex align-items-start gap-3">
          <SenderLogo domain={senderDomain(item.address)} baseUrl={logoBaseUrl} />
          <div className="flex-grow-1 min-w-0">
            <div className="fw-semibold text-break">{senderName(item)}</div>
            <div className="text-muted small text-break">{item.address}</div>
            {showAccount && (
              <div className="text-muted small text-break subscription-account">{item.account}</div>
            )}
            <div className="small">{messageCountLabel(item.messageCount)}</div>
            {unsubscribedLabel(item) && (
              <div className="text-muted small subscription-receipt">
                {unsubscribedLabel(item)}
                {item.stillSending && (
                  <Badge bg="warning" text="dark" className="ms-2">
                    Still sending
                  </Badge>
                )}
              </div>
            )}
          </div>
          {(busy || loadingMessages) && (
            <Spinner animation="border" size="sm" role="status" className="mt-2 flex-shrink-0">
              <span className="visually-hidden">Loading…</span>
            </Spinner>
          )}
          <button
            type="button"
            className="btn btn-link subscription-caret flex-shrink-0"
            aria-label={`Show messages from ${item.address}`}
            aria-expanded={expanded}
            aria-controls={listId}
            onClick={toggle}
          >
            <span className="subscription-caret-icon" aria-hidden="true" />
          </button>
        </div>
        <div id={listId} hidden={!expanded}>
          {expanded && messages && (
            <ul className="subscription-messages list-unstyled mb-0 mt-2">
              {messages.length === 0 && <li className="text-muted small">No messages found.</li>}
              {messages.map((message) => (
                <li key={message.id} className="subscription-message">
                  <span className="text-break">{message.subject || '(no subject)'}</span>
                  <span className="d-flex align-items-center gap-2 ms-auto">
                    {formatDate(message.date) && (
                      <span className="text-muted small text-nowrap">{formatDate(message.date)}</span>
                    )}
                    <MessagePreview subscriptionId={item.id} message={message} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </td>
      <td className="subscription-actions">{actions}</td>
    </tr>
  );
}
