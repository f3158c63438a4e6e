import { SCREENS } from '#contract/routes.js';
import type { Mailer } from '#server/email/mailer.js';
import { hashToken, randomToken } from '#server/lib/crypto.js';
import { escapeHtml } from '../report/render.js';
import type { AccountsRepository, User } from './repository.js';

// The mails accounts sends: the reset link, the link that proves an address, the notice to an
// address's owner that someone tried to sign up with it, and the notice of a sign-in from a new browser. Each goes after the answer, so how long a
// request takes says nothing of whether the address has an account.

export const RESET_TTL_MS = 3600 * 1000;
/** At most one reset mail per address in this time, however often it is asked for. */
export const RESET_COOLDOWN_MS = 60 * 1000;
/**
 * At most this many mails per address and budget in MAIL_BUDGET_WINDOW_MS: the notices (verification links,
 * sign-up notices, Resend, new sign-ins) share one budget, reset links have their own, so nobody can fill
 * an inbox by naming its address, and a flood of sign-ups cannot hold back its owner's reset link.
 */
export const MAILS_PER_ADDRESS = 3;
export const MAIL_BUDGET_WINDOW_MS = 3600 * 1000;
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
  /** An HTML part saying the same as `text` (multipart/alternative). */
  html?(link: string): string;
  budget: 'notice' | 'reset';
}

/** The verification mail's HTML part: the same words as its text, the link as a button (inline styles only). */
function verificationHtml(link: string): string {
  const href = escapeHtml(link);
  const p = 'margin:0 0 16px;font:16px/1.5 Arial,Helvetica,sans-serif;color:#212529';
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<title>Confirm your email address for Inbox Genie</title></head>',
    '<body style="margin:0;padding:24px;background:#f8f9fa">',
    '<div style="max-width:560px;margin:0 auto;padding:24px;background:#fff;border-radius:8px">',
    `<p style="${p}">Welcome to Inbox Genie. Please confirm that this address is yours:</p>`,
    `<p style="${p}"><a href="${href}" style="display:inline-block;padding:12px 20px;background:#0d6efd;`,
    'color:#fff;text-decoration:none;border-radius:6px;font-weight:bold">Confirm my address</a></p>',
    `<p style="${p};font-size:14px;color:#6c757d">Or open this link: <a href="${href}">${href}</a></p>`,
    `<p style="${p}">The link works for 24 hours. Opened in another browser than the one you signed up in,`,
    ' it asks for the password you chose.</p>',
    `<p style="${p};margin:0">If you did not create an Inbox Genie account, ignore this mail.</p>`,
    '</div></body></html>',
  ].join('\n');
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

  /**
   * Takes one mail of the address's budget (a row any instance may have written), or answers null when
   * it is spent; `release` gives it back when the mail could not be sent.
   */
  async function fromBudget(
    email: string,
    budget: 'notice' | 'reset',
  ): Promise<{ release(): Promise<void> } | null> {
    const key = hashToken(`mail:${email}`);
    const at = now();
    const taken = await repo.reserveAccountMail(key, budget, at, MAIL_BUDGET_WINDOW_MS, MAILS_PER_ADDRESS);
    return taken ? { release: () => repo.releaseAccountMail(key, budget, at) } : null;
  }

  /**
   * Sends a mail to `to` within the address's budget, written by `compose` once the budget allows it;
   * nothing when it is spent.
   */
  async function sendWithin(
    budget: 'notice' | 'reset',
    to: string,
    compose: () => Promise<{ subject: string; text: string; html?: string }>,
  ): Promise<void> {
    const taken = await fromBudget(to, budget);
    if (!taken) return;
    try {
      await mailer.send({ to, ...(await compose()) });
    } catch (error) {
      await taken.release();
      throw error;
    }
  }

  /**
   * A single-use link mailed to a user, unless one of its kind went out within the cooldown (a row any
   * instance may have written) or the address's budget is spent: a new token is stored (its hash), the
   * mail sent, and the token deleted again when the mail fails, since a link nobody received must not
   * hold the cooldown.
   */
  async function mailLink(user: Pick<User, 'id' | 'email'>, kind: LinkKind): Promise<void> {
    const at = now();
    const last = await kind.latestAt(user.id);
    if (last !== undefined && last > at - RESET_COOLDOWN_MS) return;
    let stored: string | null = null;
    try {
      await sendWithin(kind.budget, user.email, async () => {
        const token = randomToken();
        stored = hashToken(token);
        await kind.store({ tokenHash: stored, userId: user.id, now: at, expiresAt: at + kind.ttlMs });
        const link = kind.url(token);
        return { subject: kind.subject, text: kind.text(link).join('\n'), html: kind.html?.(link) };
      });
    } catch (error) {
      if (stored) await kind.unstore(stored);
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
      budget: 'reset',
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
      budget: 'notice',
      // The confirm screen: opening it changes nothing (mail scanners open links); its button proves the
      // address (docs/decisions/090-accounts-that-stay-their-owners.md).
      url: (token) => `${publicUrl}${SCREENS.confirmEmail}?token=${encodeURIComponent(token)}`,
      subject: 'Confirm your email address for Inbox Genie',
      text: (link) => [
        'Welcome to Inbox Genie. Please confirm that this address is yours:',
        '',
        link,
        '',
        'The link works for 24 hours. Opened in another browser than the one you signed up in, it asks',
        'for the password you chose.',
        '',
        'If you did not create an Inbox Genie account, ignore this mail.',
      ],
      html: verificationHtml,
    });
  }

  async function signupAttempt(email: string): Promise<void> {
    const user = await repo.findUserByEmail(email);
    if (!user) return;
    await sendWithin('notice', user.email, async () => ({
      subject: 'Someone tried to create an Inbox Genie account with your address',
      text: [
        'Someone tried to create an Inbox Genie account with this address, which already has one.',
        '',
        `If it was you, sign in: ${publicUrl}${SCREENS.signin}`,
        `Forgot your password? Choose a new one: ${publicUrl}${SCREENS.resetPassword}`,
        '',
        'If it was not you, nothing changed: ignore this mail.',
      ].join('\n'),
    }));
  }

  async function newSignin(user: Pick<User, 'email'>, browser: string, at: number): Promise<void> {
    await sendWithin('notice', user.email, async () => ({
      subject: 'A new sign-in to your Inbox Genie account',
      text: [
        `Your Inbox Genie account was signed in to from a browser it had not seen before: ${browser}, at`,
        `${new Date(at).toUTCString()}.`,
        '',
        `If it was you, nothing to do. If not, sign out the sessions you do not know and change your`,
        `password: ${publicUrl}${SCREENS.settings}`,
      ].join('\n'),
    }));
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
    /** Tells the owner that a browser not seen before signed in (within the address's budget). */
    sendNewSignin(user: Pick<User, 'email'>, browser: string, log: ResetMailLog): void {
      const at = now();
      afterAnswer(`signin:${user.email}`, () => newSignin(user, browser, at), log, 'new sign-in notice');
    },
    /** Resolves when every mail to `email` under way is sent or has failed. */
    async sentTo(email: string): Promise<void> {
      await Promise.all(
        [email, `verify:${email}`, `signup:${email}`, `signin:${email}`].map((key) => underWay.get(key)),
      );
    },
    /** Resolves when every mail under way is sent or has failed (before shutting down). */
    async allSent(): Promise<void> {
      await Promise.all(underWay.values());
    },
  };
}
