import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { SCREENS } from '#contract/routes.js';
import { ContactLink } from '../../components/contact';
import { useSession } from '../../lib/session';

/** Site nav bar (docs/product.md §2 Navigation). */
export function NavBar() {
  const { signedIn } = useSession();
  const { pathname } = useLocation();
  const [expanded, setExpanded] = useState(false);

  // On small screens the menu folds away again once a link is followed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => setExpanded(false), [pathname]);

  // Bootstrap's navbar markup without react-bootstrap: every page has this bar, and react-bootstrap's
  // Navbar, Nav and Collapse weigh more than the rest of the page's own code (docs/decisions/044-fast-first-load.md). Below the lg breakpoint the toggler shows and hides the links.
  return (
    <nav className="navbar navbar-expand-lg bg-white border-bottom">
      <div className="container">
        <Link to={SCREENS.home} className="navbar-brand fw-bold text-primary">
          Inbox Genie
        </Link>
        <button
          type="button"
          className={`navbar-toggler${expanded ? '' : ' collapsed'}`}
          aria-controls="site-nav"
          aria-expanded={expanded}
          aria-label="Toggle navigation"
          onClick={() => setExpanded((open) => !open)}
        >
          <span className="navbar-toggler-icon" />
        </button>
        <div id="site-nav" className={`navbar-collapse collapse${expanded ? ' show' : ''}`}>
          <div className="navbar-nav ms-auto align-items-lg-center gap-lg-2">
            <NavLink to={SCREENS.blog} className="nav-link">
              Blog
            </NavLink>
            <NavLink to={SCREENS.pricing} className="nav-link">
              Pricing
            </NavLink>
            <NavLink to={SCREENS.howItWorks} className="nav-link">
              How it Works
            </NavLink>
            <ContactLink className="nav-link">Contact Us</ContactLink>
            {signedIn === true && (
              <Link to={SCREENS.subscriptions} className="btn btn-primary px-3 my-2 my-lg-0">
                Dashboard
              </Link>
            )}
            {signedIn === false && (
              <>
                <NavLink to={SCREENS.signin} className="nav-link">
                  Sign In
                </NavLink>
                <Link to={SCREENS.signup} className="btn btn-primary px-3 my-2 my-lg-0">
                  Sign Up
                </Link>
              </>
            )}
          </div>
        </div>
      </div>
    </nav>
  );
}
