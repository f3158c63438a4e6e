// The live events applied to the query cache, in one place: the lists and mailboxes every screen of the
// signed-in area reads stay current without asking.
import { useQueryClient } from '@tanstack/react-query';
import { EMAIL_ACCOUNTS_KEY } from '../features/accounts';
import {
  addLiveSubscription,
  liveScanProgress,
  setLiveScan,
  subscriptionKeys,
} from '../features/subscriptions';
import { useLive } from '../lib/live';

/** Applies the live events to the query cache; mounted once, by the signed-in area. */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  const setScan = (scan: Parameters<typeof setLiveScan>[1]) => setLiveScan(queryClient, scan);
  const refreshLists = () => {
    void queryClient.invalidateQueries({ queryKey: subscriptionKeys.lists });
    void queryClient.invalidateQueries({ queryKey: EMAIL_ACCOUNTS_KEY });
  };
  useLive({
    // Events sent before this connection were missed: catch up.
    connect: refreshLists,
    // A scan starting changes the mailbox's status badge (set before the event is sent).
    'loading-new-subscriptions': () => {
      setScan({
        scanning: true,
        progress: liveScanProgress(queryClient),
      });
      void queryClient.invalidateQueries({ queryKey: EMAIL_ACCOUNTS_KEY });
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
