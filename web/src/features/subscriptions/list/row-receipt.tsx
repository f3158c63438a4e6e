// How a sender of the Unsubscribed list was unsubscribed, on the line under its row: loaded with the first
// such row (the receipts' words are not in the list's first load, which has a budget).
import Badge from 'react-bootstrap/Badge';
import type { Subscription, UnsubscribeMethod } from '#contract/api.js';

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

export function formatDate(value: string | null): string | null {
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

/** "Unsubscribed <date> · <method>" for the Unsubscribed list (from the receipts). */
function unsubscribedLabel(item: Subscription): string | null {
  if (item.category !== 'unsubscribed') return null;
  const parts = [
    `Unsubscribed${formatDate(item.unsubscribedAt ?? null) ? ` ${formatDate(item.unsubscribedAt ?? null)}` : ''}`,
  ];
  if (item.unsubscribeMethod) parts.push(METHOD_LABELS[item.unsubscribeMethod]);
  return parts.join(' · ');
}

/** The receipt of an unsubscribed sender, and whether its mail still comes. */
export default function RowReceipt({ item }: { item: Subscription }) {
  return (
    <div className="text-muted">
      {unsubscribedLabel(item)}
      {item.stillSending && (
        <Badge bg="warning" text="dark" className="ms-2">
          Still sending
        </Badge>
      )}
    </div>
  );
}
