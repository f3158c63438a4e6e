import { Link } from 'react-router';
import { SCREENS } from '#contract/routes.js';

/** Any path no screen claims. */
export default function NotFound() {
  return (
    <div className="container py-5 text-center">
      <p className="display-4 fw-bold text-primary mb-2">404</p>
      <h1 className="h2">Page not found</h1>
      <p className="text-muted">The page you are looking for does not exist or has moved.</p>
      <Link to={SCREENS.home} className="btn btn-primary">
        Go to the home page
      </Link>
    </div>
  );
}
