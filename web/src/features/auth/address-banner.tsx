import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ADDRESS_NOTICES, type AddressNoticeId, addressNotice } from './address-notice';
import { EMAIL_STATUS_KEY, useEmailStatus, useResendVerification } from './api/email-verification';

/**
 * The signed-in area's line about the account's address (docs/decisions/056-proven-addresses-and-takeover.md): what a
 * link or a sign-in that just happened did (`?email=…`, `?account=secured`, read once and removed from
 * the address bar), and, while the address is not proven, a quiet reminder with "Resend".
 */
export function AddressBanner() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<AddressNoticeId | null>(null);
  const status = useEmailStatus();
  const resend = useResendVerification();

  const arriving = addressNotice(location.search);
  useEffect(() => {
    if (!arriving) return;
    setNotice(arriving);
    const params = new URLSearchParams(location.search);
    params.delete('email');
    params.delete('account');
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true },
    );
    void queryClient.invalidateQueries({ queryKey: EMAIL_STATUS_KEY });
  }, [arriving, location.pathname, location.search, location.hash, navigate, queryClient]);

  const shown = notice ?? arriving;
  const unverified = status.data?.emailVerified === false;
  if (!shown && !unverified) return null;
  return (
    <div className="address-banner">
      {shown && (
        <div
          className={`alert ${shown === 'linkExpired' ? 'alert-warning' : 'alert-success'} alert-dismissible mb-2`}
          role="status"
        >
          {ADDRESS_NOTICES[shown]}
          <button
            type="button"
            className="btn-close"
            aria-label="Close alert"
            onClick={() => setNotice(null)}
          />
        </div>
      )}
      {unverified && shown !== 'verified' && (
        <p className="address-banner-quiet small text-body-secondary mb-2">
          Please confirm your address: we sent a link to <strong>{status.data?.email}</strong>.{' '}
          {resend.isSuccess ? (
            <span role="status">A new link is on its way.</span>
          ) : (
            <button
              type="button"
              className="btn btn-link btn-sm p-0 align-baseline"
              disabled={resend.isPending}
              onClick={() => resend.mutate()}
            >
              Resend
            </button>
          )}
          {resend.isError && <span role="alert"> The link could not be sent. Please try again.</span>}
        </p>
      )}
    </div>
  );
}
