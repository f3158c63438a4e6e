// One bulk action of the subscription screen at a time (POST /bulk-action): started here, followed by the
// socket's bulk-progress / bulk-done events, and by GET /bulk-action/:bulkId whenever the events go quiet
// (a socket that reconnected missed some; the server is the record). Senders that are done leave the
// cached lists as they finish; at the end the lists are fetched again.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  BulkAction,
  BulkItemResult,
  BulkOutcome,
  BulkStatus,
  Subscription,
  SubscriptionCategory,
} from '#contract/api.js';
import { useLive } from '../../../lib/live';
import { getBulkStatus, startBulkAction } from '../api/bulk-action';
import { subscriptionKeys } from '../api/keys';
import { applyAction } from '../api/list-query';

/** Outcomes after which the sender has left the list the action started from. */
const LEAVES_LIST: ReadonlySet<BulkOutcome> = new Set(['one-click', 'mailto', 'blocked', 'kept']);

/** Without an event for this long, the status is asked for. */
const QUIET_MS = 2500;

export interface BulkRun {
  bulkId: string | null;
  action: BulkAction;
  done: number;
  total: number;
  /** Per sender, as far as known. */
  results: Map<string, BulkItemResult>;
  /** The senders as the screen knew them when the action started (names, addresses). */
  items: Map<string, Subscription>;
  finished: boolean;
  /** The start itself failed (the server's words). */
  error: string | null;
}

export function useBulkAction(category: SubscriptionCategory) {
  const queryClient = useQueryClient();
  const [run, setRun] = useState<BulkRun | null>(null);
  const runRef = useRef<BulkRun | null>(null);
  const lastEvent = useRef(0);

  const update = useCallback((next: BulkRun | null) => {
    runRef.current = next;
    setRun(next);
  }, []);

  /** Takes in results (from an event or the status), removing finished senders from the list. */
  const take = useCallback(
    (results: BulkItemResult[], done: number, total: number, finished: boolean) => {
      const current = runRef.current;
      if (!current) return;
      const merged = new Map(current.results);
      for (const result of results) {
        if (!merged.has(result.subscriptionId) && LEAVES_LIST.has(result.outcome)) {
          applyAction(queryClient, category, result.subscriptionId);
        }
        merged.set(result.subscriptionId, result);
      }
      const isDone = finished || (total > 0 && done >= total && merged.size >= total);
      update({
        ...current,
        results: merged,
        done: Math.max(current.done, done, merged.size),
        total: total || current.total,
        finished: current.finished || isDone,
      });
      if (isDone && !current.finished) {
        // Counts and other lists (kept, unsubscribed) changed: fetch them again.
        void queryClient.invalidateQueries({ queryKey: subscriptionKeys.lists });
      }
    },
    [category, queryClient, update],
  );

  const fromStatus = useCallback(
    (status: BulkStatus) => take(status.results, status.done, status.total, status.done >= status.total),
    [take],
  );

  useLive({
    'bulk-progress': (progress) => {
      if (progress.bulkId !== runRef.current?.bulkId) return;
      lastEvent.current = Date.now();
      take([progress.result], progress.done, progress.total, false);
    },
    'bulk-done': (done) => {
      const current = runRef.current;
      if (done.bulkId !== current?.bulkId) return;
      lastEvent.current = Date.now();
      // The summary lists every sender (the manual ones with their links): read the whole record.
      void getBulkStatus(done.bulkId)
        .then((status) => take(status.results, status.total, status.total, true))
        .catch((error: unknown) => console.warn('Failed to fetch the bulk action...', error));
    },
  });

  // The fallback when the events go quiet: ask the server how far the action has come.
  const bulkId = run?.bulkId ?? null;
  const finished = run?.finished ?? true;
  useEffect(() => {
    if (!bulkId || finished) return;
    const timer = setInterval(() => {
      if (Date.now() - lastEvent.current < QUIET_MS) return;
      lastEvent.current = Date.now();
      getBulkStatus(bulkId)
        .then(fromStatus)
        .catch((error: unknown) => console.warn('Failed to fetch the bulk action...', error));
    }, 1000);
    return () => clearInterval(timer);
  }, [bulkId, finished, fromStatus]);

  /** Starts `action` on `items`; the answer's failure is the caller's to show (it throws). */
  async function start(
    action: BulkAction,
    items: Subscription[],
    { moveToTrash }: { moveToTrash: boolean },
  ): Promise<void> {
    const started: BulkRun = {
      bulkId: null,
      action,
      done: 0,
      total: items.length,
      results: new Map(),
      items: new Map(items.map((item) => [item.id, item])),
      finished: false,
      error: null,
    };
    update(started);
    lastEvent.current = Date.now();
    try {
      const { bulkId: id } = await startBulkAction({
        action,
        subscriptionIds: items.map((item) => item.id),
        // Said either way: without it a block (the last way out) would trash the mail (the spec's default).
        ...(action === 'unsubscribe' ? { moveToTrash } : {}),
      });
      if (runRef.current === started) update({ ...started, bulkId: id });
    } catch (error) {
      if (runRef.current === started) update(null);
      throw error;
    }
  }

  return { run, start, close: () => update(null) };
}
