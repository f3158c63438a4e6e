import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EmailAccount } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from '../../subscriptions';
import { EMAIL_ACCOUNTS_KEY } from './email-accounts';

/** Removes a mailbox and what was found in it (DELETE /delete-email-account). */
export const deleteEmailAccount = (email: string) => api.send('DELETE', API.deleteEmailAccount, { email });

/** Removes a mailbox; it leaves the list once the server confirmed. */
export function useRemoveEmailAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => deleteEmailAccount(email),
    onSuccess: (_answer, email) => {
      queryClient.setQueryData<EmailAccount[]>(EMAIL_ACCOUNTS_KEY, (accounts) =>
        accounts?.filter((account) => account.email !== email),
      );
      // Its subscriptions are gone with it: the lists load afresh when next opened.
      queryClient.removeQueries({ queryKey: subscriptionKeys.lists });
    },
  });
}
