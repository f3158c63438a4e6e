import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  blockingBodySchema,
  keepBodySchema,
  subscriptionListResponseSchema,
  subscriptionMessagesParamsSchema,
  subscriptionMessagesQuerySchema,
  subscriptionMessagesResponseSchema,
  subscriptionRefBodySchema,
  subscriptionSchema,
  subscriptionsQuerySchema,
  unsubscribeResultSchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import { type MailboxesService, reauthUrl } from '#server/features/mailboxes/service.js';
import type { SubscriptionsService } from '#server/features/subscriptions/service.js';
import type { UnsubscribeService } from '#server/features/unsubscribe/service.js';
import { ReauthRequiredError } from '#server/lib/errors.js';
import { plainDataSerializer } from '../plugins/schemas.js';
import type { PerUserRateLimit } from '../plugins/user-rate-limit.js';

export interface SubscriptionRouteOptions {
  mailboxes: MailboxesService;
  subscriptions: SubscriptionsService;
  unsubscribe: UnsubscribeService;
  userRateLimit: PerUserRateLimit;
}

// The lists and what the user does with a sender (registered under routes/signed-in.ts). Keep, Block and
// the manual confirmation answer the updated subscription; Unsubscribe answers what was done. Their
// refusals (401 with `redirectUrl`, 409 with `confirmBlock`, 502 with `offerBlock`) are domain errors whose
// answers plugins/errors.ts writes: only the 200 answers are declared here.
export const subscriptionRoutes: FastifyPluginAsyncZod<SubscriptionRouteOptions> = async (
  app,
  { mailboxes, subscriptions, unsubscribe, userRateLimit },
) => {
  const updated = { 200: subscriptionSchema };

  app.get(
    API.subscriptions,
    {
      schema: {
        querystring: subscriptionsQuerySchema,
        response: { 200: subscriptionListResponseSchema },
      },
      serializerCompiler: plainDataSerializer,
    },
    async (request) => {
      const { userId, reauthPending } = request.user;
      const reauth = reauthPending ? await mailboxes.needingReauth(userId) : undefined;
      if (reauth) {
        throw new ReauthRequiredError(`Please sign in to ${reauth.email} again.`, {
          redirectUrl: reauthUrl(reauth),
        });
      }
      return request.query.group === 'brand'
        ? subscriptions.listBrands(userId, request.query)
        : subscriptions.listPage(userId, request.query);
    },
  );

  app.post(
    API.keepSubscription,
    { preHandler: userRateLimit, schema: { body: keepBodySchema, response: updated } },
    async (request) =>
      unsubscribe.keep(request.user.userId, request.body.subscriptionId, {
        restoreFromTrash: request.body.restoreFromTrash,
      }),
  );

  app.post(
    API.unsubscribe,
    {
      preHandler: userRateLimit,
      schema: { body: blockingBodySchema, response: { 200: unsubscribeResultSchema } },
    },
    async (request) => {
      const { subscriptionId, confirmBlock, moveToTrash } = request.body;
      return unsubscribe.unsubscribe(request.user.userId, subscriptionId, { confirmBlock, moveToTrash });
    },
  );

  app.post(
    API.manualUnsubscribe,
    { schema: { body: subscriptionRefBodySchema, response: updated } },
    async (request) => unsubscribe.confirmManual(request.user.userId, request.body.subscriptionId),
  );

  app.post(
    API.blockSubscription,
    { preHandler: userRateLimit, schema: { body: blockingBodySchema, response: updated } },
    async (request) => {
      const { subscriptionId, confirmBlock } = request.body;
      return unsubscribe.block(request.user.userId, subscriptionId, { confirmBlock });
    },
  );

  app.get(
    '/get-subscriptions/:id',
    {
      schema: {
        params: subscriptionMessagesParamsSchema,
        querystring: subscriptionMessagesQuerySchema,
        response: { 200: subscriptionMessagesResponseSchema },
      },
    },
    async (request) => subscriptions.messages(request.user.userId, request.params.id, request.query),
  );

  // Undo: Keep → back to review (409 for an unsubscribed sender); Block → rule lifted, trashed mail moved
  // back (`restoredFromTrash`), back to review (409 when the sender is not blocked).
  app.post(
    API.reviewSubscription,
    { preHandler: userRateLimit, schema: { body: subscriptionRefBodySchema, response: updated } },
    async (request) => unsubscribe.review(request.user.userId, request.body.subscriptionId),
  );

  app.post(
    API.unblockSubscription,
    { preHandler: userRateLimit, schema: { body: subscriptionRefBodySchema, response: updated } },
    async (request) => unsubscribe.unblock(request.user.userId, request.body.subscriptionId),
  );
};
