// The screens and their routes (docs/product.md §2). /pricing and /blog arrive with later issues; until then
// they fall through to the not-found screen.
import { QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { SCREENS } from '../../contract/routes.js';
import { createQueryClient } from './api/queryClient';
import { ContactProvider, useContact } from './components/contact';
import GenieLayout from './components/GenieLayout';
import { Loading } from './components/Loading';
import { SiteLayout } from './components/SiteLayout';

// Each screen is its own chunk; the layouts show Loading while one loads.
/** A screen in its own chunk, loaded when first visited or preloaded (see Preload). */
function page<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return Object.assign(lazy(load), { preload: load });
}

const AddMailbox = page(() => import('./features/accounts/AddMailbox'));
const ConnectMailbox = page(() => import('./features/accounts/ConnectMailbox'));
const Accounts = page(() => import('./features/accounts/Accounts'));
const AddAccount = page(() => import('./features/accounts/AddAccount'));
const CreateAccount = page(() => import('./features/auth/CreateAccount'));
const ForgotPassword = page(() => import('./features/auth/ForgotPassword'));
const ProviderPage = page(() => import('./features/auth/ProviderPage'));
const ResetConfirm = page(() => import('./features/auth/ResetConfirm'));
const ResetSent = page(() => import('./features/auth/ResetSent'));
const SigninPassword = page(() => import('./features/auth/SigninPassword'));
const Billing = page(() => import('./features/billing/Billing'));
const About = page(() => import('./features/marketing/About'));
const HowItWorks = page(() => import('./features/marketing/HowItWorks'));
const Landing = page(() => import('./features/marketing/Landing'));
const NotFound = page(() => import('./features/marketing/NotFound'));
const Privacy = page(() => import('./features/marketing/Privacy'));
const Terms = page(() => import('./features/marketing/Terms'));
const Settings = page(() => import('./features/settings/Settings'));
const CategoryPage = page(() => import('./features/subscriptions/CategoryPage'));

/**
 * Once a layout has shown, the other screens of its area load in the background: a click then never
 * waits for a chunk, nor lands keystrokes in the screen being left while the next one loads.
 */
function Preload({ pages }: { pages: ReadonlyArray<{ preload: () => Promise<unknown> }> }) {
  useEffect(() => {
    const timer = setTimeout(() => {
      for (const p of pages) void p.preload().catch(() => {});
    }, 200);
    return () => clearTimeout(timer);
  }, [pages]);
  return null;
}

const SITE_PAGES = [
  AddMailbox,
  ConnectMailbox,
  CreateAccount,
  ForgotPassword,
  ProviderPage,
  ResetConfirm,
  ResetSent,
  SigninPassword,
  About,
  HowItWorks,
  Landing,
  NotFound,
  Privacy,
  Terms,
];
const GENIE_PAGES = [Accounts, AddAccount, Billing, Settings, CategoryPage];

function LandingPage() {
  const openContact = useContact();
  return <Landing onContact={() => openContact()} />;
}

const router = createBrowserRouter([
  {
    element: (
      <>
        <SiteLayout />
        <Preload pages={SITE_PAGES} />
      </>
    ),
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
    element: (
      <>
        <GenieLayout />
        <Preload pages={GENIE_PAGES} />
      </>
    ),
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
