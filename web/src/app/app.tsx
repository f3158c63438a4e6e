// The app: the query client, the contact dialog and the router over the route table (routes.tsx).
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { BrowserRouter, type NavigateFunction, useNavigate, useRoutes } from 'react-router';
import { SCREENS } from '#contract/routes.js';
import { ContactProvider } from '../components/contact';
import { Loading } from '../components/loading';
import { createQueryClient } from '../lib/query-client';
import { RouteTableContext } from '../lib/title';
import { routes } from './routes';

// The contact dialog (its form library and validation) loads when first opened, not with every page.
const ContactDialog = lazy(() =>
  import('../features/contact/contact-dialog').then((m) => ({ default: m.ContactDialog })),
);

/** The router's navigate, for the query client's rules that run outside React. */
let navigateOutside: NavigateFunction | null = null;

function NavigateOutside() {
  const navigate = useNavigate();
  useEffect(() => {
    navigateOutside = navigate;
  }, [navigate]);
  return null;
}

/** docs/product.md §8: a 403 anywhere means the session is gone (to the sign-in page), a 402 that a plan is needed. */
const queryClient = createQueryClient({
  onSessionLost: () => navigateOutside?.(SCREENS.signin, { replace: true }),
  onPlanRequired: () => navigateOutside?.(SCREENS.pricing),
});

function Screens() {
  return useRoutes(routes);
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ContactProvider dialog={ContactDialog}>
        <BrowserRouter>
          <NavigateOutside />
          <RouteTableContext.Provider value={routes}>
            <Suspense fallback={<Loading />}>
              <Screens />
            </Suspense>
          </RouteTableContext.Provider>
        </BrowserRouter>
      </ContactProvider>
    </QueryClientProvider>
  );
}
