import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APP_PASSWORD_PROVIDERS,
  addMailboxBodySchema,
  authResponseSchema,
  checkMailboxBodySchema,
  checkMailboxResponseSchema,
  emailAccountsResponseSchema,
  messageResponseSchema,
  removeMailboxBodySchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import type { MailboxesService } from '#server/features/mailboxes/service.js';
import { type PerUserRateLimit, perUserRateLimit } from '../plugins/user-rate-limit.js';

export interface MailboxRouteOptions {
  mailboxes: MailboxesService;
  rateLimit: { max: number; timeWindow: number };
  userRateLimit: PerUserRateLimit;
}

/** "Check now" per user: each is a login and a search at the user's mail server. */
export const CHECK_RATE_LIMIT = { max: 5, windowMs: 60_000 } as const;

// The signed-in user's mailboxes (registered under routes/signed-in.ts).
export const mailboxRoutes: FastifyPluginAsyncZod<MailboxRouteOptions> = async (
  app,
  { mailboxes, rateLimit, userRateLimit },
) => {
  // POST /auth/{provider}, one route per app-password provider, each checking the body with that
  // provider's rules (its address domain, the IMAP server for `imap`). Any other provider is a 404, as
  // any unknown path. Logging in to a mail server on the user's behalf is a password check too:
  // rate-limited.
  for (const provider of APP_PASSWORD_PROVIDERS) {
    app.post(
      API.addMailbox(provider),
      {
        config: { rateLimit },
        schema: { body: addMailboxBodySchema(provider), response: { 200: authResponseSchema } },
      },
      async (request) => mailboxes.connectWithAppPassword(request.user.userId, provider, request.body),
    );
  }

  app.get(
    API.emailAccounts,
    { schema: { response: { 200: emailAccountsResponseSchema } } },
    async (request) => ({ data: await mailboxes.list(request.user.userId) }),
  );

  // "Check now" reaches the user's mail server: a few a minute per user, on top of the per-user limit.
  app.post(
    API.checkMailbox,
    {
      preHandler: [userRateLimit, perUserRateLimit(CHECK_RATE_LIMIT)],
      schema: { body: checkMailboxBodySchema, response: { 202: checkMailboxResponseSchema } },
    },
    async (request, reply) => {
      await mailboxes.checkNow(request.user.userId, request.body.email);
      return reply.code(202).send({ message: 'The mailbox will be checked in a moment.' });
    },
  );

  app.delete(
    API.deleteEmailAccount,
    { schema: { body: removeMailboxBodySchema, response: { 200: messageResponseSchema } } },
    async (request) => {
      await mailboxes.remove(request.user.userId, request.body.email);
      return { message: 'The mailbox and everything stored about it has been removed.' };
    },
  );
};
