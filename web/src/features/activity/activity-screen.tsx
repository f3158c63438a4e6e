// /genie/activity: what Inbox Genie did to the user's mail (blocks, unsubscribes that moved mail, rules and
// the Screener at checks, bulk actions), newest first, each with Undo for as long as its mail can be found
// (docs/decisions/101-activity-history-and-counts-that-follow.md). A screen of its own chunk (app/routes.tsx).
import { useId, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import type { ActivityEntry } from '#contract/api.js';
import { ErrorState } from '../../components/error-state';
import { Loading } from '../../components/loading';
import { PageHeader } from '../../components/page-header';
import { errorToast, useToasts } from '../../components/toasts';
import { failureText } from '../../lib/api-client';
import { activityMoved, activityTitle, undoneText } from './activity-words';
import { useActivity, useAfterUndo } from './api/activity';
import { undoActivity } from './api/undo-activity';
import './activity.css';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export default function Activity() {
  const { entries, query } = useActivity();
  const [busy, setBusy] = useState<string | null>(null);
  const toasts = useToasts();
  const afterUndo = useAfterUndo();

  async function undo(entry: ActivityEntry) {
    setBusy(entry.id);
    try {
      const { entry: now, restored } = await undoActivity(entry.id);
      afterUndo(now);
      toasts.show({ text: undoneText(entry, restored) });
    } catch (error) {
      const text = failureText('Failed to undo the action...', error);
      toasts.show(errorToast(text, () => void undo(entry), `undo-activity:${entry.id}`, error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="activity">
      <PageHeader title="Activity" />
      <p className="text-muted">
        What Inbox Genie did to your mail, newest first. Undo puts the mail back where it was, for as long as
        it is still in your mailbox.
      </p>
      {query.isError && !entries && (
        <ErrorState message="Failed to fetch the activity..." onRetry={() => void query.refetch()} />
      )}
      {query.isPending && <Loading label="Loading activity…" />}
      {entries?.length === 0 && (
        <p className="empty-state text-muted border rounded p-4 text-center">
          Nothing yet. Blocks, rules and the Screener will be listed here, each with a way back.
        </p>
      )}
      {entries && entries.length > 0 && (
        <ul className="list-group activity-list">
          {entries.map((entry) => (
            <ActivityItem
              key={entry.id}
              entry={entry}
              busy={busy === entry.id}
              onUndo={() => void undo(entry)}
            />
          ))}
        </ul>
      )}
      {query.hasNextPage && (
        <div className="text-center mt-3">
          <Button
            variant="outline-secondary"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {query.isFetchingNextPage ? 'Loading…' : 'Show more'}
          </Button>
        </div>
      )}
    </section>
  );
}

function ActivityItem({ entry, busy, onUndo }: { entry: ActivityEntry; busy: boolean; onUndo: () => void }) {
  const titleId = useId();
  return (
    <li className="list-group-item d-flex flex-wrap align-items-center gap-2 activity-item" aria-busy={busy}>
      <div className="flex-grow-1 min-w-0">
        <div id={titleId} className="fw-semibold text-break">
          {activityTitle(entry)}
        </div>
        <div className="small text-muted text-break">
          {entry.address && entry.kind !== 'bulk' ? `${entry.address} · ` : ''}
          <time dateTime={entry.at}>{when.format(new Date(entry.at))}</time>
          {entry.by === 'check' ? ' · by a check' : ''}
        </div>
        <div className="small">{activityMoved(entry)}</div>
      </div>
      <div className="d-flex align-items-center gap-2">
        {entry.undone && (
          <Badge bg="secondary" className="activity-undone">
            Undone
          </Badge>
        )}
        {entry.undoable && (
          <Button
            variant="outline-primary"
            size="sm"
            disabled={busy}
            onClick={onUndo}
            aria-describedby={titleId}
          >
            {busy ? 'Undoing…' : 'Undo'}
          </Button>
        )}
        {!entry.undone && !entry.undoable && entry.moved > 0 && (
          // The block, rule or the records of the moved mail are gone since (removed, or the mail deleted).
          <span className="small text-muted">Nothing left to undo</span>
        )}
      </div>
    </li>
  );
}
