// The one QueryClient of the app and the failures every query and mutation shares (docs/product.md §8): a 403
// means the session is gone and leads to the sign-in page, a 402 means a plan is needed and leads to
// /pricing, wherever either happens (except a mutation whose screen shows the plans in a dialog); a query
// answered 401 with a redirectUrl (a mailbox that needs re-authentication) goes there. What else a failure
// means stays with the screen (alerts, banners).
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, isStatus, redirectUrlOf } from './api-client';
import { SIGNIN_STATUS_KEY } from './query-keys';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** Logged (with the error) when the query fails for another reason than a lost session. */
      errorMessage?: string;
      /**
       * A 401 with a redirectUrl (a mailbox needs signing in again) is the screen's to show, as the
       * Re-authentication Required dialog with its reason, instead of a jump to another page.
       */
      reauthDialog?: boolean;
    };
    mutationMeta: {
      /**
       * A 402 (the free trial's limit) is the screen's to show, as a dialog with the server's reason and the
       * plans, instead of a jump to the public /pricing page (the unsubscribe flow's calls).
       */
      planDialog?: boolean;
    };
  }
}

/** Where a failure leads whatever the screen: the one place of the rule (docs/product.md §8). */
export type GlobalNavigation = 'signin' | 'pricing';

/** 403 → the sign-in page, 402 → /pricing; null: the screen decides. `status` null: no answer. */
export function globalNavigation(status: number | null): GlobalNavigation | null {
  if (status === 403) return 'signin';
  if (status === 402) return 'pricing';
  return null;
}

function statusOf(error: unknown): number | null {
  return error instanceof ApiError && error.status > 0 ? error.status : null;
}

interface Handlers {
  /** A 403: the session is gone. */
  onSessionLost: () => void;
  /** A 402: the free trial's limit is reached, a plan is needed. */
  onPlanRequired: () => void;
}

export function createQueryClient({ onSessionLost, onPlanRequired }: Handlers): QueryClient {
  /** Follows the global rule; true when it applied. */
  function navigateFor(error: unknown): boolean {
    const to = globalNavigation(statusOf(error));
    if (to === 'signin') {
      // The session is gone: the cached status says so too, or the sign-in page (which sends signed-in
      // visitors to the app) and the app's session gate would send the visitor back and forth.
      client.setQueryData(SIGNIN_STATUS_KEY, false);
      onSessionLost();
    }
    if (to === 'pricing') onPlanRequired();
    return to !== null;
  }
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (navigateFor(error)) return;
        const redirectUrl = isStatus(error, 401) ? redirectUrlOf(error) : null;
        if (redirectUrl && query.meta?.reauthDialog) return;
        if (redirectUrl) return window.location.assign(redirectUrl);
        if (query.meta?.errorMessage) console.warn(query.meta.errorMessage, error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.planDialog && statusOf(error) === 402) return;
        navigateFor(error);
      },
    }),
    defaultOptions: {
      queries: {
        // As before: a screen asks again when it opens, and a failure is shown or logged, not retried
        // behind the user's back (a retried 403 would only delay the way to the sign-in page).
        retry: false,
        // Lists change under the user's actions and the live events, not on window focus (the
        // unsubscribe flow opens the sender's page in another tab and comes back).
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
