import { useMutation } from '@tanstack/react-query';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/** Deletes the account (DELETE /delete-account). */
export const deleteAccount = () => api.send('DELETE', API.deleteAccount);

/** Deletes the account (and with it everything stored about the user). */
export function useDeleteAccount() {
  return useMutation({ mutationFn: () => deleteAccount() });
}
