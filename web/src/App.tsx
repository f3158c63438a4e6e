// The screens and their routes (SPEC §2). /pricing and /blog arrive with later issues; until then
// they fall through to the not-found screen.
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { SCREENS } from '../../contract/routes.js';
import { ContactProvider, useContact } from './components/contact';
import { SiteLayout } from './components/SiteLayout';
import AddMailbox from './pages/auth/AddMailbox';
import ConnectMailbox from './pages/auth/ConnectMailbox';
import CreateAccount from './pages/auth/CreateAccount';
import ForgotPassword from './pages/auth/ForgotPassword';
import ProviderPage from './pages/auth/ProviderPage';
import ResetConfirm from './pages/auth/ResetConfirm';
import ResetSent from './pages/auth/ResetSent';
import SigninPassword from './pages/auth/SigninPassword';
import Accounts from './pages/genie/Accounts';
import AddAccount from './pages/genie/AddAccount';
import Billing from './pages/genie/Billing';
import CategoryPage from './pages/genie/CategoryPage';
import GenieLayout from './pages/genie/GenieLayout';
import Settings from './pages/genie/Settings';
import About from './pages/marketing/About';
import HowItWorks from './pages/marketing/HowItWorks';
import Landing from './pages/marketing/Landing';
import Privacy from './pages/marketing/Privacy';
import Terms from './pages/marketing/Terms';
import NotFound from './pages/NotFound';
import { SessionProvider } from './session';

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
