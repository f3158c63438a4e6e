import Button from 'react-bootstrap/Button';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';

interface EmptyListProps {
  /** The list's fetch failed and nothing was answered before. */
  failed: boolean;
  /** A mailbox needs signing in again (a 401 with its address), with the server's reason. */
  reauth: { url: string; reason: string } | null;
  onRetry: () => void;
  /** The first answer came, nothing is loading or scanning, and it has no rows. */
  settledEmpty: boolean;
  /** Rows are loaded but the typed search hides them all. */
  searchHidesAll: boolean;
  accounts: { failed: boolean; count: number | null; retry: () => void };
  /** A search is sent to the server. */
  searching: boolean;
}

const NoRows = ({ text }: { text: string }) => (
  <p className="empty-state text-muted border rounded p-4 text-center">{text}</p>
);

/** What shows in place of the rows when there are none, and why; null while there is nothing to say. */
export function emptyList({
  failed,
  reauth,
  onRetry,
  settledEmpty,
  searchHidesAll,
  accounts,
  searching,
}: EmptyListProps) {
  if (failed && !reauth) return <ErrorState message="Failed to fetch subscriptions..." onRetry={onRetry} />;
  if (failed && reauth) {
    return (
      <ErrorState message={reauth.reason || 'A mailbox needs you to sign in again.'}>
        <Button size="sm" variant="outline-danger" onClick={() => window.location.assign(reauth.url)}>
          Re-authenticate
        </Button>
      </ErrorState>
    );
  }
  if (settledEmpty) {
    if (accounts.failed)
      return <ErrorState message="Failed to fetch email accounts..." onRetry={accounts.retry} />;
    if (accounts.count === 0) return <EmptyState />;
    if (accounts.count !== null && !searching) return <NoRows text="No subscriptions here." />;
    if (accounts.count !== null) return <NoRows text="No subscriptions match your search." />;
    return null;
  }
  if (searchHidesAll) return <NoRows text="No subscriptions match your search." />;
  return null;
}
