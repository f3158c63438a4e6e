// The screens and their routes (docs/product.md §2). /pricing and /blog arrive with later issues; until then
// they fall through to the not-found screen.
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { SCREENS } from '../../contract/routes.js';
import { createQueryClient } from './api/queryClient';
import { ContactProvider, useContact } from './components/contact';
import GenieLayout from './components/GenieLayout';
import { Loading } from './components/Loading';
import { SiteLayout } from './components/SiteLayout';

// Each screen is its own chunk, loaded when first visited; the layouts show Loading meanwhile.
const AddMailbox = lazy(() => import('./features/accounts/AddMailbox'));
const ConnectMailbox = lazy(() => import('./features/accounts/ConnectMailbox'));
const Accounts = lazy(() => import('./features/accounts/Accounts'));
const AddAccount = lazy(() => import('./features/accounts/AddAccount'));
const CreateAccount = lazy(() => import('./features/auth/CreateAccount'));
const ForgotPassword = lazy(() => import('./features/auth/ForgotPassword'));
const ProviderPage = lazy(() => import('./features/auth/ProviderPage'));
const ResetConfirm = lazy(() => import('./features/auth/ResetConfirm'));
const ResetSent = lazy(() => import('./features/auth/ResetSent'));
const SigninPassword = lazy(() => import('./features/auth/SigninPassword'));
const Billing = lazy(() => import('./features/billing/Billing'));
const About = lazy(() => import('./features/marketing/About'));
const HowItWorks = lazy(() => import('./features/marketing/HowItWorks'));
const Landing = lazy(() => import('./features/marketing/Landing'));
const NotFound = lazy(() => import('./features/marketing/NotFound'));
const Privacy = lazy(() => import('./features/marketing/Privacy'));
const Terms = lazy(() => import('./features/marketing/Terms'));
const Settings = lazy(() => import('./features/settings/Settings'));
const CategoryPage = lazy(() => import('./features/subscriptions/CategoryPage'));

function LandingPage() {
  const openContact = useContact();
  return <Landing onContact={() => openContact()} />;
}

const router = createBrowserRouter([
  {
    element: <SiteLayout />,
    children: [
      { index: true, element: <LandingPage /> },
      { path: SCREENS.howItWorks, element: <HowItWorks /> },
      { path: SCREENS.privacy, element: <Privacy /> },
      { path: SCREENS.terms, element: <Terms /> },
      { path: SCREENS.about, element: <About /> },
      { path: SCREENS.signin, element: <ProviderPage mode="signin" /> },
      { path: SCREENS.signup, element: <ProviderPage mode="signup" /> },
      { path: SCREENS.signinPassword, element: <SigninPassword /> },
      { path: SCREENS.createAccount, element: <CreateAccount /> },
      { path: SCREENS.resetPassword, element: <ForgotPassword /> },
      { path: SCREENS.resetPasswordSent, element: <ResetSent /> },
      { path: SCREENS.resetPasswordConfirm, element: <ResetConfirm /> },
      { path: SCREENS.connectMailbox, element: <ConnectMailbox /> },
      { path: SCREENS.addMailbox, element: <AddMailbox /> },
      { path: '*', element: <NotFound /> },
    ],
  },
  {
    path: SCREENS.genie,
    element: <GenieLayout />,
    children: [
      { index: true, element: <Navigate to={SCREENS.subscriptions} replace /> },
      { path: SCREENS.accounts, element: <Accounts /> },
      { path: SCREENS.addAccount, element: <AddAccount /> },
      { path: SCREENS.billing, element: <Billing /> },
      { path: SCREENS.settings, element: <Settings /> },
      // Unknown categories redirect to /genie/subscriptions inside the page.
      { path: ':category', element: <CategoryPage /> },
      { path: '*', element: <Navigate to={SCREENS.subscriptions} replace /> },
    ],
  },
]);

/** docs/product.md §8: a 403 anywhere means the session is gone: to the sign-in page. */
const queryClient = createQueryClient({
  onSessionLost: () => void router.navigate(SCREENS.signin, { replace: true }),
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ContactProvider>
        <Suspense fallback={<Loading />}>
          <RouterProvider router={router} />
        </Suspense>
      </ContactProvider>
    </QueryClientProvider>
  );
}
