// Live updates (docs/product.md §4, docs/ARCHITECTURE.md): one socket.io connection to the same origin, authenticated by
// the session cookie, open while the signed-in area is. The events change the query cache here, in
// one place (useLiveUpdates); the screens only read the cache.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { Subscription } from '#contract/api.js';
import type { ClientToServerEvents, ServerToClientEvents } from '#contract/events.js';
import { addLiveSubscription } from '../features/subscriptions/queries';
import { queryKeys } from './query-keys';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type ScanProgress = Parameters<ServerToClientEvents['scan-progress']>[0];
export type BulkProgress = Parameters<ServerToClientEvents['bulk-progress']>[0];
export type BulkDone = Parameters<ServerToClientEvents['bulk-done']>[0];

/** What a screen reacts to; `connect` runs on every (re)connection, when events may have been missed. */
export type LiveHandlers = Partial<ServerToClientEvents> & { connect?: () => void };

/** A screen change (one listener leaves, the next arrives) keeps the connection this long. */
const LINGER_MS = 2000;

let socket: LiveSocket | null = null;
let listeners = 0;
let closeTimer: ReturnType<typeof setTimeout> | undefined;

function acquire(): LiveSocket {
  clearTimeout(closeTimer);
  listeners += 1;
  socket ??= io({ withCredentials: true, transports: ['websocket', 'polling'] });
  return socket;
}

function release(): void {
  listeners -= 1;
  if (listeners > 0) return;
  clearTimeout(closeTimer);
  closeTimer = setTimeout(() => {
    if (listeners > 0) return;
    socket?.disconnect();
    socket = null;
  }, LINGER_MS);
}

/** Listens to the live events while the calling component is mounted; the latest handlers always run. */
export function useLive(handlers: LiveHandlers): void {
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });

  useEffect(() => {
    const live = acquire();
    const onConnect = () => current.current.connect?.();
    const onLoading = () => current.current['loading-new-subscriptions']?.();
    const onItem = (item: Subscription) => current.current['new-subscription']?.(item);
    const onAllSent = () => current.current['all-subscriptions-sent']?.();
    const onProgress = (progress: ScanProgress) => current.current['scan-progress']?.(progress);
    const onBulkProgress = (progress: BulkProgress) => current.current['bulk-progress']?.(progress);
    const onBulkDone = (done: BulkDone) => current.current['bulk-done']?.(done);
    live.on('connect', onConnect);
    live.on('loading-new-subscriptions', onLoading);
    live.on('new-subscription', onItem);
    live.on('all-subscriptions-sent', onAllSent);
    live.on('scan-progress', onProgress);
    live.on('bulk-progress', onBulkProgress);
    live.on('bulk-done', onBulkDone);
    return () => {
      live.off('connect', onConnect);
      live.off('loading-new-subscriptions', onLoading);
      live.off('new-subscription', onItem);
      live.off('all-subscriptions-sent', onAllSent);
      live.off('scan-progress', onProgress);
      live.off('bulk-progress', onBulkProgress);
      live.off('bulk-done', onBulkDone);
      release();
    };
  }, []);
}

/** What the live events say about the scans: one running (and how far), as of `at` (ms). */
export interface LiveScan {
  scanning: boolean;
  progress: ScanProgress | null;
  /** When an event last said so; 0 before any. */
  at: number;
}

const NO_SCAN: LiveScan = { scanning: false, progress: null, at: 0 };

/** The scan state the live events reported (see useLiveUpdates). */
export function useLiveScan(): LiveScan {
  // Client state kept in the cache next to the lists: never fetched, only written by the events.
  const { data } = useQuery({
    queryKey: queryKeys.scan,
    queryFn: () => NO_SCAN,
    initialData: NO_SCAN,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return data;
}

/** Applies the live events to the query cache; mounted once, by the signed-in area. */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  const setScan = (scan: Omit<LiveScan, 'at'>) =>
    queryClient.setQueryData<LiveScan>(queryKeys.scan, { ...scan, at: Date.now() });
  const refreshLists = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.subscriptionLists });
    void queryClient.invalidateQueries({ queryKey: queryKeys.emailAccounts });
  };
  useLive({
    // Events sent before this connection were missed: catch up.
    connect: refreshLists,
    // A scan starting changes the mailbox's status badge (set before the event is sent).
    'loading-new-subscriptions': () => {
      setScan({
        scanning: true,
        progress: queryClient.getQueryData<LiveScan>(queryKeys.scan)?.progress ?? null,
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.emailAccounts });
    },
    'new-subscription': (item) => addLiveSubscription(queryClient, item),
    'scan-progress': (progress) => setScan({ scanning: true, progress }),
    // Counts may have changed; another mailbox may still be scanning (the accounts tell).
    'all-subscriptions-sent': () => {
      setScan({ scanning: false, progress: null });
      refreshLists();
    },
  });
}
