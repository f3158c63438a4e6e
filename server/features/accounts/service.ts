import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { CredentialsBody, ForgotPasswordBody, ResetPasswordBody } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { MESSAGES, normalizeEmail, validateEmail } from '#contract/validation.js';
import type { Mailer } from '#server/email/mailer.js';
import { hashToken, randomToken } from '#server/lib/crypto.js';
import { InvalidInputError, NotAuthenticatedError, TooManyAttemptsError } from '#server/lib/errors.js';
import { createAccountMails, type ResetMailLog } from './mails.js';
import type { AccountsRepository } from './repository.js';

export { RESET_COOLDOWN_MS, RESET_TTL_MS, type ResetMailLog, VERIFY_TTL_MS } from './mails.js';

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
/** Failed password sign-ins of one address before each further one waits (beside the per-IP limit). */
export const SIGNIN_FREE_FAILURES = 5;
/** The first wait; it doubles with each further failure, up to SIGNIN_MAX_LOCK_MS. */
export const SIGNIN_FIRST_LOCK_MS = 30 * 1000;
export const SIGNIN_MAX_LOCK_MS = 15 * 60 * 1000;
/** Failures older than this are forgotten. */
export const SIGNIN_FAILURE_WINDOW_MS = 3600 * 1000;

// Argon2id (the library's default algorithm) with OWASP's minimum: 19 MiB, 2 passes.
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface NewSession {
  token: string;
  userId: string;
  redirectUrl: string;
}

/**
 * Sessions that just ended, for whoever holds connections opened with them (live sockets): one session
 * (logout), or every session of a user but the one kept (password reset; account deletion keeps none).
 * Ids are session ids as stored (the hash of the cookie's token, see `sessionIdOf`).
 */
export type EndedSessions = { sessionId: string } | { userId: string; exceptSessionId: string | null };

/** The stored id of the session a cookie's token opens. */
export const sessionIdOf = (token: string): string => hashToken(token);

export interface AccountsDeps {
  repo: AccountsRepository;
  mailer: Mailer;
  publicUrl: string;
  now?: () => number;
  /** Runs once an account is deleted: what is kept outside its rows (outbox mail, the SQLite WAL). */
  afterDelete?: (user: { id: string; email: string }) => Promise<void>;
}

// Callers outside accounts (mailboxes, OAuth) import it from here; the rule itself is in the contract.
export { normalizeEmail };

