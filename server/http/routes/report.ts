import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { reportUnsubscribeQuerySchema } from '#contract/api.js';
import { API, SCREENS } from '#contract/routes.js';
import type { ReportService } from '#server/features/report/service.js';

export interface ReportRouteOptions {
  report: ReportService;
}

/**
 * Per client address. Mail providers make the one-click POSTs of all their users from a few addresses,
 * so this is far above the sign-in limit; a token (256 random bits) cannot be guessed at any rate.
 */
export const REPORT_UNSUBSCRIBE_RATE_LIMIT = { max: 600, timeWindow: 60_000 } as const;

/** RFC 8058 bodies are a few dozen bytes; anything far larger is not one. */
const BODY_LIMIT = 4 * 1024;
const ONE_CLICK = 'One-Click';

/**
 * Whether the body says `List-Unsubscribe=One-Click` (RFC 8058 §3.2): form-encoded, as mail providers
 * and our own engine send it, or as multipart/form-data, which the RFC allows too.
 */
export function isOneClickBody(contentType: string | undefined, body: unknown): boolean {
  if (typeof body !== 'string') return false;
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') {
    return new URLSearchParams(body).get('List-Unsubscribe') === ONE_CLICK;
  }
  if (type === 'multipart/form-data') {
    return /name="?List-Unsubscribe"?\r?\n(?:[^\r\n]+\r?\n)*\r?\nOne-Click\r?\n/.test(body);
  }
  return false;
}

const page = (title: string, body: string) =>
  [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${title} · Inbox Genie</title></head>`,
    '<body style="font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;line-height:1.5">',
    `<h1 style="font-size:1.4rem">${title}</h1>`,
    body,
    '</body></html>',
  ].join('\n');

const settingsLink = `<p><a href="${SCREENS.settings}">Your settings</a></p>`;

// The weekly report's own unsubscribe (docs/decisions/084-weekly-report.md), outside the signed-in scope:
// the token in the link is the proof, so there is no session and no CSRF token. POST (RFC 8058 one-click,
// from a mail provider or the page's button) turns the report off; GET changes nothing and shows the
// button, so a link scanner that opens every link cannot turn the report off.
export const reportRoutes: FastifyPluginAsyncZod<ReportRouteOptions> = async (app, { report }) => {
  const rateLimit = REPORT_UNSUBSCRIBE_RATE_LIMIT;
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    scope
      .withTypeProvider<ZodTypeProvider>()
      .post(
        API.reportUnsubscribe,
        { config: { csrf: false, rateLimit }, schema: { querystring: reportUnsubscribeQuerySchema } },
        async (request, reply) => {
          if (!isOneClickBody(request.headers['content-type'], request.body)) {
            return reply
              .status(400)
              .send({ message: 'Expected the one-click body List-Unsubscribe=One-Click.' });
          }
          await report.unsubscribe(request.query.token);
          return reply
            .type('text/html; charset=utf-8')
            .header('cache-control', 'no-store')
            .send(
              page(
                'The weekly report is off',
                `<p>You will get no more weekly reports. You can turn them on again in Settings.</p>${settingsLink}`,
              ),
            );
        },
      );
  });

  app.get(
    API.reportUnsubscribe,
    { config: { rateLimit }, schema: { querystring: reportUnsubscribeQuerySchema } },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const { token } = request.query;
      if (!(await report.knows(token))) {
        return reply
          .status(404)
          .send(
            page(
              'This link is not valid',
              `<p>This unsubscribe link is not one of ours (any more). You can turn the weekly report off in Settings.</p>${settingsLink}`,
            ),
          );
      }
      // The token passed knows(): 43 URL-safe characters, nothing to escape.
      return reply.send(
        page(
          'Stop the weekly report?',
          [
            '<p>You will get no more weekly reports by mail. You can turn them on again in Settings.</p>',
            `<form method="post" action="${API.reportUnsubscribe}?token=${token}">`,
            '<input type="hidden" name="List-Unsubscribe" value="One-Click">',
            '<button type="submit" style="font-size:1rem;padding:.5rem 1rem">Stop the weekly report</button>',
            '</form>',
            settingsLink,
          ].join('\n'),
        ),
      );
    },
  );
};
