import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { SessionInfo } from '#contract/api.js';
import { ErrorBanner } from '../../components/auth-form';
import { ErrorState } from '../../components/error-state';
import { Loading } from '../../components/loading';
import { messageOf } from '../../lib/api-client';
import { useRevokeOtherSessions, useRevokeSession, useSessions } from './api/sessions';
import { describeUserAgent, formatWhen } from './security-text';

/** This browser first, then the others by their last activity. */
function ordered(sessions: SessionInfo[]): SessionInfo[] {
  const seen = (s: SessionInfo) => s.lastSeenAt ?? s.createdAt;
  return [...sessions].sort(
    (a, b) => Number(b.current) - Number(a.current) || seen(b).localeCompare(seen(a)),
  );
}

/** Where the account is signed in: each browser, "Sign out" for the others, and all of them at once. */
export function Sessions() {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  async function run(action: () => Promise<unknown>, done: string) {
    setError(null);
    setNote(null);
    try {
      await action();
      setNote(done);
      // The button pressed went with the session: the keyboard continues from the heading.
      headingRef.current?.focus();
    } catch (failure) {
      setError(messageOf(failure, 'The session could not be signed out. Please try again.'));
    }
  }

  return (
    <section className="security-part" aria-labelledby="sessions-heading">
      <h3 className="h6 fw-semibold" id="sessions-heading" ref={headingRef} tabIndex={-1}>
        Where you are signed in
      </h3>
      <ErrorBanner message={error} />
      {sessions.data ? (
        <ul className="list-group mb-3" aria-label="Sessions">
          {ordered(sessions.data).map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              busy={revoke.isPending || revokeOthers.isPending}
              onSignOut={() => void run(() => revoke.mutateAsync(session.id), 'That session is signed out.')}
            />
          ))}
        </ul>
      ) : sessions.isError ? (
        <ErrorState message="Failed to fetch sessions." onRetry={() => void sessions.refetch()} />
      ) : (
        <Loading label="Loading sessions…" />
      )}
      {others > 0 && (
        <Button
          variant="outline-danger"
          disabled={revokeOthers.isPending}
          onClick={() => void run(() => revokeOthers.mutateAsync(), 'Every other session is signed out.')}
        >
          {revokeOthers.isPending ? 'Signing out…' : 'Sign out everywhere else'}
        </Button>
      )}
      <p role="status" className="small mt-2 mb-0">
        {note}
      </p>
    </section>
  );
}

interface SessionRowProps {
  session: SessionInfo;
  busy: boolean;
  onSignOut: () => void;
}

function SessionRow({ session, busy, onSignOut }: SessionRowProps) {
  const device = describeUserAgent(session.userAgent);
  return (
    <li className="list-group-item security-item">
      <div className="security-item-text">
        <div>
          <span className="fw-semibold">{device}</span>
          {session.current && <span className="badge text-bg-primary ms-2">This browser</span>}
        </div>
        <div className="small text-body-secondary">
          Signed in {formatWhen(session.createdAt)}
          <span aria-hidden="true" className="d-none d-sm-inline">
            {' '}
            ·{' '}
          </span>
          <br className="d-sm-none" />
          {session.current
            ? 'Active now'
            : session.lastSeenAt
              ? `Last active ${formatWhen(session.lastSeenAt)}`
              : 'Not seen since'}
        </div>
      </div>
      {!session.current && (
        <Button
          size="sm"
          variant="outline-secondary"
          disabled={busy}
          aria-label={`Sign out ${device}, signed in ${formatWhen(session.createdAt)}`}
          onClick={onSignOut}
        >
          Sign out
        </Button>
      )}
    </li>
  );
}
