import type { BulkItemResult, BulkSummary, Subscription } from './api.js';

// socket.io events the server pushes to the room of a user (docs/product.md §3, §4).
export interface ServerToClientEvents {
  'loading-new-subscriptions': () => void;
  'new-subscription': (item: Subscription) => void;
  'all-subscriptions-sent': () => void;
  'scan-progress': (progress: { scanned: number; total: number }) => void;
  /** One sender of a bulk action is done (POST /bulk-action). */
  'bulk-progress': (progress: {
    bulkId: string;
    done: number;
    total: number;
    result: BulkItemResult;
  }) => void;
  /** Every sender of the bulk action is done. */
  'bulk-done': (done: { bulkId: string; summary: BulkSummary }) => void;
}

export type ClientToServerEvents = Record<string, never>;