export function createAccountsService({
  repo,
  mailer,
  publicUrl,
  now = Date.now,
  afterDelete,
}: AccountsDeps) {
  // A hash to verify against when the email is unknown, so both answers take the same time.
  const dummyHash = hash('not a real password', ARGON2);
  const mails = createAccountMails({ repo, mailer, publicUrl, now });
  const endedListeners: Array<(ended: EndedSessions) => void> = [];

  /** Told after the rows are gone, so a connection that tries again is refused. */
  function sessionsEnded(ended: EndedSessions): void {
    for (const listener of endedListeners) listener(ended);
  }

  const throttleKey = (email: string) => hashToken(`signin:${email}`);

  /** 429 while the address's backoff runs: known and unknown addresses alike (the key is the address). */
  async function checkSigninLock(key: string): Promise<void> {
    const row = await repo.signinFailures(key);
    if (row && row.lockedUntil > now()) throw new TooManyAttemptsError(MESSAGES.tooManySignins);
  }

  async function recordSigninFailure(key: string): Promise<void> {
    const at = now();
    const row = await repo.signinFailures(key);
    const failures = (row && row.lastAt > at - SIGNIN_FAILURE_WINDOW_MS ? row.failures : 0) + 1;
    const over = failures - SIGNIN_FREE_FAILURES;
    const lockedUntil =
      over >= 0 ? at + Math.min(SIGNIN_FIRST_LOCK_MS * 2 ** Math.min(over, 20), SIGNIN_MAX_LOCK_MS) : 0;
    await repo.saveSigninFailures(key, { failures, lastAt: at, lockedUntil });
  }

  async function redirectFor(userId: string): Promise<string> {
    return (await repo.countMailboxes(userId)) > 0 ? SCREENS.subscriptions : SCREENS.connectMailbox;
  }

  async function startSession(userId: string): Promise<NewSession> {
    const token = randomToken();
    const at = now();
    await repo.insertSession({ id: hashToken(token), userId, now: at, expiresAt: at + SESSION_TTL_MS });
    return { token, userId, redirectUrl: await redirectFor(userId) };
  }

  return {
    /** Registers who must let go of connections when sessions end (live/). */
    onSessionsEnded(listener: (ended: EndedSessions) => void): void {
      endedListeners.push(listener);
    },

    /**
     * `input` passed the contract's signupBodySchema (the route checked it). A new address gets its account,
     * a session and a link that proves the address. An address that has an account is answered the same way
     * (a cookie that opens nothing, the same redirect), and its owner is mailed instead: the answer does
     * not tell a visitor which addresses have accounts.
     */
    async signup(input: CredentialsBody, log: ResetMailLog): Promise<NewSession> {
      const email = normalizeEmail(input.email);
      const id = randomUUID();
      const created = await repo.insertUser({
        id,
        email,
        passwordHash: await hash(input.password, ARGON2),
        emailVerified: false,
        now: now(),
      });
      if (!created) {
        mails.sendSignupAttempt(email, log);
        return { token: randomToken(), userId: '', redirectUrl: SCREENS.connectMailbox };
      }
      mails.sendVerificationLink({ id, email }, log);
      return startSession(id);
    },

    /** `input` passed the contract's signinBodySchema (the route checked it). */
    async signin(input: CredentialsBody): Promise<NewSession> {
      const email = normalizeEmail(input.email);
      const key = throttleKey(email);
      await checkSigninLock(key);
      const user = await repo.findUserByEmail(email);
      const ok = await verify(user?.passwordHash ?? (await dummyHash), input.password);
      if (!user?.passwordHash || !ok) {
        await recordSigninFailure(key);
        throw new NotAuthenticatedError(MESSAGES.wrongCredentials);
      }
      await repo.clearSigninFailures(key);
      await repo.deleteExpiredSessions(now());
      return startSession(user.id);
    },

    /**
     * Sign-in and sign-up with Google or Microsoft: the user with this address, or a new one without a
     * password. The caller vouches that the provider verified the address. An existing account whose
     * address was proven is the same person's and is signed in. One whose address was never proven may
     * have been made by someone else before its owner arrived: the owner takes it over (its password,
     * sessions and links end) and `tookOver` says so, for the screen to tell them.
     */
    async findOrCreateVerifiedUser(
      emailInput: string,
    ): Promise<{ userId: string; created: boolean; tookOver: boolean }> {
      const email = normalizeEmail(emailInput);
      if (validateEmail(email)) throw new InvalidInputError(MESSAGES.invalidEmail);
      const found = await repo.findUserByEmail(email);
      if (found) {
        if (found.emailVerified) return { userId: found.id, created: false, tookOver: false };
        const tookOver = await repo.takeOverUnverified(found.id);
        if (tookOver) sessionsEnded({ userId: found.id, exceptSessionId: null });
        return { userId: found.id, created: false, tookOver };
      }
      const id = randomUUID();
      if (await repo.insertUser({ id, email, passwordHash: null, emailVerified: true, now: now() })) {
        return { userId: id, created: true, tookOver: false };
      }
      // Lost a race with a concurrent sign-up of the same address: that account is the one, taken over
      // if a password sign-up made it.
      const winner = await repo.findUserByEmail(email);
      if (!winner) throw new Error('A user vanished while signing in');
      const tookOver = !winner.emailVerified && (await repo.takeOverUnverified(winner.id));
      if (tookOver) sessionsEnded({ userId: winner.id, exceptSessionId: null });
      return { userId: winner.id, created: false, tookOver };
    },

    /** Whether the user's address is proven (the signed-in banner asks). */
    async emailStatus(userId: string): Promise<{ email: string; emailVerified: boolean }> {
      const user = await repo.findUserById(userId);
      if (!user) throw new NotAuthenticatedError(MESSAGES.notSignedIn);
      return { email: user.email, emailVerified: user.emailVerified };
    },

    /** "Resend": a new verification link, unless the address is proven or a link went out a minute ago. */
    async resendVerification(userId: string, log: ResetMailLog): Promise<void> {
      const user = await repo.findUserById(userId);
      if (!user || user.emailVerified) return;
      mails.sendVerificationLink(user, log);
    },

    /** Opens a verification link: the user whose address it proved, or undefined for a dead link. */
    async verifyEmail(token: string): Promise<string | undefined> {
      if (!token || token.length > 200) return undefined;
      return repo.consumeEmailVerification(hashToken(token), now());
    },

    /** A mailbox at the user's own address logged in with working credentials: the address is proven. */
    async mailboxProven(userId: string, mailboxEmail: string): Promise<void> {
      await repo.markVerifiedIfOwnAddress(userId, normalizeEmail(mailboxEmail));
    },

    /** A new session for a user who proved who they are some other way (OAuth). */
    async openSession(userId: string): Promise<NewSession> {
      await repo.deleteExpiredSessions(now());
      return startSession(userId);
    },

    async sessionUser(token: string | undefined) {
      if (!token) return undefined;
      return repo.findSessionUser(hashToken(token), now());
    },

    async logout(token: string | undefined): Promise<void> {
      if (!token) return;
      const sessionId = sessionIdOf(token);
      await repo.deleteSession(sessionId);
      sessionsEnded({ sessionId });
    },

    /**
     * Queues a one-hour, single-use link to the address and returns at once: known and unknown addresses
     * take the same path before the answer. Whatever goes wrong later is logged, never answered.
     */
    forgotPassword(input: ForgotPasswordBody, log: ResetMailLog): void {
      const email = normalizeEmail(input.email);
      mails.sendResetLink(email, log);
    },

    /** Resolves when every mail under way (resets, verifications, sign-up notices) is sent or has failed (before shutting down). */
    async resetMailsSent(): Promise<void> {
      await mails.allSent();
    },

    /** Sets a new password from a reset link and ends every other session of the user. */
    async resetPassword(input: ResetPasswordBody, currentSessionToken?: string): Promise<void> {
      const passwordHash = await hash(input.password, ARGON2);
      const userId = await repo.consumePasswordReset(hashToken(input.token), now());
      if (!userId) throw new InvalidInputError(MESSAGES.resetTokenInvalid);
      await repo.setPasswordHash(userId, passwordHash);
      const kept = currentSessionToken ? sessionIdOf(currentSessionToken) : null;
      await repo.deleteOtherSessions(userId, kept);
      sessionsEnded({ userId, exceptSessionId: kept });
    },

    async deleteAccount(userId: string): Promise<void> {
      // A reset mail under way finishes first, so it neither writes a token for a deleted user nor
      // lands in the outbox after the account's mails were removed.
      const user = await repo.findUserById(userId);
      if (user) await mails.sentTo(user.email);
      await repo.deleteUser(userId);
      if (user) await repo.clearSigninFailures(throttleKey(user.email));
      sessionsEnded({ userId, exceptSessionId: null });
      if (user) await afterDelete?.({ id: user.id, email: user.email });
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
