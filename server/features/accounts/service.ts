import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { SECURITY_MESSAGES } from '#contract/api/security.js';
import type { CredentialsBody, ForgotPasswordBody, ResetPasswordBody } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { MESSAGES, normalizeEmail, validateEmail } from '#contract/validation.js';
import type { Mailer } from '#server/email/mailer.js';
import { hashToken, randomToken } from '#server/lib/crypto.js';
import { ForbiddenError, InvalidInputError, NotAuthenticatedError } from '#server/lib/errors.js';
import { createBackoff } from './backoff.js';
import { browserName } from './browser-name.js';
import { createAccountMails, type ResetMailLog } from './mails.js';
import type { AccountsRepository, User } from './repository.js';

export { RESET_COOLDOWN_MS, RESET_TTL_MS, type ResetMailLog, VERIFY_TTL_MS } from './mails.js';

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
/** A session's last use is written at most this often (every signed-in request reads the session). */
export const SESSION_SEEN_EVERY_MS = 5 * 60 * 1000;
export {
  FAILURE_WINDOW_MS as SIGNIN_FAILURE_WINDOW_MS,
  FIRST_LOCK_MS as SIGNIN_FIRST_LOCK_MS,
  FREE_FAILURES as SIGNIN_FREE_FAILURES,
  MAX_LOCK_MS as SIGNIN_MAX_LOCK_MS,
} from './backoff.js';

// Argon2id (the library's default algorithm) with OWASP's minimum: 19 MiB, 2 passes.
export const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface NewSession {
  token: string;
  userId: string;
  redirectUrl: string;
}

/** A sign-in whose first proof passed and that waits for the second factor (the cookie's token). */
export interface PendingSecondStep {
  secondStep: string;
  userId: string;
}

/** What the browser that signs in says of itself: kept on the session, for the owner's list. */
export interface SessionMeta {
  userAgent?: string | null;
  /** The value of the browser's long-lived device cookie (its hash is stored). */
  device?: string | null;
  /** Where a mail about a new browser's sign-in is reported. */
  log?: ResetMailLog;
}

/** The second factor's half of a sign-in (features/security). */
export interface SecondStepPort {
  /** Stores a sign-in waiting for its code; answers the token for the browser's cookie. */
  begin(userId: string): Promise<string>;
  /** Whether a code (TOTP or recovery) of the user is good, under its backoff (429). */
  check(userId: string, code: string): Promise<boolean>;
}

/**
 * Sessions that just ended, for whoever holds connections opened with them (live sockets): one session
 * (logout), or every session of a user but the one kept (password reset; account deletion keeps none).
 * Ids are session ids as stored (the hash of the cookie's token, see `sessionIdOf`).
 */
export type EndedSessions = { sessionId: string } | { userId: string; exceptSessionId: string | null };

/** The placeholder address of a stand-in account (never mailed; `.invalid` is reserved, RFC 2606). */
const standInEmail = (userId: string) => `${userId}@duplicate-signup.invalid`;

/** The stored id of the session a cookie's token opens. */
export const sessionIdOf = (token: string): string => hashToken(token);

export interface AccountsDeps {
  repo: AccountsRepository;
  mailer: Mailer;
  publicUrl: string;
  now?: () => number;
  /** Runs before an account is deleted (billing keeps what it used of the free trial). */
  beforeDelete?: (userId: string) => Promise<void>;
  /** Runs once an account is deleted: what is kept outside its rows (outbox mail, the SQLite WAL). */
  afterDelete?: (user: { id: string; email: string }) => Promise<void>;
  secondStep?: SecondStepPort;
}

// Callers outside accounts (mailboxes, OAuth) import it from here; the rule itself is in the contract.
export { normalizeEmail };

