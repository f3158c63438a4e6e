// The code of a second step (docs/decisions/091-second-factors-passkeys-and-sessions.md): six digits from an
// authenticator app (RFC 6238), or one of the account's recovery codes (letters and digits, often written
// with dashes). What a visitor types or pastes is normalised before it is sent: spaces and dashes go, so
// "123 456" and "ABCDE-12345" arrive as the server reads them. The server judges the code itself.
import { SECURITY_MESSAGES } from '#contract/api.js';

/** The sentence that asks for a code, wherever one is asked for. */
export const CODE_REQUEST = 'Enter the 6-digit code from your authenticator app, or a recovery code.';

/** The longest code the contract accepts (contract/api/security.ts codeSchema). */
const MAX_CODE_LENGTH = 40;

/** The code as sent: without spaces (of any kind) and dashes. */
export function normaliseCode(raw: string): string {
  return raw.replace(/[\s\u2010-\u2015-]/g, '');
}

export type CodeKind = 'totp' | 'recovery';

/**
 * What the typed code looks like: six digits (an app's code), a run of 8 to 20 letters and digits (a
 * recovery code: ten of them, in two groups of five as shown), or neither (null).
 */
export function codeKind(raw: string): CodeKind | null {
  const code = normaliseCode(raw);
  if (/^\d{6}$/.test(code)) return 'totp';
  if (/^[A-Za-z0-9]{8,20}$/.test(code)) return 'recovery';
  return null;
}

/**
 * The form's message for a code, or null when it may be sent. `appOnly`: only an authenticator app's code
 * will do (turning two-step sign-in on proves the app has the secret).
 */
export function codeProblem(raw: string, { appOnly = false } = {}): string | null {
  const code = normaliseCode(raw);
  if (!code || code.length > MAX_CODE_LENGTH) return SECURITY_MESSAGES.codeRequired;
  const kind = codeKind(code);
  if (kind === 'totp' || (kind === 'recovery' && !appOnly)) return null;
  return appOnly ? 'Enter the 6-digit code your authenticator app shows.' : SECURITY_MESSAGES.codeRequired;
}
