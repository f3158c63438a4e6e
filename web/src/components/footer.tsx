import { Link } from 'react-router';
import { SCREENS } from '#contract/routes.js';
import { ContactLink } from './contact';

/** Site footer (docs/product.md §2 Navigation). */
export function Footer() {
  return (
    <footer className="site-footer border-top py-4 mt-auto">
      <div className="container d-flex flex-column flex-md-row gap-3 justify-content-between align-items-center">
        <nav aria-label="Footer" className="d-flex flex-wrap gap-3 justify-content-center">
          <Link to={SCREENS.privacy}>Privacy Policy</Link>
          <Link to={SCREENS.terms}>Terms of Service</Link>
          <ContactLink>Contact Us</ContactLink>
        </nav>
        <p className="mb-0 text-muted small text-center">
          © {new Date().getFullYear()} Inbox Genie. All Rights Reserved.
        </p>
      </div>
    </footer>
  );
}
