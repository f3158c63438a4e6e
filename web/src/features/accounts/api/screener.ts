import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EmailAccount } from '#contract/api.js';
import { putScreener } from '../../rules';
import { EMAIL_ACCOUNTS_KEY } from './email-accounts';

/** Switches one mailbox's Screener (PUT /screener); the list shows the switch as the server stored it. */
export function useSetScreener() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['screener'],
    mutationFn: ({ email, enabled }: { email: string; enabled: boolean }) => putScreener(email, enabled),
    onSuccess: (answer, { email }) => {
      queryClient.setQueryData<EmailAccount[]>(EMAIL_ACCOUNTS_KEY, (accounts) =>
        accounts?.map((account) =>
          account.email === email ? { ...account, screener: answer.enabled } : account,
        ),
      );
    },
  });
}
