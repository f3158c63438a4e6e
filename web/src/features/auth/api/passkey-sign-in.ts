import { authResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { loadWebAuthn, webauthnOptionsAnswer } from '../../../lib/webauthn';

type RequestOptionsJSON = Parameters<
  Awaited<ReturnType<typeof loadWebAuthn>>['startAuthentication']
>[0]['optionsJSON'];

/**
 * Signs in with a passkey, no address typed: the server's challenge (POST
 * /auth/passkeys/authentication-options), the browser's prompt, and its answer checked by the server
 * (POST /auth/passkeys/authentication) → where to go next. The browser's refusal (the prompt closed) is
 * thrown as it came (lib/webauthn.ts isPasskeyCancel).
 */
export async function signInWithPasskey(): Promise<{ redirectUrl: string }> {
  const [{ startAuthentication }, options] = await Promise.all([
    loadWebAuthn(),
    api.post(API.passkeyAuthenticationOptions, undefined, webauthnOptionsAnswer),
  ]);
  const response = await startAuthentication({ optionsJSON: options as unknown as RequestOptionsJSON });
  return api.post(API.passkeyAuthentication, { response }, authResponseSchema);
}
