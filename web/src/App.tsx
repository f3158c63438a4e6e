// The screens and their routes (SPEC §2). /pricing and /blog arrive with later issues; until then
// they fall through to the not-found screen.
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { SCREENS } from '../../contract/routes.js';
import { ContactProvider, useContact } from './components/contact';
import GenieLayout from './components/GenieLayout';
import { SiteLayout } from './components/SiteLayout';
import Accounts from './features/accounts/Accounts';
import AddAccount from './features/accounts/AddAccount';
import AddMailbox from './features/accounts/AddMailbox';
import ConnectMailbox from './features/accounts/ConnectMailbox';
import CreateAccount from './features/auth/CreateAccount';
import ForgotPassword from './features/auth/ForgotPassword';
import ProviderPage from './features/auth/ProviderPage';
import ResetConfirm from './features/auth/ResetConfirm';
import ResetSent from './features/auth/ResetSent';
import SigninPassword from './features/auth/SigninPassword';
import { SessionProvider } from './features/auth/session';
import Billing from './features/billing/Billing';
import About from './features/marketing/About';
import HowItWorks from './features/marketing/HowItWorks';
import Landing from './features/marketing/Landing';
import NotFound from './features/marketing/NotFound';
import Privacy from './features/marketing/Privacy';
import Terms from './features/marketing/Terms';
import Settings from './features/settings/Settings';
import CategoryPage from './features/subscriptions/CategoryPage';

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

export function App() {
  return (
    <SessionProvider>
      <ContactProvider>
        <RouterProvider router={router} />
      </ContactProvider>
    </SessionProvider>
  );
}
