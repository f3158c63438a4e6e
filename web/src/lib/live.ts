// Live updates (docs/product.md §4, docs/ARCHITECTURE.md): one socket.io connection to the same origin, authenticated by
// the session cookie, open while the signed-in area is. The events change the query cache in one place
// (app/live-updates.ts); the screens only read the cache.
import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { Subscription } from '#contract/api.js';
import type { ClientToServerEvents, ServerToClientEvents } from '#contract/events.js';

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
