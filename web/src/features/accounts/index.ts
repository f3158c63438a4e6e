// What the other features and the app's shell use of the mailboxes; the rest stays inside.
export { EMAIL_ACCOUNTS_KEY, type EmailAccounts, useEmailAccounts } from './api/email-accounts';

/** The banners of mailboxes in trouble above the lists, loaded only when one is. */
export const loadMailboxProblems = () => import('./account-problem');
