// The account's passkeys (WebAuthn): the list (GET /auth/passkeys), adding one from this browser (the
// server's options, the browser's prompt, its answer checked by the server) and removing one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Passkey, passkeyListSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { USER_KEY } from '../../../lib/query-keys';
import { loadWebAuthn, webauthnOptionsAnswer } from '../../../lib/webauthn';

type CreationOptionsJSON = Parameters<
  Awaited<ReturnType<typeof loadWebAuthn>>['startRegistration']
>[0]['optionsJSON'];

export const getPasskeys = async (): Promise<Passkey[]> =>
  (await api.get(API.passkeys, passkeyListSchema)).data;

/**
 * Registers a passkey of this browser (or of a phone or key it offers) under `name`. The browser's refusal
 * (the prompt closed) is thrown as it came (lib/webauthn.ts isPasskeyCancel).
 */
export async function registerPasskey(name: string | undefined): Promise<void> {
  const [{ startRegistration }, options] = await Promise.all([
    loadWebAuthn(),
    api.post(API.passkeyRegistrationOptions, undefined, webauthnOptionsAnswer),
  ]);
  const response = await startRegistration({ optionsJSON: options as unknown as CreationOptionsJSON });
  await api.send('POST', API.passkeyRegistration, name ? { response, name } : { response });
}

export const removePasskey = (id: string) => api.send('DELETE', API.passkey(id));

export const PASSKEYS_KEY = [...USER_KEY, 'security', 'passkeys'] as const;

export const usePasskeys = () =>
  useQuery({
    queryKey: PASSKEYS_KEY,
    queryFn: getPasskeys,
    meta: { errorMessage: 'Failed to fetch passkeys.' },
  });

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerPasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePasskey,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<Passkey[]>(PASSKEYS_KEY, (list) => list?.filter((p) => p.id !== id));
    },
  });
}
