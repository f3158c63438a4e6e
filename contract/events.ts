import type { Subscription } from './api.js';

// socket.io events the server pushes to the room of a user (docs/product.md §3, §4).
export interface ServerToClientEvents {
  'loading-new-subscriptions': () => void;
  'new-subscription': (item: Subscription) => void;
  'all-subscriptions-sent': () => void;
  'scan-progress': (progress: { scanned: number; total: number }) => void;
}

export type ClientToServerEvents = Record<string, never>;
