import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mailboxSettingsQuerySchema, mailboxSettingsResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import type { MailboxSettingsService } from '#server/features/mailbox-settings/service.js';
import { perUserRateLimit } from '../plugins/user-rate-limit.js';

export interface MailboxSettingsRouteOptions {
  mailboxSettings: MailboxSettingsService;
}

/**
 * Each lookup asks DNS and up to two web servers of a domain the user names: a few a minute per user,
 * enough for a form whose address is corrected a couple of times, too few to use the server as a scanner.
 */
export const MAILBOX_SETTINGS_RATE_LIMIT = { max: 10, windowMs: 60_000 } as const;

// GET /mailbox-settings?email=: the IMAP server suggested for an address (registered under
// routes/signed-in.ts, so only a signed-in user makes the server look anything up).
export const mailboxSettingsRoutes: FastifyPluginAsyncZod<MailboxSettingsRouteOptions> = async (
  app,
  { mailboxSettings },
) => {
  app.get(
    API.mailboxSettings,
    {
      preHandler: [perUserRateLimit(MAILBOX_SETTINGS_RATE_LIMIT)],
      schema: { querystring: mailboxSettingsQuerySchema, response: { 200: mailboxSettingsResponseSchema } },
    },
    async (request) => mailboxSettings.suggest(request.query.email),
  );
};
