import { Link } from 'react-router';
import { SCREENS } from '#contract/routes.js';

/** Shown while a signed-in screen has nothing to list yet. */
export function EmptyState() {
  return (
    <p className="empty-state text-muted border rounded p-4 text-center">
      Nothing here yet. <Link to={SCREENS.addAccount}>Connect a mailbox</Link> to find your subscriptions.
    </p>
  );
}
