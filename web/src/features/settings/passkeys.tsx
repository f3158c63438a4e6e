import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { Passkey } from '#contract/api.js';
import { ErrorBanner } from '../../components/auth-form';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorState } from '../../components/error-state';
import { Loading } from '../../components/loading';
import { messageOf } from '../../lib/api-client';
import { AddPasskey } from './add-passkey';
import { usePasskeys, useRemovePasskey } from './api/passkeys';
import { formatWhen } from './security-text';

/** The account's passkeys: each with when it was added and last used, Remove; and Add a passkey. */
export function Passkeys() {
  const passkeys = usePasskeys();
  const remove = useRemovePasskey();
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const removed = useRef(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  async function confirmRemove() {
    if (!removing) return;
    try {
      await remove.mutateAsync(removing.id);
      removed.current = true;
      setError(null);
    } catch (failure) {
      setError(messageOf(failure, 'The passkey could not be removed. Please try again.'));
    }
    setRemoving(null);
  }

  return (
    <section className="security-part" aria-labelledby="passkeys-heading">
      <h3 className="h6 fw-semibold" id="passkeys-heading" ref={headingRef} tabIndex={-1}>
        Passkeys
      </h3>
      <p className="text-body-secondary">
        Sign in with your fingerprint, face or screen lock instead of typing your address and password.
      </p>
      <ErrorBanner message={error} />
      {passkeys.data ? (
        <PasskeyList passkeys={passkeys.data} onRemove={setRemoving} />
      ) : passkeys.isError ? (
        <ErrorState message="Failed to fetch passkeys." onRetry={() => void passkeys.refetch()} />
      ) : (
        <Loading label="Loading passkeys…" />
      )}
      <AddPasskey />
      <ConfirmDialog
        show={removing !== null}
        title="Remove this passkey?"
        confirmLabel="Remove"
        danger
        busy={remove.isPending}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
        onExited={() => {
          // Its Remove button went with it: the keyboard continues from the list's heading.
          if (removed.current) headingRef.current?.focus();
          removed.current = false;
        }}
      >
        You will no longer be able to sign in to Inbox Genie with “{removing?.name}”. Delete it from your
        device or password manager too if you no longer need it.
      </ConfirmDialog>
    </section>
  );
}

function PasskeyList({ passkeys, onRemove }: { passkeys: Passkey[]; onRemove: (passkey: Passkey) => void }) {
  if (passkeys.length === 0) return <p>No passkeys yet.</p>;
  return (
    <ul className="list-group mb-3" aria-label="Your passkeys">
      {passkeys.map((passkey) => (
        <li key={passkey.id} className="list-group-item security-item">
          <div className="security-item-text">
            <div className="fw-semibold">{passkey.name}</div>
            <div className="small text-body-secondary">
              Added {formatWhen(passkey.createdAt)}
              <span aria-hidden="true" className="d-none d-sm-inline">
                {' '}
                ·{' '}
              </span>
              <br className="d-sm-none" />
              {passkey.lastUsedAt ? `Last used ${formatWhen(passkey.lastUsedAt)}` : 'Never used'}
            </div>
          </div>
          <Button
            size="sm"
            variant="outline-danger"
            aria-label={`Remove passkey ${passkey.name}`}
            onClick={() => onRemove(passkey)}
          >
            Remove
          </Button>
        </li>
      ))}
    </ul>
  );
}
