import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { SECURITY_MESSAGES } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { AuthCard, ErrorBanner } from '../../components/auth-form';
import { Loading } from '../../components/loading';
import { isStatus, messageOf } from '../../lib/api-client';
import { useGoTo } from '../../lib/navigation';
import { useSession } from '../../lib/session';
import { confirmEmail } from './api/confirm-email';
import { useEmailStatus, useResendVerification } from './api/email-verification';

const FAILED = 'The address could not be confirmed. Please try again.';
/** The expired link's words for a browser that is signed in already: the Resend below is the way on. */
const SIGNED_IN_EXPIRED = 'This confirmation link is invalid or has expired. Ask for a new one here:';
const PASSWORD_NEEDED = 'Enter your Inbox Genie password to confirm this address.';

/**
 * /confirm-email?token=: where the sign-up mail's link leads. Opening it changes nothing (mail scanners
 * follow links); Confirm does, with the account's password unless this browser is signed in to it.
 */
export default function ConfirmEmail() {
  const [params] = useSearchParams();
  const { signedIn } = useSession();
  const token = params.get('token');
  const [expired, setExpired] = useState<string | null>(token ? null : SECURITY_MESSAGES.confirmLinkExpired);
  return (
    <AuthCard title="Confirm your email address">
      {expired !== null || !token ? (
        <LinkExpired signedIn={signedIn === true} message={expired ?? SECURITY_MESSAGES.confirmLinkExpired} />
      ) : signedIn === null ? (
        <Loading />
      ) : (
        <ConfirmForm token={token} signedIn={signedIn} onExpired={setExpired} />
      )}
      <p className="text-body-secondary small mt-3 mb-0">
        If you did not create an Inbox Genie account, ignore this page.
      </p>
    </AuthCard>
  );
}

interface ConfirmFormProps {
  token: string;
  signedIn: boolean;
  /** The server refused the link itself (400): the form gives way to the way to a new one. */
  onExpired: (message: string) => void;
}

function ConfirmForm({ token, signedIn, onExpired }: ConfirmFormProps) {
  const goTo = useGoTo();
  const form = useForm({ defaultValues: { password: '' } });
  // Signed out, the password is asked for at once; signed in, only when the server asks (a 403: this
  // browser's session is not the address's account).
  const [ask, setAsk] = useState<string | null>(signedIn ? null : PASSWORD_NEEDED);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const busy = form.formState.isSubmitting || done;
  const { setFocus } = form;
  useEffect(() => {
    if (ask && signedIn) setFocus('password');
  }, [ask, signedIn, setFocus]);

  const onSubmit = form.handleSubmit(async ({ password }) => {
    if (ask && !password) return setError(PASSWORD_NEEDED);
    setError(null);
    try {
      const { redirectUrl } = await confirmEmail(ask ? { token, password } : { token });
      setDone(true);
      goTo(redirectUrl, { replace: true });
    } catch (failure) {
      if (isStatus(failure, 403) && !ask) setAsk(messageOf(failure, PASSWORD_NEEDED));
      else if (isStatus(failure, 400)) onExpired(messageOf(failure, SECURITY_MESSAGES.confirmLinkExpired));
      else setError(messageOf(failure, FAILED));
    }
  });

  return (
    <Form noValidate onSubmit={(event) => (busy ? event.preventDefault() : onSubmit(event))}>
      <ErrorBanner message={error} />
      {ask ? (
        <>
          <p id="confirm-password-hint">{ask}</p>
          <Form.Group className="mb-3" controlId="confirm-password">
            <Form.Label>Password</Form.Label>
            <Form.Control
              type="password"
              autoComplete="current-password"
              aria-describedby="confirm-password-hint"
              {...form.register('password')}
            />
          </Form.Group>
        </>
      ) : (
        <p>Press Confirm to tell us this address is yours.</p>
      )}
      <Button type="submit" variant="primary" className="w-100" disabled={busy}>
        {busy ? 'Confirming…' : 'Confirm'}
      </Button>
    </Form>
  );
}

/**
 * The link cannot be used (no token, or the server refused it), and the way to a new one: signed in, the
 * Resend the message speaks of (POST /auth/email-verification), or word that the address is confirmed
 * already (a used link); signed out, Sign in first (the call needs the account's session).
 */
function LinkExpired({ signedIn, message }: { signedIn: boolean; message: string }) {
  return (
    <Alert variant="warning" role="alert">
      <p className={signedIn ? undefined : 'mb-0'}>
        {signedIn && message === SECURITY_MESSAGES.confirmLinkExpired ? SIGNED_IN_EXPIRED : message}
        {!signedIn && (
          <>
            {' '}
            <Link to={SCREENS.signinPassword} className="alert-link">
              Sign in
            </Link>
          </>
        )}
      </p>
      {signedIn && <ResendLink />}
    </Alert>
  );
}

const RESEND_FAILED = 'A new link could not be sent. Please try again.';

function ResendLink() {
  const status = useEmailStatus();
  const resend = useResendVerification();
  if (status.data?.emailVerified) {
    return (
      <p className="mb-0">
        Your address {status.data.email} is confirmed already: nothing more to do.{' '}
        <Link to={SCREENS.subscriptions} className="alert-link">
          Go to your subscriptions
        </Link>
      </p>
    );
  }
  return (
    <div className="d-flex flex-wrap align-items-center gap-2">
      <Button
        variant="primary"
        size="sm"
        disabled={resend.isPending || resend.isSuccess}
        onClick={() => resend.mutate()}
      >
        {resend.isPending ? 'Sending…' : 'Resend the link'}
      </Button>
      <span role="status" className="small">
        {resend.isSuccess
          ? `${resend.data.message}${status.data ? ` It goes to ${status.data.email}.` : ''}`
          : resend.isError
            ? messageOf(resend.error, RESEND_FAILED)
            : ''}
      </span>
    </div>
  );
}