export function createAccountsService({
  repo,
  mailer,
  publicUrl,
  now = Date.now,
  beforeDelete,
  afterDelete,
  secondStep,
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
  const backoff = createBackoff(repo, now, MESSAGES.tooManySignins);

  async function redirectFor(userId: string): Promise<string> {
    return (await repo.countMailboxes(userId)) > 0 ? SCREENS.subscriptions : SCREENS.connectMailbox;
  }

  /**
   * A new session. A browser the user never signed in from before is remembered, and its owner told by
   * mail (not for the sign-up that made the account: that browser is the first).
   */
  async function startSession(
    user: { id: string; email: string; duplicateSignup?: boolean },
    meta: SessionMeta,
    isNew = false,
  ): Promise<NewSession> {
    const token = randomToken();
    const at = now();
    const device = meta.device ? hashToken(`device:${meta.device}`) : null;
    const userAgent = meta.userAgent ? meta.userAgent.slice(0, 300) : null;
    await repo.insertSession({
      id: hashToken(token),
      userId: user.id,
      now: at,
      expiresAt: at + SESSION_TTL_MS,
      userAgent,
      device,
    });
    const newBrowser = device ? await repo.rememberDevice(user.id, device, at) : true;
    // A stand-in's address belongs to another account's owner: nothing of the stand-in is mailed there.
    if (newBrowser && !isNew && meta.log && !user.duplicateSignup) {
      mails.sendNewSignin(user, browserName(userAgent), meta.log);
    }
    return { token, userId: user.id, redirectUrl: await redirectFor(user.id) };
  }

  /** What every sign-in sweeps first: expired sessions, and the stand-ins they left without one. */
  async function sweep(): Promise<void> {
    await repo.deleteExpiredSessions(now());
    await api.removeUnusedStandIns();
  }

  /** Into the account, or first the second factor when the user turned it on. */
  async function signedIn(user: User, meta: SessionMeta): Promise<NewSession | PendingSecondStep> {
    await sweep();
    if (user.totpOn) {
      if (!secondStep) throw new Error('Two-step sign-in is on but no second step is wired');
      return { secondStep: await secondStep.begin(user.id), userId: user.id };
    }
    return startSession(user, meta);
  }

  const api = {
    /** Registers who must let go of connections when sessions end (live/). */
    onSessionsEnded(listener: (ended: EndedSessions) => void): void {
      endedListeners.push(listener);
    },

    /**
     * `input` passed the contract's signupBodySchema (the route checked it). A new address gets its account,
     * a session and a link that proves the address. An address that has an account is answered the same way
     * (a session of a stand-in account, the same redirect), and its owner is mailed instead: neither the
     * answer nor what that session sees tells a visitor which addresses have accounts.
     */
    async signup(input: CredentialsBody, log: ResetMailLog, meta: SessionMeta = {}): Promise<NewSession> {
      const email = normalizeEmail(input.email);
      const id = randomUUID();
      const passwordHash = await hash(input.password, ARGON2);
      const created = await repo.insertUser({ id, email, passwordHash, emailVerified: false, now: now() });
      if (created) {
        mails.sendVerificationLink({ id, email }, log);
        return startSession({ id, email }, meta, true);
      }
      // The address has an account: its owner is told, and the visitor gets a stand-in account of their
      // own (empty, isolated, never proven), so what the session sees matches a new address's.
      mails.sendSignupAttempt(email, log);
      const standIn = randomUUID();
      await repo.insertUser({
        id: standIn,
        email: standInEmail(standIn),
        passwordHash,
        emailVerified: false,
        now: now(),
        duplicateSignupEmail: email,
      });
      return startSession({ id: standIn, email }, meta, true);
    },

    /**
     * `input` passed the contract's signinBodySchema (the route checked it). The attempt is counted before
     * the password is checked (the per-address backoff); with two-step sign-in on, the answer is the
     * second step instead of a session.
     */
    async signin(input: CredentialsBody, meta: SessionMeta = {}): Promise<NewSession | PendingSecondStep> {
      const email = normalizeEmail(input.email);
      let user: User | undefined;
      const ok = await backoff.attempt(throttleKey(email), async () => {
        user = await repo.findUserByEmail(email);
        const matches = await verify(user?.passwordHash ?? (await dummyHash), input.password);
        return Boolean(user?.passwordHash) && matches;
      });
      if (!ok || !user) throw new NotAuthenticatedError(MESSAGES.wrongCredentials);
      return signedIn(user, meta);
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
      // A stand-in account answers as a new one and mails nothing: its address has an owner.
      if (!user || user.emailVerified || user.duplicateSignup) return;
      mails.sendVerificationLink(user, log);
    },

    /**
     * Proves the address of a verification link, from someone who shows they own the account too: a
     * session of it, or its password (docs/decisions/090-accounts-that-stay-their-owners.md). The link
     * alone proves nothing: a stranger's sign-up mails it to the address's owner, whose click must not
     * hand the stranger the account. Answers the user whose address is now proven.
     */
    async confirmEmail(token: string, proof: { sessionUserId?: string; password?: string }): Promise<string> {
      const tokenHash = hashToken(token);
      const userId = token ? await repo.emailVerificationUser(tokenHash, now()) : undefined;
      if (!userId) throw new InvalidInputError(SECURITY_MESSAGES.confirmLinkExpired);
      if (proof.sessionUserId !== userId) {
        const user = await repo.findUserById(userId);
        if (!user?.passwordHash || !proof.password) {
          throw new ForbiddenError(SECURITY_MESSAGES.confirmNeedsPassword);
        }
        const hashed = user.passwordHash;
        const password = proof.password;
        const ok = await backoff.attempt(throttleKey(user.email), () => verify(hashed, password));
        if (!ok) throw new NotAuthenticatedError(SECURITY_MESSAGES.confirmWrongPassword);
      }
      const confirmed = await repo.consumeEmailVerification(tokenHash, now());
      if (!confirmed) throw new InvalidInputError(SECURITY_MESSAGES.confirmLinkExpired);
      return confirmed;
    },

    /** A mailbox at the user's own address logged in with working credentials: the address is proven. */
    async mailboxProven(userId: string, mailboxEmail: string): Promise<void> {
      await repo.markVerifiedIfOwnAddress(userId, normalizeEmail(mailboxEmail));
    },

    /** Signs in a user Google or Microsoft vouched for: the second factor is asked next when it is on. */
    async openSession(userId: string, meta: SessionMeta = {}): Promise<NewSession | PendingSecondStep> {
      const user = await repo.findUserById(userId);
      if (!user) throw new NotAuthenticatedError(MESSAGES.notSignedIn);
      return signedIn(user, meta);
    },

    /**
     * Signs in a user past the second factor: its code was given (the second step), or a passkey with user
     * verification was used, which is two factors in one (the device and its PIN or biometric).
     */
    async openSessionPastSecondFactor(userId: string, meta: SessionMeta = {}): Promise<NewSession> {
      const user = await repo.findUserById(userId);
      if (!user) throw new NotAuthenticatedError(MESSAGES.notSignedIn);
      await sweep();
      return startSession(user, meta);
    },

    async sessionUser(token: string | undefined) {
      if (!token) return undefined;
      const sessionId = hashToken(token);
      const at = now();
      const user = await repo.findSessionUser(sessionId, at);
      if (user && (user.lastSeenAt === null || user.lastSeenAt < at - SESSION_SEEN_EVERY_MS)) {
        await repo.touchSession(sessionId, at);
      }
      return user;
    },

    async logout(token: string | undefined): Promise<void> {
      if (!token) return;
      const sessionId = sessionIdOf(token);
      const signedIn = await repo.findSessionUser(sessionId, now());
      await repo.deleteSession(sessionId);
      sessionsEnded({ sessionId });
      // A stand-in account goes with its last session.
      const user = signedIn && (await repo.findUserById(signedIn.userId));
      if (user?.duplicateSignup && (await repo.countSessions(user.id)) === 0)
        await api.deleteAccount(user.id);
    },

    /** Ends sessions (Settings → Security) and tells whoever holds connections opened with them. */
    async endSessions(ended: EndedSessions): Promise<void> {
      if ('sessionId' in ended) await repo.deleteSession(ended.sessionId);
      else await repo.deleteOtherSessions(ended.userId, ended.exceptSessionId);
      sessionsEnded(ended);
    },

    /** Stand-in accounts of duplicate sign-ups go with their last session (sign-out, or expiry). */
    async removeUnusedStandIns(): Promise<void> {
      for (const id of await repo.unusedStandIns(now() - 60_000)) await api.deleteAccount(id);
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
      const tokenHash = hashToken(input.token);
      // With two-step sign-in on, the link alone (whoever reads the mailbox) does not replace the
      // password: the second factor is asked too (the 401 says so, for the screen to ask).
      const owner = await repo.passwordResetUser(tokenHash, now());
      if (owner?.totpOn) {
        if (!input.code)
          throw new NotAuthenticatedError(SECURITY_MESSAGES.codeRequired, { totpRequired: true });
        if (!secondStep || !(await secondStep.check(owner.id, input.code))) {
          throw new NotAuthenticatedError(SECURITY_MESSAGES.wrongCode, { totpRequired: true });
        }
      }
      const userId = await repo.consumePasswordReset(tokenHash, now());
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
      // A stand-in's address is someone else's account's: its mails, outbox and backoff are not the
      // stand-in's to clear, so only its placeholder is named.
      const email = user?.duplicateSignup ? standInEmail(user.id) : user?.email;
      if (email) await mails.sentTo(email);
      await beforeDelete?.(userId);
      await repo.deleteUser(userId);
      if (email && !user?.duplicateSignup) await repo.clearSigninFailures(throttleKey(email));
      sessionsEnded({ userId, exceptSessionId: null });
      if (user && email) await afterDelete?.({ id: user.id, email });
    },
  };
  return api;
}

export type AccountsService = ReturnType<typeof createAccountsService>;
