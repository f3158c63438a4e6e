// Passkeys (WebAuthn) in this browser. The ceremony itself is @simplewebauthn/browser's, loaded with a
// dynamic import by the screens that start one (a sign-in, adding a passkey), so it is in no first load.
import { z } from 'zod';

/**
 * The server's ceremony options (contract/api/security.ts webauthnOptionsSchema), read as an object with
 * its challenge; the browser checks the rest. Not the contract's z.record: zod's record type would join
 * the zod chunk every signed-in first load fetches (about 1 KiB, e2e/budget.e2e.test.ts).
 */
export const webauthnOptionsAnswer = z.looseObject({ challenge: z.string() });

/** Whether this browser knows WebAuthn at all (the passkey buttons are hidden when not). */
export function passkeysSupported(page: { PublicKeyCredential?: unknown } = globalThis): boolean {
  return typeof page.PublicKeyCredential !== 'undefined';
}

/**
 * Whether a ceremony ended because the visitor closed the browser's prompt (or let it time out, or no
 * passkey was there to pick): the browser says only NotAllowedError or AbortError, which is not a failure
 * worth an error banner. simplewebauthn wraps it in a WebAuthnError named after its cause.
 */
export function isPasskeyCancel(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, cause } = error as { name?: unknown; code?: unknown; cause?: unknown };
  if (name === 'NotAllowedError' || name === 'AbortError') return true;
  if (code === 'ERROR_CEREMONY_ABORTED') return true;
  return cause !== undefined && cause !== error && isPasskeyCancel(cause);
}

/** The ceremonies, loaded when first used. */
export const loadWebAuthn = () => import('@simplewebauthn/browser');
