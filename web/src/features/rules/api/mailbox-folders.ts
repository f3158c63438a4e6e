import { useQuery } from '@tanstack/react-query';
import { mailboxFoldersResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { ruleKeys } from './keys';

/** The folders (or labels) of one mailbox (GET /mailbox-folders?email=). */
export const getMailboxFolders = (email: string) =>
  api.get(`${API.mailboxFolders}?${new URLSearchParams({ email })}`, mailboxFoldersResponseSchema);

/** The Organise dialog's folder picker for the sender's mailbox. */
export function useMailboxFolders(email: string) {
  return useQuery({
    queryKey: ruleKeys.folders(email),
    queryFn: async () => (await getMailboxFolders(email)).data,
    // A mailbox that needs signing in again does not take the user away from the open dialog: the
    // picker says it could not list the folders, and Save answers with the server's reason.
    meta: { errorMessage: 'Failed to fetch the mailbox folders...', reauthDialog: true },
  });
}
