import { forwardRef, useId, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { SCREENS } from '#contract/routes.js';
import { ALERTS } from '#contract/validation.js';
import { ContactLink } from '../../components/contact';
import { errorToast, useToasts } from '../../components/toasts';
import { logOut } from '../../features/auth';
import { useHasSubscription } from '../../features/billing';
import { failureText } from '../../lib/api-client';
import { useSession } from '../../lib/session';

const REVIEW_PATH = '/genie/uncategorized';

const UNSUBSCRIBER_LINKS = [
  { to: REVIEW_PATH, label: 'Subscriptions to Review' },
  { to: '/genie/kept', label: 'Screened Subscriptions' },
  { to: '/genie/unsubscribed', label: 'Unsubscribed' },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) => `sidebar-link${isActive ? ' active' : ''}`;

/**
 * Logout: the session ends on the server, then here, and the sign-in page shows; a failure says why in an
 * error note, with Retry.
 */
function useLogout() {
  const navigate = useNavigate();
  const { signedOut } = useSession();
  const toasts = useToasts();
  return async function logout() {
    try {
      await logOut();
    } catch (error) {
      const text = failureText(ALERTS.logoutFailed, error);
      toasts.show(errorToast(text, () => void logout(), 'logout', error));
      return;
    }
    signedOut();
    navigate(SCREENS.signin);
  };
}

/** docs/product.md §2 Sidebar of the signed-in area. */
export const Sidebar = forwardRef<HTMLElement, { id: string; open: boolean }>(function Sidebar(
  { id, open },
  ref,
) {
  const { pathname } = useLocation();
  const logout = useLogout();
  const hasSubscription = useHasSubscription();
  const [unsubscriberOpen, setUnsubscriberOpen] = useState(true);
  const unsubscriberId = useId();

  return (
    <nav ref={ref} id={id} aria-label="Dashboard" className={`sidebar${open ? ' open' : ''}`}>
      <Link to={SCREENS.home} className="sidebar-brand">
        Inbox Genie
      </Link>
      <ul className="sidebar-menu">
        {hasSubscription === false && (
          <li>
            <NavLink to={SCREENS.pricing} className="sidebar-link sidebar-upgrade">
              Get Full Access
            </NavLink>
          </li>
        )}
        <li>
          <NavLink to={SCREENS.accounts} className={linkClass}>
            Email Accounts
          </NavLink>
        </li>
        <li>
          <button
            type="button"
            className="sidebar-link sidebar-toggle"
            aria-expanded={unsubscriberOpen}
            aria-controls={unsubscriberId}
            onClick={() => setUnsubscriberOpen((value) => !value)}
          >
            Unsubscriber
            <span className="caret" aria-hidden="true" />
          </button>
          <ul id={unsubscriberId} className="sidebar-submenu" hidden={!unsubscriberOpen}>
            {UNSUBSCRIBER_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  className={({ isActive }) =>
                    // /genie/subscriptions shows the same list as Subscriptions to Review.
                    linkClass({
                      isActive: isActive || (link.to === REVIEW_PATH && pathname === SCREENS.subscriptions),
                    })
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </li>
        <li>
          <NavLink to={SCREENS.rules} className={linkClass}>
            Rules
          </NavLink>
        </li>
        <li>
          <NavLink to={SCREENS.activity} className={linkClass}>
            Activity
          </NavLink>
        </li>
        <li>
          <NavLink to={SCREENS.insights} className={linkClass}>
            Insights
          </NavLink>
        </li>
        <li>
          <NavLink to={SCREENS.settings} className={linkClass}>
            Settings
          </NavLink>
        </li>
        <li>
          <NavLink to={SCREENS.billing} className={linkClass}>
            Billing
          </NavLink>
        </li>
        <li>
          <ContactLink className="sidebar-link">Contact Us</ContactLink>
        </li>
        <li>
          <button type="button" className="sidebar-link" onClick={logout}>
            Logout
          </button>
        </li>
      </ul>
      <p className="sidebar-attribution">
        <a href="https://clearbit.com" target="_blank" rel="noopener noreferrer">
          Logos provided by Clearbit
        </a>
      </p>
    </nav>
  );
});
