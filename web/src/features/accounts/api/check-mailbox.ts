import { useMutation, useQueryClient } from '@tanstack/react-query';
import { checkMailboxResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { EMAIL_ACCOUNTS_KEY } from './email-accounts';

/**
 * "Check now" (POST /mailboxes/check): the mailbox's check is queued; its result reaches the accounts
 * through the live events, and the accounts are read again at once so the row shows it is scanning.
 */
export function useCheckMailbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api.post(API.checkMailbox, { email }, checkMailboxResponseSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: EMAIL_ACCOUNTS_KEY }),
  });
}
