// The screens and their routes (docs/product.md §2), each with its browser-tab title (title.ts).
import { QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import {
  BrowserRouter,
  Navigate,
  type NavigateFunction,
  type RouteObject,
  useNavigate,
  useRoutes,
} from 'react-router';
import { NOT_FOUND_TITLE, GENIE_PAGES as PAGES_OF_GENIE, PUBLIC_PAGES } from '#contract/pages.js';
import { SCREENS } from '#contract/routes.js';
import { ContactProvider, useContact } from '../components/contact';
import { Loading } from '../components/Loading';
import { createQueryClient } from '../lib/query-client';
import { RouteTableContext } from '../lib/title';
import { SiteLayout } from './layouts/SiteLayout';

// Each screen is its own chunk; the layouts show Loading while one loads.
/** A screen in its own chunk, loaded when first visited or preloaded (see Preload). */
function page<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return Object.assign(lazy(load), { preload: load });
}

// The signed-in area's shell (sidebar, live updates over socket.io) is a chunk of its own too: the public
// pages never load it.
const GenieLayout = page(() => import('./layouts/SignedInLayout'));
const AddMailbox = page(() => import('../features/accounts/AddMailbox'));
const ConnectMailbox = page(() => import('../features/accounts/ConnectMailbox'));
const Accounts = page(() => import('../features/accounts/Accounts'));
const AddAccount = page(() => import('../features/accounts/AddAccount'));
const CreateAccount = page(() => import('../features/auth/CreateAccount'));
const ForgotPassword = page(() => import('../features/auth/ForgotPassword'));
const ProviderPage = page(() => import('../features/auth/ProviderPage'));
const ResetConfirm = page(() => import('../features/auth/ResetConfirm'));
const ResetSent = page(() => import('../features/auth/ResetSent'));
const SigninPassword = page(() => import('../features/auth/SigninPassword'));
const Billing = page(() => import('../features/billing/Billing'));
// The blog's screens hold the markdown renderer: only they may import react-markdown, so that it stays
// in their chunks.
const BlogList = page(() => import('../features/blog/BlogList'));
const BlogPost = page(() => import('../features/blog/BlogPost'));
const Pricing = page(() => import('../features/billing/Pricing'));
const About = page(() => import('../features/marketing/About'));
const HowItWorks = page(() => import('../features/marketing/HowItWorks'));
const Landing = page(() => import('../features/marketing/Landing'));
const NotFound = page(() => import('../features/marketing/NotFound'));
const Privacy = page(() => import('../features/marketing/Privacy'));
const Terms = page(() => import('../features/marketing/Terms'));
const Settings = page(() => import('../features/settings/Settings'));
const CategoryPage = page(() => import('../features/subscriptions/CategoryPage'));

/** What a visitor does to use a page; any of them starts the background load of the other screens. */
const INTERACTIONS = ['pointermove', 'pointerdown', 'touchstart', 'keydown', 'focusin', 'scroll'] as const;

/**
 * From the visitor's first interaction with the page on, the other screens of its area load in the
 * background: a click then does not wait for a chunk, nor lands keystrokes in the screen being left while
 * the next one loads. Not before: a first visit downloads only what its screen needs (docs/decisions.md,
 * a fast first load), and the pointer moves well before a click.
 */
