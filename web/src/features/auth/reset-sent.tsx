import { Link, useLocation } from 'react-router';
import { SCREENS } from '#contract/routes.js';
import { AuthCard } from '../../components/auth-form';

/** /reset-password/sent: the same answer whether or not the address has an account. */
export default function ResetSent() {
  const state: unknown = useLocation().state;
  const email =
    typeof state === 'object' && state !== null && 'email' in state && typeof state.email === 'string'
      ? state.email
      : null;

  return (
    <AuthCard title="Check your email">
      <p>
        If an account exists for {email ? <strong>{email}</strong> : 'that address'}, we have sent it a link
        to choose a new password. The link is valid for one hour.
      </p>
      <p className="text-muted small">Nothing arrived? Check your spam folder, or request a new link.</p>
      <div className="d-flex flex-column flex-sm-row gap-2 justify-content-between">
        <Link to={SCREENS.signinPassword}>Back to sign in</Link>
        <Link to={SCREENS.resetPassword}>Send another link</Link>
      </div>
    </AuthCard>
  );
}
