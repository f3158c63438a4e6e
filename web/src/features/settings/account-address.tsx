// Settings' first line: which address the account signs in with, and whether it is confirmed (the link
// mailed at sign-up proves it; the banner above every screen offers to send it again).
import { useEmailStatus } from '../auth';

export function AccountAddress() {
  const status = useEmailStatus();
  if (!status.data) return null;
  const { email, emailVerified } = status.data;
  return (
    <p className="text-break account-address">
      Signed in as <strong>{email}</strong>
      {' · '}
      {emailVerified ? (
        <span className="text-success">Confirmed</span>
      ) : (
        <span className="text-warning-emphasis">Not confirmed yet: open the link we mailed to it</span>
      )}
    </p>
  );
}