function Preload({ pages }: { pages: ReadonlyArray<{ preload: () => Promise<unknown> }> }) {
  useEffect(() => {
    const options = { capture: true, passive: true } as const;
    const stop = () => {
      for (const type of INTERACTIONS) window.removeEventListener(type, start, options);
    };
    function start() {
      stop();
      for (const p of pages) void p.preload().catch(() => {});
    }
    for (const type of INTERACTIONS) window.addEventListener(type, start, options);
    return stop;
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
  Pricing,
  // Not BlogPost: the markdown renderer loads only for a visitor who opens a post.
  BlogList,
];
const GENIE_PAGES = [Accounts, AddAccount, Billing, Settings, CategoryPage];

function LandingPage() {
  const openContact = useContact();
  return <Landing onContact={() => openContact()} />;
}

// React Router's declarative mode (BrowserRouter and useRoutes): its data router (loaders, actions,
// fetchers) was 15 KiB of every first load and the app uses none of it (docs/decisions.md, a fast first
// load). The tab titles come from contract/pages.ts,
// the table the server's per-page <title> reads too (title.ts sets them).
const routes: RouteObject[] = [
  {
    element: (
      <>
        <SiteLayout />
        <Preload pages={SITE_PAGES} />
      </>
    ),
    children: [
      { index: true, element: <LandingPage /> },
      { path: SCREENS.pricing, element: <Pricing />, handle: { title: PUBLIC_PAGES.pricing.title } },
      { path: SCREENS.howItWorks, element: <HowItWorks />, handle: { title: PUBLIC_PAGES.howItWorks.title } },
      { path: SCREENS.privacy, element: <Privacy />, handle: { title: PUBLIC_PAGES.privacy.title } },
      { path: SCREENS.terms, element: <Terms />, handle: { title: PUBLIC_PAGES.terms.title } },
      { path: SCREENS.about, element: <About />, handle: { title: PUBLIC_PAGES.about.title } },
      { path: SCREENS.blog, element: <BlogList />, handle: { title: PUBLIC_PAGES.blog.title } },
      // The post's own title replaces the blog's once it has loaded (BlogPost.tsx).
      { path: '/blogDetails/:id', element: <BlogPost />, handle: { title: PUBLIC_PAGES.blog.title } },
      {
        path: SCREENS.signin,
        element: <ProviderPage mode="signin" />,
        handle: { title: PUBLIC_PAGES.signin.title },
      },
      {
        path: SCREENS.signup,
        element: <ProviderPage mode="signup" />,
        handle: { title: PUBLIC_PAGES.signup.title },
      },
      {
        path: SCREENS.signinPassword,
        element: <SigninPassword />,
        handle: { title: PUBLIC_PAGES.signinPassword.title },
      },
      {
        path: SCREENS.createAccount,
        element: <CreateAccount />,
        handle: { title: PUBLIC_PAGES.createAccount.title },
      },
      {
        path: SCREENS.resetPassword,
        element: <ForgotPassword />,
        handle: { title: PUBLIC_PAGES.resetPassword.title },
      },
      {
        path: SCREENS.resetPasswordSent,
        element: <ResetSent />,
        handle: { title: PUBLIC_PAGES.resetPasswordSent.title },
      },
      {
        path: SCREENS.resetPasswordConfirm,
        element: <ResetConfirm />,
        handle: { title: PUBLIC_PAGES.resetPasswordConfirm.title },
      },
      {
        path: SCREENS.connectMailbox,
        element: <ConnectMailbox />,
        handle: { title: PUBLIC_PAGES.connectMailbox.title },
      },
      { path: SCREENS.addMailbox, element: <AddMailbox />, handle: { title: PUBLIC_PAGES.addMailbox.title } },
      { path: '*', element: <NotFound />, handle: { title: NOT_FOUND_TITLE } },
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
      { path: SCREENS.accounts, element: <Accounts />, handle: { title: PAGES_OF_GENIE.accounts.title } },
      {
        path: SCREENS.addAccount,
        element: <AddAccount />,
        handle: { title: PAGES_OF_GENIE.addAccount.title },
      },
      { path: SCREENS.billing, element: <Billing />, handle: { title: PAGES_OF_GENIE.billing.title } },
      { path: SCREENS.settings, element: <Settings />, handle: { title: PAGES_OF_GENIE.settings.title } },
      // Unknown categories redirect to /genie/subscriptions inside the page.
      { path: ':category', element: <CategoryPage />, handle: { title: PAGES_OF_GENIE.subscriptions.title } },
      { path: '*', element: <Navigate to={SCREENS.subscriptions} replace /> },
    ],
  },
];

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
      <ContactProvider>
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
