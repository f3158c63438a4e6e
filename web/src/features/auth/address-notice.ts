// What the server's redirects after a confirmation link or a Google/Microsoft sign-in say about the
// account's address, read from the query of the screen they land on (address-banner.tsx). Fixed texts:
// a crafted link can pick one of them, never write one.

export const ADDRESS_NOTICES = {
  verified: 'Thank you: your email address is confirmed.',
  linkExpired: 'This confirmation link is invalid or has expired. Use “Resend” for a new one.',
  secured:
    'Someone had created this account with your address and a password before you signed in. ' +
    'That password no longer works and every other session has been signed out. ' +
    'Check Email Accounts for mailboxes you do not know and remove them.',
} as const;

export type AddressNoticeId = keyof typeof ADDRESS_NOTICES;

/** The notice a landing URL's query asks for, or null. */
export function addressNotice(search: string): AddressNoticeId | null {
  const params = new URLSearchParams(search);
  if (params.get('account') === 'secured') return 'secured';
  const email = params.get('email');
  if (email === 'verified') return 'verified';
  if (email === 'link-expired') return 'linkExpired';
  return null;
}
