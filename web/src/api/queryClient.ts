// The one QueryClient of the app and the failures every query and mutation shares (docs/product.md §8): a 403
// means the session is gone and leads to the sign-in page, wherever it happens; a query answered 401
// with a redirectUrl (a mailbox that needs re-authentication) goes there. What else a failure means
// stays with the screen (alerts, banners).
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isStatus, redirectUrlOf } from './client';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** Logged (with the error) when the query fails for another reason than a lost session. */
      errorMessage?: string;
    };
  }
}

export function createQueryClient({ onSessionLost }: { onSessionLost: () => void }): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isStatus(error, 403)) return onSessionLost();
        const redirectUrl = isStatus(error, 401) ? redirectUrlOf(error) : null;
        if (redirectUrl) return window.location.assign(redirectUrl);
        if (query.meta?.errorMessage) console.warn(query.meta.errorMessage, error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error) => {
        if (isStatus(error, 403)) onSessionLost();
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
}
