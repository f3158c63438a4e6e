import { type QueryClient, useQuery } from '@tanstack/react-query';
import type { ScanProgress } from '../../../lib/live';
import { subscriptionKeys } from './keys';

/** What the live events say about the scans: one running (and how far), as of `at` (ms). */
export interface LiveScan {
  scanning: boolean;
  progress: ScanProgress | null;
  /** When an event last said so; 0 before any. */
  at: number;
}

const NO_SCAN: LiveScan = { scanning: false, progress: null, at: 0 };

/** The scan state the live events reported (app/live-updates.ts writes it). */
export function useLiveScan(): LiveScan {
  // Client state kept in the cache next to the lists: never fetched, only written by the events.
  const { data } = useQuery({
    queryKey: subscriptionKeys.scan,
    queryFn: () => NO_SCAN,
    initialData: NO_SCAN,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return data;
}

/** Records what the live events said about the scans, as of now. */
export function setLiveScan(queryClient: QueryClient, scan: Omit<LiveScan, 'at'>): void {
  queryClient.setQueryData<LiveScan>(subscriptionKeys.scan, { ...scan, at: Date.now() });
}

/** The progress last reported, if any. */
export function liveScanProgress(queryClient: QueryClient): ScanProgress | null {
  return queryClient.getQueryData<LiveScan>(subscriptionKeys.scan)?.progress ?? null;
}
