import { lazy, Suspense, useState } from 'react';
import type { BulkAction, Subscription } from '#contract/api.js';
import type { SubscriptionActions } from '../actions/use-subscription-actions';

// The question comes with the first Block asked for (the list's first load has a budget).
const RowBlockDialog = lazy(() => import('./row-block-dialog'));

/**
 * Block from a row's More menu: the bulk Block's question for one sender ("Block 1 sender?", how many
 * messages move to Trash now), then the bulk call, whose summary offers Undo (one path for every Block that
 * moves mail: docs/decisions/104-screens-that-fit.md). `ask` opens the question; `dialog` is to be rendered.
 */
export function useRowBlock(
  startOn: (action: BulkAction, items: Subscription[]) => Promise<unknown>,
  actions: Pick<SubscriptionActions, 'reportFailure'>,
) {
  // The sender last asked about stays while the dialog closes (its fade, and the focus going back).
  const [item, setItem] = useState<Subscription | null>(null);
  const [show, setShow] = useState(false);

  async function block(target: Subscription) {
    try {
      await startOn('block', [target]);
    } catch (error) {
      actions.reportFailure(error, () => void block(target));
    }
  }

  const dialog = item && (
    <Suspense fallback={null}>
      <RowBlockDialog
        item={item}
        show={show}
        onConfirm={() => {
          setShow(false);
          void block(item);
        }}
        onCancel={() => setShow(false)}
      />
    </Suspense>
  );
  return {
    ask: (target: Subscription) => {
      setItem(target);
      setShow(true);
    },
    dialog,
  };
}
