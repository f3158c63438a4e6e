// The bulk action's bar and its progress and summary, and the offer to select every matching sender:
// loaded with the first selection (a chunk of its own, so that the list's first load stays within its budget).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { Link } from 'react-router';
import {
  BULK_MAX_SUBSCRIPTIONS,
  type BulkAction,
  SUBSCRIPTION_PAGE_MAX,
  type Subscription,
  type SubscriptionCategory,
  type SubscriptionSort,
  type SubscriptionsResponse,
} from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { errorToast, useToasts } from '../../../components/toasts';
import { failureText } from '../../../lib/api-client';
import { undoActivity } from '../../activity';
import { bulkRunText, invalidateTrialUsage, useFreeUnsubscribesLeft } from '../../billing';
import { TrashOption } from '../actions/trash-option';
import { subscriptionKeys } from '../api/keys';
import { getSubscriptions } from '../api/list-query';
import { itemsOfPages, senderName } from '../list/list-model';
import {
  BULK_ACTION_LABELS,
  BULK_CONFIRM_FROM,
  bulkActionsFor,
  bulkBlockText,
  bulkDoneText,
  bulkProgressText,
  bulkQuestion,
  bulkUnblockedText,
  manualPage,
  OUTCOME_LABELS,
  summarize,
} from './bulk-view';
import type { BulkRun } from './use-bulk-action';
import type { useSelection } from './use-selection';

interface BulkBarProps {
  category: SubscriptionCategory;
  selected: Subscription[];
  moveToTrash: boolean;
  onMoveToTrash: (on: boolean) => void;
  onStart: (action: BulkAction) => void;
  onClear: () => void;
}

/** The sticky bar of a selection: "N selected: Unsubscribe · Keep · Block", asking first for many. */
export function BulkBar({ category, selected, moveToTrash, onMoveToTrash, onStart, onClear }: BulkBarProps) {
  const [asking, setAsking] = useState<BulkAction | null>(null);
  // While the free trial limits unsubscribes: how many of the selection will run (null: no limit).
  const freeLeft = useFreeUnsubscribesLeft();
  const count = selected.length;
  if (count === 0) return null;
  const limited = freeLeft !== null;

  function choose(action: BulkAction) {
    // A block moves mail at once: always asked, with how much; an unsubscribe under the trial's limit too,
    // with how many will run.
    if (action === 'block' || count >= BULK_CONFIRM_FROM || (action === 'unsubscribe' && limited))
      setAsking(action);
    else onStart(action);
  }

  return (
    <section className="bulk-bar" aria-label="Selected senders">
      <span className="fw-semibold bulk-count">{count} selected:</span>
      <div className="d-flex flex-wrap gap-2">
        {bulkActionsFor(category).map((action) => (
          <Button
            key={action}
            size="sm"
            variant={action === 'keep' ? 'success' : 'danger'}
            onClick={() => choose(action)}
          >
            {BULK_ACTION_LABELS[action]}
          </Button>
        ))}
        <Button size="sm" variant="outline-secondary" onClick={onClear}>
          Clear selection
        </Button>
      </div>
      <ConfirmDialog
        show={asking !== null}
        title={asking ? bulkQuestion(asking, count) : ''}
        confirmLabel={asking ? BULK_ACTION_LABELS[asking] : ''}
        danger={asking !== 'keep'}
        onConfirm={() => {
          const action = asking;
          setAsking(null);
          if (action) onStart(action);
        }}
        onCancel={() => setAsking(null)}
      >
        <p className={asking === 'unsubscribe' ? 'mb-3' : 'mb-0'}>
          {asking === 'block'
            ? bulkBlockText(selected.reduce((sum, item) => sum + item.messageCount, 0))
            : asking === 'keep'
              ? 'They move to the Kept list.'
              : 'Each sender is asked to stop; senders with only a web page are listed for you at the end.'}
        </p>
        {asking === 'unsubscribe' && freeLeft !== null && (
          <p className={`mb-3 bulk-free-left${freeLeft < count ? ' fw-semibold' : ''}`}>
            {bulkRunText(count, freeLeft)}
          </p>
        )}
        {asking === 'unsubscribe' && <TrashOption checked={moveToTrash} onChange={onMoveToTrash} />}
      </ConfirmDialog>
    </section>
  );
}

