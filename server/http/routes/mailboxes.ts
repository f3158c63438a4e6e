import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APP_PASSWORD_PROVIDERS,
  addMailboxBodySchema,
  authResponseSchema,
  emailAccountsResponseSchema,
  messageResponseSchema,
  removeMailboxBodySchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import type { MailboxesService } from '#server/features/mailboxes/service.js';

export interface MailboxRouteOptions {
  mailboxes: MailboxesService;
  rateLimit: { max: number; timeWindow: number };
}

// The signed-in user's mailboxes (registered under routes/signed-in.ts).
export const mailboxRoutes: FastifyPluginAsyncZod<MailboxRouteOptions> = async (
  app,
  { mailboxes, rateLimit },
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

  app.delete(
    API.deleteEmailAccount,
    { schema: { body: removeMailboxBodySchema, response: { 200: messageResponseSchema } } },
    async (request) => {
      await mailboxes.remove(request.user.userId, request.body.email);
      return { message: 'The mailbox and everything stored about it has been removed.' };
    },
  );
};
