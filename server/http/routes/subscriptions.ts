import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SubscriptionCategory } from '../../../contract/api.js';
import { API } from '../../../contract/routes.js';
import { type MailboxesService, reauthUrl } from '../../features/mailboxes/service.js';
import { CATEGORIES, type SubscriptionsService } from '../../features/subscriptions/service.js';
import type { UnsubscribeService } from '../../features/unsubscribe/service.js';
import { HttpError } from '../../lib/errors.js';
import { parseBody } from '../validate.js';

// SPEC §7 names the field messageId in places where the screens send a subscription id; both are read.
const SubscriptionRef = z
  .object({ subscriptionId: z.string().min(1).optional(), messageId: z.string().min(1).optional() })
  .refine((b) => b.subscriptionId ?? b.messageId, { message: 'subscriptionId is required.' })
  .transform((b) => (b.subscriptionId ?? b.messageId)!);

/** Unsubscribe and Block: `confirmBlock` once the user agreed to trash mail without list headers too. */
const BlockingRef = z
  .object({
    subscriptionId: z.string().min(1).optional(),
    messageId: z.string().min(1).optional(),
    confirmBlock: z.boolean().optional(),
  })
  .refine((b) => b.subscriptionId ?? b.messageId, { message: 'subscriptionId is required.' })
  .transform((b) => ({ id: (b.subscriptionId ?? b.messageId)!, confirmBlock: b.confirmBlock === true }));

export interface SubscriptionRouteOptions {
  mailboxes: MailboxesService;
  subscriptions: SubscriptionsService;
  unsubscribe: UnsubscribeService;
}

export async function subscriptionRoutes(
  app: FastifyInstance,
  { mailboxes, subscriptions, unsubscribe }: SubscriptionRouteOptions,
) {
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
    return unsubscribe.keep(user.userId, parseBody(SubscriptionRef, request.body));
  });

  app.post(API.unsubscribe, async (request) => {
    const user = await request.requireUser();
    const { id, confirmBlock } = parseBody(BlockingRef, request.body);
    return unsubscribe.unsubscribe(user.userId, id, { confirmBlock });
  });

  app.post(API.manualUnsubscribe, async (request) => {
    const user = await request.requireUser();
    return unsubscribe.confirmManual(user.userId, parseBody(SubscriptionRef, request.body));
  });

  app.post(API.blockSubscription, async (request) => {
    const user = await request.requireUser();
    const { id, confirmBlock } = parseBody(BlockingRef, request.body);
    return unsubscribe.block(user.userId, id, { confirmBlock });
  });

  app.get<{ Params: { id: string } }>('/get-subscriptions/:id', async (request) => {
    const user = await request.requireUser();
    return { data: await subscriptions.messages(user.userId, request.params.id) };
  });
}
