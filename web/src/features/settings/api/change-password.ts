import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ChangePasswordBody, messageResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { SESSIONS_KEY } from './sessions';

/** Replaces the password (POST /account/password); the server signs out every other session. */
export const changePassword = (body: ChangePasswordBody) =>
  api.post(API.changePassword, body, messageResponseSchema);

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    // The sessions list now holds this browser only.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}