interface BulkProgressProps {
  run: BulkRun;
  /** Ids confirmed with "Yes, unsubscribed" after the action. */
  confirmed: ReadonlySet<string>;
  onConfirmManual: (item: Subscription) => void;
  onClose: () => void;
}

/** While a bulk action runs: its progress; at the end: its summary and the pages still to open. */
export function BulkProgress({ run, confirmed, onConfirmManual, onClose }: BulkProgressProps) {
  const headingId = useId();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  // The end is said once, in the screen's one live region.
  const announced = useRef<string | null>(null);
  useEffect(() => {
    if (!run.finished || !run.bulkId || announced.current === run.bulkId) return;
    announced.current = run.bulkId;
    toasts.show({ text: bulkDoneText(run.results.values()) });
    // Its unsubscribes used some of the free trial's: the count above the list follows.
    if (run.action === 'unsubscribe') void invalidateTrialUsage(queryClient);
  }, [run, toasts, queryClient]);
  const results = [...run.results.values()];
  const manual = results
    .map((result) => ({ result, item: run.items.get(result.subscriptionId), url: manualPage(result) }))
    .filter((entry): entry is typeof entry & { item: Subscription; url: string } =>
      Boolean(entry.item && entry.url),
    );
  const summary = summarize(results);

  return (
    <section className="bulk-progress border rounded bg-white p-3 mb-3" aria-labelledby={headingId}>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
        <h2 className="h6 mb-0" id={headingId}>
          {run.finished ? 'Done' : bulkProgressText(run.action, run.done, run.total)}
        </h2>
        {run.finished && (
          <div className="d-flex gap-2">
            {run.action === 'block' && <UndoBulkBlock run={run} />}
            <Button size="sm" variant="outline-secondary" onClick={onClose}>
              Close summary
            </Button>
          </div>
        )}
      </div>
      {!run.finished && (
        <ProgressBar
          className="mt-2"
          now={run.total ? (100 * run.done) / run.total : 0}
          aria-label={bulkProgressText(run.action, run.done, run.total)}
          animated
        />
      )}
      {summary.length > 0 && (
        <ul className="bulk-summary list-unstyled small mb-0 mt-2">
          {summary.map(({ outcome, count }) => (
            <li key={outcome} data-outcome={outcome}>
              {OUTCOME_LABELS[outcome](count)}
              {outcome === 'limit' && (
                <>
                  {' '}
                  <Link to={SCREENS.billing}>See plans</Link>
                </>
              )}
              {outcome === 'reauth' && (
                <>
                  {' '}
                  <Link to={SCREENS.accounts}>Email Accounts</Link>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {run.finished && manual.length > 0 && (
        <>
          <h3 className="h6 mt-3">Open these pages to finish</h3>
          <ul className="bulk-manual list-unstyled mb-0">
            {manual.map(({ item, url }) => (
              <li key={item.id} className="bulk-manual-item">
                <span className="fw-semibold text-break">{senderName(item)}</span>
                <a href={url} target="_blank" rel="noopener noreferrer" className="text-break small">
                  {url}
                </a>
                {confirmed.has(item.id) ? (
                  <span className="text-success small">Unsubscribed</span>
                ) : (
                  <Button size="sm" variant="outline-success" onClick={() => onConfirmManual(item)}>
                    Yes, unsubscribed<span className="visually-hidden"> from {senderName(item)}</span>
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/**
 * Undo of a whole bulk Block: the bulk's entry of the activity history undone (each blocked sender unblocked
 * as a row's Undo does, the block lifted and its mail moved back); then one note of what came back. A
 * failure stops at the sender that failed; Retry goes on with the rest.
 */
function UndoBulkBlock({ run }: { run: BulkRun }) {
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const blocked = [...run.results.values()]
    .filter((r) => r.outcome === 'blocked')
    .map((r) => r.subscriptionId);
  if (blocked.length === 0 || state === 'done') return null;

  async function undoAll() {
    // A finished run always has its id (the summary shows only then); the guard is for the type.
    if (!run.bulkId) return;
    setState('busy');
    try {
      const { restored } = await undoActivity(run.bulkId);
      setState('done');
      toasts.show({ text: bulkUnblockedText(blocked.length, restored) });
    } catch (error) {
      setState('idle');
      const text = failureText('Failed to undo the block of these senders...', error);
      toasts.show(errorToast(text, () => void undoAll(), `undo-bulk:${run.bulkId}`, error));
    } finally {
      void queryClient.invalidateQueries({ queryKey: subscriptionKeys.lists });
    }
  }

  return (
    <Button size="sm" variant="outline-primary" disabled={state === 'busy'} onClick={() => void undoAll()}>
      {state === 'busy' ? 'Undoing…' : 'Undo'}
      <span className="visually-hidden"> the block of {blocked.length} senders</span>
    </Button>
  );
}

interface SelectAllMatchingProps {
  category: SubscriptionCategory;
  order: SubscriptionSort;
  /** The search as sent to the server. */
  q: string;
  /** The rows on this page, and the senders matching in all. */
  shown: number;
  matching: number;
  selection: Pick<ReturnType<typeof useSelection>, 'selected' | 'allVisibleSelected' | 'select'>;
}

/**
 * Above the rows once every one shown is selected: the offer to select every sender matching the list's
 * order and search (up to BULK_MAX_SUBSCRIPTIONS), while more match than are selected. Rendered while there
 * is a selection, so that a fetch under way keeps its button disabled.
 */
export function SelectAllMatching({
  category,
  order,
  q,
  shown,
  matching,
  selection,
}: SelectAllMatchingProps) {
  const { selected, allVisibleSelected, select } = selection;
  const toasts = useToasts();
  const [selectingAll, setSelectingAll] = useState(false);
  const count = Math.min(matching, BULK_MAX_SUBSCRIPTIONS);
  if (!allVisibleSelected || matching <= shown || selected.size >= count) return null;

  async function selectAllMatching() {
    setSelectingAll(true);
    try {
      select(await fetchAllMatching(category, order, q));
    } catch (error) {
      console.warn('Failed to fetch subscriptions...', error);
      const text = failureText('Could not select every matching sender...', error);
      toasts.show(errorToast(text, () => void selectAllMatching(), 'select-all', error));
    } finally {
      setSelectingAll(false);
    }
  }

  return (
    <div className="select-all-matching small px-3 py-2 border border-bottom-0 rounded-top">
      All {shown} on this page are selected.{' '}
      <Button
        variant="link"
        size="sm"
        className="p-0 align-baseline"
        disabled={selectingAll}
        onClick={() => void selectAllMatching()}
      >
        Select all {count} matching
      </Button>
    </div>
  );
}

/**
 * Every sender matching the category and search, walked page by page at the largest size (at most
 * BULK_MAX_SUBSCRIPTIONS): "Select all N matching" of the bulk actions.
 */
export async function fetchAllMatching(
  category: SubscriptionCategory,
  sort: SubscriptionSort,
  q: string,
): Promise<Subscription[]> {
  const all: Subscription[] = [];
  let cursor: string | null = null;
  do {
    const page: SubscriptionsResponse = await getSubscriptions(category, {
      sort,
      q,
      limit: SUBSCRIPTION_PAGE_MAX,
      cursor,
    });
    all.push(...(page?.data ?? []));
    cursor = page?.nextCursor ?? null;
  } while (cursor && all.length < BULK_MAX_SUBSCRIPTIONS);
  return itemsOfPages([{ data: all }]).slice(0, BULK_MAX_SUBSCRIPTIONS);
}
