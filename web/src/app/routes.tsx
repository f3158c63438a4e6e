// The screens and their routes (docs/product.md §2), built from the screens table of contract/pages.ts (the
// table the server's per-page <title> reads too): each page there names its screen here, and its title
// becomes the route's `handle.title` (lib/title.ts sets the browser tab's).
import { type ComponentType, lazy, type ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { NOT_FOUND_TITLE, type PageInfo, PUBLIC_PAGES, SIGNED_IN_PAGES } from '#contract/pages.js';
import { SCREENS } from '#contract/routes.js';
import { useContact } from '../components/contact';
import { SiteLayout } from './layouts/site-layout';
import { Preload } from './preload';

/** The pages of the signed-in area (under /genie), by their name in contract/pages.ts. */

/** A screen in its own chunk, loaded when first visited or preloaded (see Preload). */
function page<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return Object.assign(lazy(load), { preload: load });
}

// Each screen is its own chunk; the layouts show Loading while one loads. The signed-in area's shell
// (sidebar, live updates over socket.io) is a chunk of its own too: the public pages never load it.
const SignedInLayout = page(() => import('./layouts/signed-in-layout'));
const AddMailbox = page(() => import('../features/accounts/add-mailbox'));
const ConnectMailbox = page(() => import('../features/accounts/connect-mailbox'));
const Accounts = page(() => import('../features/accounts/accounts'));
const AddAccount = page(() => import('../features/accounts/add-account'));
const ConfirmEmail = page(() => import('../features/auth/confirm-email'));
const CreateAccount = page(() => import('../features/auth/create-account'));
const ForgotPassword = page(() => import('../features/auth/forgot-password'));
const ProviderPage = page(() => import('../features/auth/provider-page'));
const ResetConfirm = page(() => import('../features/auth/reset-confirm'));
const ResetSent = page(() => import('../features/auth/reset-sent'));
const SigninCode = page(() => import('../features/auth/signin-code'));
const SigninPassword = page(() => import('../features/auth/signin-password'));
const Billing = page(() => import('../features/billing/billing'));
// The blog's screens hold the markdown renderer: only they may import react-markdown, so that it stays
// in their chunks.
const BlogList = page(() => import('../features/blog/blog-list'));
const BlogPost = page(() => import('../features/blog/blog-post'));
const Pricing = page(() => import('../features/billing/pricing'));
const About = page(() => import('../features/marketing/about'));
const HowItWorks = page(() => import('../features/marketing/how-it-works'));
const Landing = page(() => import('../features/marketing/landing'));
const NotFound = page(() => import('../components/not-found'));
const Privacy = page(() => import('../features/marketing/privacy'));
const Terms = page(() => import('../features/marketing/terms'));
const Rules = page(() => import('../features/rules/rules-screen'));
const Insights = page(() => import('../features/insights/insights'));
const Activity = page(() => import('../features/activity/activity-screen'));
const Settings = page(() => import('../features/settings/settings'));
const CategoryPage = page(() => import('../features/subscriptions/list/category-page'));

const SITE_PAGES = [
  AddMailbox,
  ConnectMailbox,
  CreateAccount,
  ForgotPassword,
  ProviderPage,
  ResetConfirm,
  ResetSent,
  SigninPassword,
  SigninCode,
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
const SIGNED_IN_AREA_PAGES = [
  Accounts,
  AddAccount,
  Billing,
  Settings,
  CategoryPage,
  Rules,
  Insights,
  Activity,
];

function LandingPage() {
  const openContact = useContact();
  return <Landing onContact={() => openContact()} />;
}

/** The screen of every public page of contract/pages.ts. */
const PUBLIC_SCREENS: Record<keyof typeof PUBLIC_PAGES, ReactNode> = {
  home: <LandingPage />,
  pricing: <Pricing />,
  howItWorks: <HowItWorks />,
  about: <About />,
  blog: <BlogList />,
  privacy: <Privacy />,
  terms: <Terms />,
  signin: <ProviderPage mode="signin" />,
  signup: <ProviderPage mode="signup" />,
  signinPassword: <SigninPassword />,
  createAccount: <CreateAccount />,
  resetPassword: <ForgotPassword />,
  resetPasswordSent: <ResetSent />,
  resetPasswordConfirm: <ResetConfirm />,
  confirmEmail: <ConfirmEmail />,
  signinTotp: <SigninCode />,
  connectMailbox: <ConnectMailbox />,
  addMailbox: <AddMailbox />,
};

/** The screen of every page of the signed-in area; the subscription lists are routed by category below. */
const SIGNED_IN_SCREENS: Record<Exclude<keyof typeof SIGNED_IN_PAGES, 'subscriptions'>, ReactNode> = {
  accounts: <Accounts />,
  addAccount: <AddAccount />,
  billing: <Billing />,
  settings: <Settings />,
  rules: <Rules />,
  insights: <Insights />,
  activity: <Activity />,
};

/** One route per page of the table, at its path and with its title. */
function routesOf<Name extends string>(
  pages: Record<Name, Pick<PageInfo, 'path' | 'title'>>,
  screens: Partial<Record<Name, ReactNode>>,
): RouteObject[] {
  return (Object.keys(screens) as Name[]).map((name) => {
    const { path, title } = pages[name];
    const handle = { title };
    return path === SCREENS.home
      ? { index: true, element: screens[name], handle }
      : { path, element: screens[name], handle };
  });
}

// React Router's declarative mode (BrowserRouter and useRoutes): its data router (loaders, actions,
// fetchers) would weigh on every first load and the app uses none of it (docs/decisions/044-fast-first-load.md).
export const routes: RouteObject[] = [
  {
    element: (
      <>
        <SiteLayout />
        <Preload pages={SITE_PAGES} />
      </>
    ),
    children: [
      ...routesOf(PUBLIC_PAGES, PUBLIC_SCREENS),
      // The post's own title replaces the blog's once it has loaded (blog-post.tsx).
      { path: '/blogDetails/:id', element: <BlogPost />, handle: { title: PUBLIC_PAGES.blog.title } },
      { path: '*', element: <NotFound />, handle: { title: NOT_FOUND_TITLE } },
    ],
  },
  {
    path: SCREENS.signedInArea,
    element: (
      <>
        <SignedInLayout />
        <Preload pages={SIGNED_IN_AREA_PAGES} />
      </>
    ),
    children: [
      { index: true, element: <Navigate to={SCREENS.subscriptions} replace /> },
      ...routesOf(SIGNED_IN_PAGES, SIGNED_IN_SCREENS),
      // Unknown categories redirect to /genie/subscriptions inside the page.
      {
        path: ':category',
        element: <CategoryPage />,
        handle: { title: SIGNED_IN_PAGES.subscriptions.title },
      },
      { path: '*', element: <Navigate to={SCREENS.subscriptions} replace /> },
    ],
  },
];
