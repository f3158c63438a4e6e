// What the other features and the app's shell use of sign-in and the account's address; the rest stays
// inside. The public pages' shell imports nothing from here: whatever this entry re-exports joins the
// first page's chunk when that shell does (the session itself is lib/session.ts).
export { AddressBanner } from './address-banner';
export { useEmailStatus } from './api/email-verification';
export { logOut } from './api/log-out';
export { signupReturningTo, takeReturnPath } from './return-path';
