import { useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The sign-in screens' line after a confirmation link was followed while signed out
 * (`?email=verified`, the server's redirect): a fixed text, so a crafted link can only show this one.
 */
export function SigninNotice() {
  const [params] = useSearchParams();
  const [closed, setClosed] = useState(false);
  if (closed || params.get('email') !== 'verified') return null;
  return (
    <div className="alert alert-success alert-dismissible" role="status">
      Your address is confirmed. Please sign in.
      <button type="button" className="btn-close" aria-label="Close alert" onClick={() => setClosed(true)} />
    </div>
  );
}
