import { z } from 'zod';
import { MESSAGES, validateNewPassword } from '../validation.js';
import { passkeySchema } from './passkey.js';
import { rule } from './rule.js';

// Account security (docs/decisions/091-second-factors-passkeys-and-sessions.md): confirming an address,
// the second factor (TOTP, RFC 6238), passkeys (WebAuthn) and the account's sessions.

export const SECURITY_MESSAGES = {
  confirmNeedsPassword:
    'Enter the password of the account this address was used for. If you did not create an Inbox Genie account, ignore the mail: nothing happens.',
  confirmLinkExpired: 'This confirmation link is invalid or has expired. Sign in and ask for a new one.',
  confirmWrongPassword: 'That is not the password of this account.',
  codeRequired: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  wrongCode: 'That code is not right, or it was used already. Please try again.',
  signinExpired: 'This sign-in has expired. Please sign in again.',
  totpAlreadyOn: 'Two-step sign-in is on already. Turn it off first to set it up again.',
  totpNotSetUp: 'Start the setup again: no secret is waiting to be confirmed.',
  totpOff: 'Two-step sign-in is not on.',
  passkeyFailed: 'This passkey could not be used. Please try again, or sign in another way.',
  passkeyUnknown: 'This passkey is not registered with Inbox Genie. Please sign in another way.',
  passkeyExpired: 'The passkey request expired. Please try again.',
  passkeyNotFound: 'No passkey of yours has this id.',
  sessionNotFound: 'No session of yours has this id.',
  currentPasswordRequired: 'Enter your current password.',
  wrongCurrentPassword: 'That is not your current password. Please try again.',
  /** POST /account/password of an account made with Google or Microsoft (docs/decisions/102-settings-that-say-what-they-do.md). */
  noPasswordToChange:
    'Your account signs in with Google or Microsoft and has no password to change. To add one, sign out and use “Forgot your password?” on the sign-in page: the link goes to your address.',
  tooManyPasswords: 'Too many wrong passwords. Please wait a few minutes and try again.',
  passwordChanged: 'Your password is changed. Every other browser signed in to your account is signed out.',
} as const;

/** A TOTP code (6 digits) or a recovery code (10 letters and digits, dashes and spaces ignored). */
export const codeSchema = z
  .string({ error: SECURITY_MESSAGES.codeRequired })
  .trim()
  .min(1, { error: SECURITY_MESSAGES.codeRequired })
  .max(40, { error: SECURITY_MESSAGES.wrongCode });

export const codeBodySchema = z.object({ code: codeSchema });
export type CodeBody = z.infer<typeof codeBodySchema>;

/** POST /auth/verify-email: the link's token, and the account's password unless a session of it asks. */
export const confirmEmailBodySchema = z.object({
  token: z
    .string({ error: SECURITY_MESSAGES.confirmLinkExpired })
    .max(200, { error: SECURITY_MESSAGES.confirmLinkExpired }),
  password: z.string().max(1024).optional(),
});
export type ConfirmEmailBody = z.infer<typeof confirmEmailBodySchema>;

/** POST /auth/signin: into the account, or a second step first (POST /auth/signin/totp). */
export const signinResponseSchema = z.union([
  z.object({ redirectUrl: z.string() }),
  z.object({ totpRequired: z.literal(true) }),
]);
export type SigninResponse = z.infer<typeof signinResponseSchema>;

/** POST /auth/totp/setup: the secret to enter in an authenticator app, and the same as an otpauth:// URL. */
export const totpSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpSetup = z.infer<typeof totpSetupSchema>;

/** POST /auth/totp/enable: ten single-use recovery codes, shown this once. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** GET /auth/totp: whether two-step sign-in is on, and how many recovery codes are left. */
export const totpStatusSchema = z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number() });
export type TotpStatus = z.infer<typeof totpStatusSchema>;

export { type Passkey, passkeySchema } from './passkey.js';
export const passkeyListSchema = z.object({ data: z.array(passkeySchema) });

/** The browser's answer to navigator.credentials (simplewebauthn's JSON), checked by the server. */
const webauthnResponse = z.record(z.string(), z.unknown());

export const passkeyRegistrationBodySchema = z.object({
  response: webauthnResponse,
  name: z.string().trim().max(60, { error: 'A passkey name has at most 60 characters.' }).optional(),
});
export const passkeyAuthenticationBodySchema = z.object({ response: webauthnResponse });

/** PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON, passed to the browser as they are. */
export const webauthnOptionsSchema = z.record(z.string(), z.unknown());

export const idParamsSchema = z.object({ id: z.string().max(200) });

export const sessionInfoSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export const sessionListSchema = z.object({ data: z.array(sessionInfoSchema) });

/**
 * POST /account/password: the current password and a new one under sign-up's rule. The current one may
 * come empty here: the server says why that fails (an account without a password is told it has none).
 */
export const changePasswordBodySchema = z
  .object({
    currentPassword: z
      .string({ error: SECURITY_MESSAGES.currentPasswordRequired })
      .max(1024, { error: SECURITY_MESSAGES.wrongCurrentPassword }),
    newPassword: z.string({ error: MESSAGES.passwordTooShort }),
  })
  .superRefine((b, ctx) => {
    rule(ctx, 'newPassword', validateNewPassword(b.newPassword));
  });
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;
