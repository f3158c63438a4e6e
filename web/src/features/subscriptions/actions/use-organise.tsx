import { lazy, Suspense, useState } from 'react';
import type { Subscription } from '#contract/api.js';
import type { RuleTarget } from '../../rules';

// The Organise dialog comes with its first opening.
const OrganiseDialog = lazy(() => import('../../rules').then((m) => m.loadOrganiseDialog()));

/**
 * A row's "Organise…": `organise` opens the dialog on that sender; `dialog` is to be rendered once by the
 * screen. The dialog loads with its first opening, then stays (so that it closes with its transition).
 */
export function useOrganise() {
  const [organising, setOrganising] = useState<RuleTarget | null>(null);
  const [organiseWanted, setOrganiseWanted] = useState(false);

  function organise(item: Subscription) {
    setOrganiseWanted(true);
    setOrganising({
      subscriptionId: item.id,
      address: item.address,
      senderName: item.senderName,
      account: item.account,
      rule: item.rule ?? null,
    });
  }

  const dialog = organiseWanted && (
    <Suspense fallback={null}>
      <OrganiseDialog target={organising} onClose={() => setOrganising(null)} />
    </Suspense>
  );
  return { organise, dialog };
}
