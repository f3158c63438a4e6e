import { randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import type { RecoveryCodes, TotpSetup, TotpStatus } from '#contract/api/security.js';
import { SECURITY_MESSAGES } from '#contract/api/security.js';
import { hashToken, randomToken, type SecretBox } from '#server/lib/crypto.js';
import { ConflictError, InvalidInputError, NotAuthenticatedError } from '#server/lib/errors.js';
import type { createBackoff } from '../accounts/backoff.js';
import type { SecurityRepository } from './repository.js';

// Two-step sign-in with a time-based one-time password (RFC 6238: SHA-1, 6 digits, 30 s, as every
// authenticator app reads an otpauth:// URL), ten single-use recovery codes, and the sign-ins that wait
// for a code (docs/decisions/091-second-factors-passkeys-and-sessions.md).

const ISSUER = 'Inbox Genie';
const PERIOD_S = 30;
/** A code of the step before or after is taken too (clocks of phones drift). */
const WINDOW = 1;
export const RECOVERY_CODES = 10;
/** How long a sign-in waits for its code. */
export const SECOND_STEP_TTL_MS = 5 * 60 * 1000;

/** Recovery codes: 10 characters of an alphabet without look-alikes, shown as xxxxx-xxxxx. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

export interface TotpDeps {
  repo: SecurityRepository;
  secrets: SecretBox;
  backoff: ReturnType<typeof createBackoff>;
  /** The account's address, for the authenticator app's label. */
  emailOf: (userId: string) => Promise<string>;
  now?: () => number;
}

export function createTotp({ repo, secrets, backoff, emailOf, now = Date.now }: TotpDeps) {
  const totpOf = (secret: string, label = '') =>
    new OTPAuth.TOTP({
      issuer: ISSUER,
      label,
      algorithm: 'SHA1',
      digits: 6,
      period: PERIOD_S,
      secret: OTPAuth.Secret.fromBase32(secret),
    });

  /** The time step a 6-digit code is good for, or null. */
  function stepOf(sealed: string, code: string): number | null {
    if (!/^\d{6}$/.test(code)) return null;
    const timestamp = now();
    const delta = totpOf(secrets.open(sealed)).validate({ token: code, timestamp, window: WINDOW });
    return delta === null ? null : Math.floor(timestamp / 1000 / PERIOD_S) + delta;
  }

  /** Whether `code` is a good TOTP code (used once) or an unspent recovery code of the user. */
  async function codeIsGood(userId: string, code: string): Promise<boolean> {
    const state = await repo.totpState(userId);
    if (!state?.secret) return false;
    const trimmed = code.trim();
    const step = stepOf(state.secret, trimmed.replace(/\s/g, ''));
    if (step !== null) return repo.acceptTotpStep(userId, step);
    const recovery = normalizeRecoveryCode(trimmed);
    if (recovery.length !== 10) return false;
    return repo.spendRecoveryCode(userId, hashToken(`recovery:${recovery}`), now());
  }

  /**
   * Checks a code (TOTP or recovery) under the account's backoff: 5 wrong codes, then each further one
   * waits (429). Answers whether it was good.
   */
  const check = (userId: string, code: string): Promise<boolean> =>
    backoff.attempt(`totp:${userId}`, () => codeIsGood(userId, code));

  return {
    check,

    async status(userId: string): Promise<TotpStatus> {
      const state = await repo.totpState(userId);
      const enabled = Boolean(state?.secret);
      return { enabled, recoveryCodesLeft: enabled ? await repo.recoveryCodesLeft(userId) : 0 };
    },

    /** A new secret waiting for its first good code; replaces one that was never confirmed. */
    async setup(userId: string): Promise<TotpSetup> {
      const state = await repo.totpState(userId);
      if (state?.secret) throw new ConflictError(SECURITY_MESSAGES.totpAlreadyOn);
      const secret = new OTPAuth.Secret({ size: 20 }).base32;
      await repo.setPendingTotp(userId, secrets.seal(secret));
      return { secret, otpauthUrl: totpOf(secret, await emailOf(userId)).toString() };
    },

    /** The first good code turns it on: the recovery codes are answered this once, stored hashed. */
    async enable(userId: string, code: string): Promise<RecoveryCodes> {
      const state = await repo.totpState(userId);
      if (state?.secret) throw new ConflictError(SECURITY_MESSAGES.totpAlreadyOn);
      const pending = state?.pending;
      if (!pending) throw new InvalidInputError(SECURITY_MESSAGES.totpNotSetUp);
      let step: number | null = null;
      await backoff.attempt(`totp:${userId}`, async () => {
        step = stepOf(pending, code.trim());
        return step !== null;
      });
      if (step === null) throw new NotAuthenticatedError(SECURITY_MESSAGES.wrongCode);
      const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
      const hashes = codes.map((c) => hashToken(`recovery:${normalizeRecoveryCode(c)}`));
      if (!(await repo.enableTotp(userId, pending, step, hashes))) {
        throw new InvalidInputError(SECURITY_MESSAGES.totpNotSetUp);
      }
      return { recoveryCodes: codes };
    },

    /** Turning it off takes a code too: a session left open must not remove the second factor. */
    async disable(userId: string, code: string): Promise<void> {
      const state = await repo.totpState(userId);
      if (!state?.secret) throw new InvalidInputError(SECURITY_MESSAGES.totpOff);
      if (!(await check(userId, code))) throw new NotAuthenticatedError(SECURITY_MESSAGES.wrongCode);
      await repo.disableTotp(userId);
    },

    /** A sign-in whose first proof passed waits for its code: the token for the browser's cookie. */
    async beginSecondStep(userId: string): Promise<string> {
      const token = randomToken();
      const at = now();
      await repo.insertSigninChallenge({
        id: hashToken(token),
        userId,
        now: at,
        expiresAt: at + SECOND_STEP_TTL_MS,
      });
      return token;
    },

    /** The second step with its code: answers the user to sign in, once. */
    async completeSecondStep(token: string | undefined, code: string): Promise<string> {
      const id = token ? hashToken(token) : '';
      const userId = token ? await repo.signinChallengeUser(id, now()) : undefined;
      if (!userId) throw new NotAuthenticatedError(SECURITY_MESSAGES.signinExpired);
      if (!(await check(userId, code))) throw new NotAuthenticatedError(SECURITY_MESSAGES.wrongCode);
      if (!(await repo.spendSigninChallenge(id))) {
        throw new NotAuthenticatedError(SECURITY_MESSAGES.signinExpired);
      }
      return userId;
    },
  };
}

export type Totp = ReturnType<typeof createTotp>;
