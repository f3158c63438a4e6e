import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { Subscription } from '#contract/api.js';
import { ErrorBanner } from '../../components/auth-form';
import { ErrorState } from '../../components/error-state';
import { Loading } from '../../components/loading';
import { failureText } from '../../lib/api-client';
import { useBlockedSenders, useUnblockSender } from './api/blocked-senders';
import { senderOf } from './use-rule-actions';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What Unblock did, in words. */
function unblockedText(item: Subscription, updated: Subscription): string {
  const back = updated.restoredFromTrash ?? 0;
  const moved = back > 0 ? `: ${plural(back, 'message')} put back from the trash` : '';
  return `${senderOf(item)} is unblocked${moved}. It is back in your review list.`;
}

/**
 * The Rules screen's second list: the senders the user blocked, whose mail goes to the trash, each with
 * Unblock (the block lifted, its trashed mail put back, the sender back in the review list).
 */
export function BlockedSenders() {
  const blocked = useBlockedSenders();
  const unblock = useUnblockSender();
  const [busy, setBusy] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function lift(item: Subscription) {
    setBusy(item.id);
    setNote(null);
    setError(null);
    try {
      setNote(unblockedText(item, await unblock.mutateAsync(item)));
    } catch (failure) {
      setError(failureText(`${senderOf(item)} could not be unblocked.`, failure));
    } finally {
      setBusy(null);
    }
  }

  const rows = blocked.data ?? null;
  return (
    <section className="blocked-senders mt-5" aria-labelledby="blocked-heading">
      <h2 className="h5" id="blocked-heading">
        Blocked senders
      </h2>
      <p className="text-muted">
        Mail from these senders goes straight to the trash. Unblock puts back the mail the block moved there
        and returns the sender to your review list.
      </p>
      {note && (
        <Alert variant="success" role="status" dismissible onClose={() => setNote(null)}>
          {note}
        </Alert>
      )}
      <ErrorBanner message={error} />
      {blocked.isError && !rows && (
        <ErrorState message="Failed to fetch the blocked senders..." onRetry={() => void blocked.refetch()} />
      )}
      {blocked.isPending && <Loading label="Loading blocked senders…" />}
      {rows?.length === 0 && (
        <p className="empty-state text-muted border rounded p-4 text-center">No blocked senders.</p>
      )}
      {rows && rows.length > 0 && (
        <ul className="list-group rule-list" aria-label="Blocked senders">
          {rows.map((item) => (
            <BlockedItem
              key={item.id}
              item={item}
              busy={busy === item.id}
              onUnblock={() => void lift(item)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function BlockedItem({
  item,
  busy,
  onUnblock,
}: {
  item: Subscription;
  busy: boolean;
  onUnblock: () => void;
}) {
  const nameId = useId();
  const since = item.unsubscribedAt
    ? new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(
        new Date(item.unsubscribedAt),
      )
    : null;
  return (
    <li className="list-group-item d-flex flex-wrap align-items-center gap-2 rule-item" aria-busy={busy}>
      <div className="flex-grow-1 min-w-0">
        <div id={nameId} className="fw-semibold text-break">
          {senderOf(item)}
        </div>
        <div className="small text-muted text-break">
          {item.address} · {item.account}
        </div>
        <div className="small text-danger-emphasis rule-words">
          Blocked{since ? ` since ${since}` : ''}: its mail goes to the trash
        </div>
      </div>
      <Button
        variant="outline-primary"
        size="sm"
        disabled={busy}
        onClick={onUnblock}
        aria-describedby={nameId}
      >
        {busy ? 'Unblocking…' : 'Unblock'}
      </Button>
    </li>
  );
}
