import type { ReportPreview } from '#contract/api.js';
import { API, SCREENS } from '#contract/routes.js';
import type { Mailer } from '#server/email/mailer.js';
import { hashToken, randomToken } from '#server/lib/crypto.js';
import { InvalidInputError, NotFoundError } from '#server/lib/errors.js';
import { mailAvoided, type ReportContent, type ReportLinks } from './content.js';
import { renderReport } from './render.js';
import type { ReportRepository } from './repository.js';
import { reportedWeek, type Week, weekOf } from './week.js';

// The weekly report by mail (docs/decisions/084-weekly-report.md). Opt-in (Settings). The scheduler asks
// for the users due every minute and queues one `weekly-report` job each; the job claims the user's week
// with a row of weekly_reports before anything is sent, so of any number of instances and jobs one sends
// and the others stop at the claim. The mail carries its own unsubscribe token (RFC 8058 one-click),
// kept as a hash in that row.

/** What a token looks like (lib/crypto randomToken: 32 bytes, base64url). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export type SendOutcome = 'sent' | 'off' | 'unproven' | 'too-new' | 'claimed' | 'gone';

export interface ReportDeps {
  repo: ReportRepository;
  mailer: Mailer;
  publicUrl: string;
  now?: () => number;
}

export function createReportService({ repo, mailer, publicUrl, now = Date.now }: ReportDeps) {
  const listHost = new URL(publicUrl).hostname;

  function linksFor(token: string): ReportLinks {
    return {
      subscriptions: `${publicUrl}${SCREENS.subscriptions}`,
      unsubscribed: `${publicUrl}${SCREENS.signedInArea}/unsubscribed`,
      rules: `${publicUrl}${SCREENS.rules}`,
      settings: `${publicUrl}${SCREENS.settings}`,
      unsubscribe: `${publicUrl}${API.reportUnsubscribe}?token=${token}`,
    };
  }

  /** What the report of `week` says for the user, as of `at`. */
  async function content(userId: string, week: Week, at: number): Promise<ReportContent> {
    const [newSubscriptions, moves, movedSenders, stillSending, quieted] = await Promise.all([
      repo.newSubscriptions(userId, week.start, week.end),
      repo.moves(userId, week.start, week.end),
      repo.movedSenders(userId, week.start, week.end),
      repo.stillSending(userId),
      repo.quietedSenders(userId),
    ]);
    return { week, newSubscriptions, moves, movedSenders, stillSending, avoided: mailAvoided(quieted, at) };
  }

  return {
    content,

    /**
     * Settings' preview: the report of the last full week as the user would get it now, and when reports
     * go out (the next Monday 00:00 UTC, the hour `dueUsers` starts finding them). Nothing is mailed or
     * stored, so it holds no unsubscribe token: its unsubscribe link leads to Settings.
     */
    async preview(userId: string): Promise<ReportPreview> {
      const at = now();
      const week = reportedWeek(at);
      const account = await repo.account(userId);
      if (!account) throw new NotFoundError('This account no longer exists.');
      const links = { ...linksFor(''), unsubscribe: `${publicUrl}${SCREENS.settings}` };
      const mail = renderReport(await content(userId, week, at), links);
      const iso = (ms: number) => new Date(ms).toISOString();
      return {
        ...mail,
        week: week.name,
        weekStart: iso(week.start),
        weekEnd: iso(week.end),
        nextSendAt: iso(weekOf(at).end),
        proven: account.emailVerified,
      };
    },

    /** Users whose report of the last full week is due now (at most `limit`). */
    async dueUsers(limit = 500): Promise<string[]> {
      const week = reportedWeek(now());
      return repo.dueUsers(week.name, week.end, limit);
    },

    /**
     * Sends the user's report of the last full week unless it is off or another run claimed it. The claim
     * comes first: a run that stops after it (a crash) leaves the week claimed and unsent, so the report
     * is sent at most once. A send that fails gives the claim back and throws (the job is retried).
     */
    async sendWeekly(userId: string): Promise<SendOutcome> {
      const at = now();
      const week = reportedWeek(at);
      const account = await repo.account(userId);
      if (!account) return 'gone';
      if (!account.weeklyReport) return 'off';
      // Whoever signs up with someone else's address must not be able to mail them every week.
      if (!account.emailVerified) return 'unproven';
      if (account.createdAt >= week.end) return 'too-new';
      const token = randomToken();
      const tokenHash = hashToken(token);
      if (!(await repo.claim(userId, week.name, tokenHash, at))) return 'claimed';
      try {
        const links = linksFor(token);
        const mail = renderReport(await content(userId, week, at), links);
        await mailer.send({
          to: account.email,
          ...mail,
          headers: {
            'List-Id': `Inbox Genie weekly report <weekly-report.${listHost}>`,
            'List-Unsubscribe': `<${links.unsubscribe}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        });
      } catch (error) {
        await repo.release(userId, week.name, tokenHash);
        throw error;
      }
      await repo.markSent(userId, week.name, now());
      return 'sent';
    },

    /**
     * RFC 8058 one-click: turns the report off for the user whose report carried `token`. Doing it again
     * is harmless (it stays off). A token of another shape is refused; an unknown one is not found.
     */
    async unsubscribe(token: unknown): Promise<void> {
      if (typeof token !== 'string' || !TOKEN.test(token)) {
        throw new InvalidInputError('This unsubscribe link is incomplete: open the one in the report again.');
      }
      if (!(await repo.turnOffByToken(hashToken(token)))) {
        throw new NotFoundError(
          'This unsubscribe link is not one of ours (any more). You can turn the weekly report off in Settings.',
        );
      }
    },

    /** Whether `token` is a report's, for the confirmation page (GET changes nothing). */
    async knows(token: unknown): Promise<boolean> {
      return typeof token === 'string' && TOKEN.test(token) && (await repo.tokenKnown(hashToken(token)));
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
