import { useEffect, useState } from 'react';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { Link, NavLink, useLocation } from 'react-router';
import { SCREENS } from '../../../contract/routes.js';
import { useSession } from '../features/auth/session';
import { ContactLink } from './contact';

/** Site nav bar (docs/product.md §2 Navigation). */
export function NavBar() {
  const { signedIn } = useSession();
  const { pathname } = useLocation();
  const [expanded, setExpanded] = useState(false);

  // On small screens the menu folds away again once a link is followed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => setExpanded(false), [pathname]);

  return (
    <Navbar expand="lg" bg="white" className="border-bottom" expanded={expanded} onToggle={setExpanded}>
      <Container>
        <Navbar.Brand as={Link} to={SCREENS.home} className="fw-bold text-primary">
          Inbox Genie
        </Navbar.Brand>
        <Navbar.Toggle aria-controls="site-nav" />
        <Navbar.Collapse id="site-nav">
          <Nav className="ms-auto align-items-lg-center gap-lg-2">
            <Nav.Link as={NavLink} to={SCREENS.blog}>
              Blog
            </Nav.Link>
            <Nav.Link as={NavLink} to={SCREENS.pricing}>
              Pricing
            </Nav.Link>
            <Nav.Link as={NavLink} to={SCREENS.howItWorks}>
              How it Works
            </Nav.Link>
            <ContactLink className="nav-link">Contact Us</ContactLink>
            {signedIn === true && (
              <Link to={SCREENS.subscriptions} className="btn btn-primary px-3 my-2 my-lg-0">
                Dashboard
              </Link>
            )}
            {signedIn === false && (
              <>
                <Nav.Link as={NavLink} to={SCREENS.signin}>
                  Sign In
                </Nav.Link>
                <Link to={SCREENS.signup} className="btn btn-primary px-3 my-2 my-lg-0">
                  Sign Up
                </Link>
              </>
            )}
          </Nav>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
