import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { APP_PASSWORD_PROVIDERS } from '../../../contract/api.js';
import { API } from '../../../contract/routes.js';
import { IMAP_MESSAGES, MESSAGES } from '../../../contract/validation.js';
import type { MailboxesService } from '../../features/mailboxes/service.js';
import { notFound } from '../../lib/errors.js';
import { parseBody } from '../validate.js';

const AddMailbox = z.object({
  email: z.string({ error: MESSAGES.invalidEmail }),
  appPassword: z.string({ error: MESSAGES.appPasswordRequired }),
  host: z.string().max(253).optional(),
  port: z.number({ error: IMAP_MESSAGES.portInvalid }).optional(),
  secure: z.boolean().optional(),
});
const RemoveMailbox = z.object({ email: z.string({ error: MESSAGES.invalidEmail }) });

export interface MailboxRouteOptions {
  mailboxes: MailboxesService;
  rateLimit: { max: number; timeWindow: number };
}

export async function mailboxRoutes(app: FastifyInstance, { mailboxes, rateLimit }: MailboxRouteOptions) {
  // Logging in to a mail server on the user's behalf is a password check too: rate-limited.
  app.post<{ Params: { provider: string } }>(
    '/auth/:provider',
    { config: { rateLimit } },
    async (request) => {
      const provider = request.params.provider;
      if (!(APP_PASSWORD_PROVIDERS as readonly string[]).includes(provider))
        throw notFound(`Unknown provider ${provider}.`);
      const user = await request.requireUser();
      return mailboxes.connectWithAppPassword(user.userId, provider, parseBody(AddMailbox, request.body));
    },
  );

  app.get(API.emailAccounts, async (request) => ({
    data: await mailboxes.list((await request.requireUser()).userId),
  }));

  app.delete(API.deleteEmailAccount, async (request) => {
    const user = await request.requireUser();
    await mailboxes.remove(user.userId, parseBody(RemoveMailbox, request.body).email);
    return { message: 'The mailbox and everything stored about it has been removed.' };
  });
}
