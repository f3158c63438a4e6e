// Two-step sign-in (TOTP, RFC 6238) of the signed-in account: its state (GET /auth/totp), a new secret to
// enter in an authenticator app (POST /auth/totp/setup), turning it on with the app's first code (POST
// /auth/totp/enable → ten recovery codes, shown once) and off with a code (DELETE /auth/totp {code}).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { recoveryCodesSchema, totpSetupSchema, totpStatusSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { USER_KEY } from '../../../lib/query-keys';

export const getTotpStatus = () => api.get(API.totp, totpStatusSchema);
export const setUpTotp = () => api.post(API.totpSetup, undefined, totpSetupSchema);
export const enableTotp = (code: string) => api.post(API.totpEnable, { code }, recoveryCodesSchema);
export const disableTotp = (code: string) => api.send('DELETE', API.totp, { code });

export const TOTP_KEY = [...USER_KEY, 'security', 'totp'] as const;

export const useTotpStatus = () =>
  useQuery({
    queryKey: TOTP_KEY,
    queryFn: getTotpStatus,
    meta: { errorMessage: 'Failed to fetch the two-step sign-in state.' },
  });

export const useSetUpTotp = () => useMutation({ mutationFn: setUpTotp });

/** Turns two-step sign-in on; the state is read again (the screen keeps the codes it answered). */
export function useEnableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOTP_KEY }),
  });
}

export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOTP_KEY }),
  });
}
