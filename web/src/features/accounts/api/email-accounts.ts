// The connected mailboxes (GET /get-email-accounts) in the query cache, read by the Email Accounts
// screen and the subscription lists (scan state, whether rows name their mailbox).
import { useQuery } from '@tanstack/react-query';
import { type EmailAccount, emailAccountsResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { ALERTS } from '#contract/validation.js';
import { api } from '../../../lib/api-client';
import { USER_KEY } from '../../../lib/query-keys';

/** The user's mailboxes with their scan state (GET /get-email-accounts). */
export const getEmailAccounts = () => api.get(API.emailAccounts, emailAccountsResponseSchema);

export const EMAIL_ACCOUNTS_KEY = [...USER_KEY, 'email-accounts'] as const;

export const emailAccountsQueryOptions = () => ({
  queryKey: EMAIL_ACCOUNTS_KEY,
  queryFn: async () => (await getEmailAccounts()).data,
  meta: { errorMessage: ALERTS.fetchEmailAccountsFailed },
});

export interface EmailAccounts {
  /** null until the first answer, and while the fetch failed (never an empty list for a failure). */
  accounts: EmailAccount[] | null;
  /** The fetch failed and nothing was answered before: the screens show the error with Retry. */
  failed: boolean;
  retry: () => void;
  /** When the shown list was answered (0 before): the scan state compares it with the live events. */
  updatedAt: number;
}

export function useEmailAccounts(): EmailAccounts {
  const query = useQuery(emailAccountsQueryOptions());
  return {
    accounts: query.data ?? null,
    failed: query.isError && query.data === undefined,
    retry: () => void query.refetch(),
    updatedAt: Math.max(query.dataUpdatedAt, query.errorUpdatedAt),
  };
}
