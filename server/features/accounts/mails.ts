import { API, SCREENS } from '#contract/routes.js';
import type { Mailer } from '#server/email/mailer.js';
import { hashToken, randomToken } from '#server/lib/crypto.js';
import type { AccountsRepository, User } from './repository.js';

// The mails accounts sends: the reset link, the link that proves an address, and the notice to an
// address's owner that someone tried to sign up with it. Each goes after the answer, so how long a
// request takes says nothing of whether the address has an account.

export const RESET_TTL_MS = 3600 * 1000;
/** At most one reset mail per address in this time, however often it is asked for. */
export const RESET_COOLDOWN_MS = 60 * 1000;
/** A link that proves a password account's address works this long (docs/decisions/056-proven-addresses-and-takeover.md). */
export const VERIFY_TTL_MS = 24 * 3600 * 1000;

/** Where a mail that could not be prepared or sent is reported (the request's logger). */
export interface ResetMailLog {
  error(details: Record<string, unknown>, message: string): void;
}

/** One kind of single-use link: where its tokens are stored, how long they work, and its mail. */
interface LinkKind {
  latestAt(userId: string): Promise<number | undefined>;
  store(link: { tokenHash: string; userId: string; now: number; expiresAt: number }): Promise<void>;
  unstore(tokenHash: string): Promise<void>;
  ttlMs: number;
  url(token: string): string;
  subject: string;
  text(link: string): string[];
}

export function createAccountMails({
  repo,
  mailer,
  publicUrl,
  now,
}: {
  repo: AccountsRepository;
  mailer: Mailer;
  publicUrl: string;
  now: () => number;
}) {
  // Mails being prepared or sent after an answer, by kind and address: a second request while one is
  // under way adds none; shutdown and account deletion wait for them.
  const underWay = new Map<string, Promise<void>>();
  /** When the owner of an address was last told of a sign-up attempt (this process; a cooldown only). */
  const lastSignupNotice = new Map<string, number>();

  /**
   * A single-use link mailed to a user, unless one of its kind went out within the cooldown (a row any
   * instance may have written): a new token is stored (its hash), the mail sent, and the token deleted
   * again when the mail fails, since a link nobody received must not hold the cooldown.
   */
  async function mailLink(user: Pick<User, 'id' | 'email'>, kind: LinkKind): Promise<void> {
    const at = now();
    const last = await kind.latestAt(user.id);
    if (last !== undefined && last > at - RESET_COOLDOWN_MS) return;
    const token = randomToken();
    const tokenHash = hashToken(token);
    await kind.store({ tokenHash, userId: user.id, now: at, expiresAt: at + kind.ttlMs });
    try {
      await mailer.send({
        to: user.email,
        subject: kind.subject,
        text: kind.text(kind.url(token)).join('\n'),
      });
    } catch (error) {
      await kind.unstore(tokenHash);
      throw error;
    }
  }

  async function resetLink(email: string): Promise<void> {
    const user = await repo.findUserByEmail(email);
    if (!user) return;
    await mailLink(user, {
      latestAt: repo.latestPasswordResetAt,
      store: repo.insertPasswordReset,
      unstore: repo.deletePasswordReset,
      ttlMs: RESET_TTL_MS,
      url: (token) => `${publicUrl}${SCREENS.resetPasswordConfirm}?token=${encodeURIComponent(token)}`,
      subject: 'Reset your Inbox Genie password',
      text: (link) => [
        'Someone asked to reset the password of your Inbox Genie account.',
        '',
        `Choose a new password here (the link works once, for one hour): ${link}`,
        '',
        'If it was not you, ignore this mail: your password stays as it is.',
      ],
    });
  }

  function verificationLink(user: Pick<User, 'id' | 'email'>): Promise<void> {
    return mailLink(user, {
      latestAt: repo.latestEmailVerificationAt,
      store: repo.insertEmailVerification,
      unstore: repo.deleteEmailVerification,
      ttlMs: VERIFY_TTL_MS,
      url: (token) => `${publicUrl}${API.verifyEmail}?token=${encodeURIComponent(token)}`,
      subject: 'Confirm your email address for Inbox Genie',
      text: (link) => [
        'Welcome to Inbox Genie. Please confirm that this address is yours:',
        '',
        link,
        '',
        'The link works once, for 24 hours. If you did not create an account, ignore this mail: an',
        'account whose address is not confirmed is handed to whoever proves the address later.',
      ],
    });
  }

  async function signupAttempt(email: string): Promise<void> {
    const user = await repo.findUserByEmail(email);
    if (!user) return;
    const at = now();
    const last = lastSignupNotice.get(email);
    if (last !== undefined && last > at - RESET_COOLDOWN_MS) return;
    lastSignupNotice.set(email, at);
    if (lastSignupNotice.size > 10_000) lastSignupNotice.clear();
    await mailer.send({
      to: user.email,
      subject: 'Someone tried to create an Inbox Genie account with your address',
      text: [
        'Someone tried to create an Inbox Genie account with this address, which already has one.',
        '',
        `If it was you, sign in: ${publicUrl}${SCREENS.signin}`,
        `Forgot your password? Choose a new one: ${publicUrl}${SCREENS.resetPassword}`,
        '',
        'If it was not you, nothing changed: ignore this mail.',
      ].join('\n'),
    });
  }

  /** Runs `task` after the answer; its failure goes to the request's log, never to the visitor. */
  function afterAnswer(key: string, task: () => Promise<void>, log: ResetMailLog, what: string): void {
    if (underWay.has(key)) return;
    const pending = task()
      .catch((err: unknown) => log.error({ err }, `${what} could not be sent`))
      .finally(() => underWay.delete(key));
    underWay.set(key, pending);
  }

  return {
    /** The one-hour reset link, if the address has an account. */
    sendResetLink(email: string, log: ResetMailLog): void {
      afterAnswer(email, () => resetLink(email), log, 'password reset mail');
    },
    /** The link that proves a password account's address. */
    sendVerificationLink(user: Pick<User, 'id' | 'email'>, log: ResetMailLog): void {
      afterAnswer(`verify:${user.email}`, () => verificationLink(user), log, 'verification mail');
    },
    /** Told to the owner when someone signs up with an address that has an account (the visitor is not told). */
    sendSignupAttempt(email: string, log: ResetMailLog): void {
      afterAnswer(`signup:${email}`, () => signupAttempt(email), log, 'sign-up notice');
    },
    /** Resolves when every mail to `email` under way is sent or has failed. */
    async sentTo(email: string): Promise<void> {
      await Promise.all([email, `verify:${email}`, `signup:${email}`].map((key) => underWay.get(key)));
    },
    /** Resolves when every mail under way is sent or has failed (before shutting down). */
    async allSent(): Promise<void> {
      await Promise.all(underWay.values());
    },
  };
}
