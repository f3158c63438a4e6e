import { lazy, Suspense, useState } from 'react';
import {
  BULK_MAX_SUBSCRIPTIONS,
  type BulkAction,
  type Subscription,
  type SubscriptionCategory,
} from '#contract/api.js';
import type { SubscriptionActions } from '../actions/use-subscription-actions';
import { useBulkAction } from './use-bulk-action';
import type { useSelection } from './use-selection';

/**
 * The bar and the summary of bulk actions, and the offer to select every matching sender: they come with the
 * first selection (the list's first load has a budget), one chunk for all.
 */
export const loadBulkPanel = () => import('./bulk-panel');
const BulkBar = lazy(() => loadBulkPanel().then((m) => ({ default: m.BulkBar })));
const BulkProgress = lazy(() => loadBulkPanel().then((m) => ({ default: m.BulkProgress })));

/**
 * The list's bulk actions: the bar acts on the selection (cleared meanwhile; given back if the start fails),
 * `startOn` on a brand's senders (the grouped list). `progress` (the run's progress and summary, where a
 * sender left to its own page is confirmed) and `bar` are to be rendered by the screen.
 */
export function useListBulk(
  category: SubscriptionCategory,
  { selectedItems, select }: ReturnType<typeof useSelection>,
  actions: SubscriptionActions,
  trash: { checked: boolean; onChange: (checked: boolean) => void },
) {
  const bulk = useBulkAction(category);
  const [confirmed, setConfirmed] = useState<ReadonlySet<string>>(new Set());
  const moveToTrash = trash.checked;

  function startOn(action: BulkAction, items: Subscription[]) {
    setConfirmed(new Set());
    return bulk.start(action, items.slice(0, BULK_MAX_SUBSCRIPTIONS), { moveToTrash });
  }

  /** Starts `action` on the selection; a failure gives it back, and its Retry starts it on the same senders. */
  async function start(action: BulkAction, items = selectedItems.slice(0, BULK_MAX_SUBSCRIPTIONS)) {
    select([]);
    try {
      await startOn(action, items);
    } catch (error) {
      actions.reportFailure(error, () => void start(action, items));
      select(items);
    }
  }

  async function confirmManual(item: Subscription) {
    if (await actions.confirmManual(item)) setConfirmed((current) => new Set(current).add(item.id));
  }

  const { run } = bulk;
  const progress = run && (
    <Suspense fallback={null}>
      <BulkProgress
        run={run}
        confirmed={confirmed}
        onConfirmManual={(item) => void confirmManual(item)}
        onClose={bulk.close}
      />
    </Suspense>
  );
  const bar = selectedItems.length > 0 && (
    <Suspense fallback={null}>
      <BulkBar
        category={category}
        selected={selectedItems}
        moveToTrash={moveToTrash}
        onMoveToTrash={trash.onChange}
        onStart={(action) => void start(action)}
        onClear={() => select([])}
      />
    </Suspense>
  );
  return { run, startOn, progress, bar };
}
