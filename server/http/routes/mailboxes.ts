import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { APP_PASSWORD_PROVIDERS, type SubscriptionCategory } from '../../../contract/api.js';
import { API } from '../../../contract/routes.js';
import { IMAP_MESSAGES, MESSAGES } from '../../../contract/validation.js';
import type { MailboxesService } from '../../features/mailboxes/service.js';
import { reauthUrl } from '../../features/mailboxes/service.js';
import { CATEGORIES, type SubscriptionsService } from '../../features/subscriptions/service.js';
import { HttpError, notFound } from '../../lib/errors.js';
import { parseBody } from '../validate.js';

const AddMailbox = z.object({
  email: z.string({ error: MESSAGES.invalidEmail }),
  appPassword: z.string({ error: MESSAGES.appPasswordRequired }),
  host: z.string().max(253).optional(),
  port: z.number({ error: IMAP_MESSAGES.portInvalid }).optional(),
  secure: z.boolean().optional(),
});
const RemoveMailbox = z.object({ email: z.string({ error: MESSAGES.invalidEmail }) });
// SPEC §7 names the field messageId in places where the screens send a subscription id; both are read.
const SubscriptionRef = z
  .object({ subscriptionId: z.string().min(1).optional(), messageId: z.string().min(1).optional() })
  .refine((b) => b.subscriptionId ?? b.messageId, { message: 'subscriptionId is required.' })
  .transform((b) => (b.subscriptionId ?? b.messageId)!);

export interface MailboxRouteOptions {
  mailboxes: MailboxesService;
  subscriptions: SubscriptionsService;
  rateLimit: { max: number; timeWindow: number };
}

export async function mailboxRoutes(
  app: FastifyInstance,
  { mailboxes, subscriptions, rateLimit }: MailboxRouteOptions,
) {
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

  app.get<{ Querystring: { category?: string } }>(API.subscriptions, async (request) => {
    const user = await request.requireUser();
    const category = (request.query.category ?? 'uncategorized') as SubscriptionCategory;
    if (!CATEGORIES.includes(category)) throw new HttpError(400, `Unknown category ${category}.`);
    const reauth = await mailboxes.needingReauth(user.userId);
    if (reauth) {
      throw new HttpError(401, `Please sign in to ${reauth.email} again.`, {
        redirectUrl: reauthUrl(reauth),
      });
    }
    return { data: await subscriptions.list(user.userId, category) };
  });

  app.post(API.keepSubscription, async (request) => {
    const user = await request.requireUser();
    return subscriptions.setCategory(user.userId, parseBody(SubscriptionRef, request.body), 'kept');
  });

  app.get<{ Params: { id: string } }>('/get-subscriptions/:id', async (request) => {
    const user = await request.requireUser();
    return { data: await subscriptions.messages(user.userId, request.params.id) };
  });
}
