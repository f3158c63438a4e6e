import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { CredentialsBody, ForgotPasswordBody, ResetPasswordBody } from '../../../contract/api.js';
import { SCREENS } from '../../../contract/routes.js';
import { MESSAGES, normalizeEmail, validateEmail } from '../../../contract/validation.js';
import type { Mailer } from '../../email/mailer.js';
import { hashToken, randomToken } from '../../lib/crypto.js';
import { badRequest, conflict, unauthorized } from '../../lib/errors.js';
import type { AccountsRepository } from './repository.js';

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
export const RESET_TTL_MS = 3600 * 1000;
/** At most one reset mail per address in this time, however often it is asked for. */
export const RESET_COOLDOWN_MS = 60 * 1000;

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

/** Where a reset mail that could not be prepared or sent is reported (the request's logger). */
export interface ResetMailLog {
  error(details: Record<string, unknown>, message: string): void;
}

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
  // Reset mails being prepared or sent, by address: a second request while one is under way adds none.
  const resetMails = new Map<string, Promise<void>>();
  const endedListeners: Array<(ended: EndedSessions) => void> = [];

  /** Told after the rows are gone, so a connection that tries again is refused. */
  function sessionsEnded(ended: EndedSessions): void {
    for (const listener of endedListeners) listener(ended);
  }

  /**
   * Looks the address up and, unless a link went to it within the cooldown (a row any instance may have
   * written), stores a new token and mails the link. Runs after the answer, so its duration says nothing.
   */
  async function mailResetLink(email: string): Promise<void> {
    const user = await repo.findUserByEmail(email);
    if (!user) return;
    const at = now();
    const last = await repo.latestPasswordResetAt(user.id);
    if (last !== undefined && last > at - RESET_COOLDOWN_MS) return;
    const token = randomToken();
    const tokenHash = hashToken(token);
    await repo.insertPasswordReset({ tokenHash, userId: user.id, now: at, expiresAt: at + RESET_TTL_MS });
    const link = `${publicUrl}${SCREENS.resetPasswordConfirm}?token=${encodeURIComponent(token)}`;
    try {
      await mailer.send({
        to: user.email,
        subject: 'Reset your Inbox Genie password',
        text: [
          'Someone asked to reset the password of your Inbox Genie account.',
          '',
          `Choose a new password here (the link works once, for one hour): ${link}`,
          '',
          'If it was not you, ignore this mail: your password stays as it is.',
        ].join('\n'),
      });
    } catch (error) {
      // A link nobody received must not hold the cooldown: the user may ask again at once.
      await repo.deletePasswordReset(tokenHash);
      throw error;
    }
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

    /** `input` passed the contract's signupBodySchema (the route checked it). */
    async signup(input: CredentialsBody): Promise<NewSession> {
      const email = normalizeEmail(input.email);
      const id = randomUUID();
      const created = await repo.insertUser({
        id,
        email,
        passwordHash: await hash(input.password, ARGON2),
        now: now(),
      });
      if (!created) throw conflict(MESSAGES.emailTaken);
      return startSession(id);
    },

    /** `input` passed the contract's signinBodySchema (the route checked it). */
    async signin(input: CredentialsBody): Promise<NewSession> {
      const user = await repo.findUserByEmail(normalizeEmail(input.email));
      const ok = await verify(user?.password_hash ?? (await dummyHash), input.password);
      if (!user?.password_hash || !ok) throw unauthorized(MESSAGES.wrongCredentials);
      await repo.deleteExpiredSessions(now());
      return startSession(user.id);
    },

    /**
     * Sign-in and sign-up with Google or Microsoft: the user with this address, or a new one without a
     * password. The caller vouches that the provider verified the address; an existing password account
     * with it is the same person's, so it is the one signed in.
     */
    async findOrCreateVerifiedUser(emailInput: string): Promise<{ userId: string; created: boolean }> {
      const email = normalizeEmail(emailInput);
      if (validateEmail(email)) throw badRequest(MESSAGES.invalidEmail);
      const found = await repo.findUserByEmail(email);
      if (found) return { userId: found.id, created: false };
      const id = randomUUID();
      if (await repo.insertUser({ id, email, passwordHash: null, now: now() })) {
        return { userId: id, created: true };
      }
      // Lost a race with a concurrent sign-up of the same address: that account is the one.
      const winner = await repo.findUserByEmail(email);
      if (!winner) throw new Error('A user vanished while signing in');
      return { userId: winner.id, created: false };
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
      if (resetMails.has(email)) return;
      const pending = mailResetLink(email)
        .catch((err: unknown) => log.error({ err }, 'password reset mail could not be sent'))
        .finally(() => resetMails.delete(email));
      resetMails.set(email, pending);
    },

    /** Resolves when every reset mail under way is sent or has failed (before shutting down). */
    async resetMailsSent(): Promise<void> {
      await Promise.all(resetMails.values());
    },

    /** Sets a new password from a reset link and ends every other session of the user. */
    async resetPassword(input: ResetPasswordBody, currentSessionToken?: string): Promise<void> {
      const passwordHash = await hash(input.password, ARGON2);
      const userId = await repo.consumePasswordReset(hashToken(input.token), now());
      if (!userId) throw badRequest(MESSAGES.resetTokenInvalid);
      await repo.setPasswordHash(userId, passwordHash);
      const kept = currentSessionToken ? sessionIdOf(currentSessionToken) : null;
      await repo.deleteOtherSessions(userId, kept);
      sessionsEnded({ userId, exceptSessionId: kept });
    },

    async deleteAccount(userId: string): Promise<void> {
      // A reset mail under way finishes first, so it neither writes a token for a deleted user nor
      // lands in the outbox after the account's mails were removed.
      const user = await repo.findUserById(userId);
      if (user) await resetMails.get(user.email);
      await repo.deleteUser(userId);
      sessionsEnded({ userId, exceptSessionId: null });
      if (user) await afterDelete?.({ id: user.id, email: user.email });
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
