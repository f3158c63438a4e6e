import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deleteSenderRuleQuerySchema,
  deleteSenderRuleResponseSchema,
  mailboxFoldersQuerySchema,
  mailboxFoldersResponseSchema,
  putScreenerBodySchema,
  putScreenerResponseSchema,
  putSenderRuleBodySchema,
  putSenderRuleResponseSchema,
  senderRuleParamsSchema,
  senderRulesResponseSchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import type { OrganiseService } from '#server/features/organise/service.js';
import type { PerUserRateLimit } from '../plugins/user-rate-limit.js';

export interface OrganiseRouteOptions {
  organise: OrganiseService;
  userRateLimit: PerUserRateLimit;
}

// Sender rules, the mailbox's folders and the Screener (under routes/signed-in.ts). Writes reach the
// user's mailbox, so they count against the per-user rate limit as Keep and Unsubscribe do. Refusals
// (404 another user's sender, 402 Premium, 409 blocked sender, 401 reauth, 502 mailbox down) are domain
// errors answered by plugins/errors.ts.
export const organiseRoutes: FastifyPluginAsyncZod<OrganiseRouteOptions> = async (
  app,
  { organise, userRateLimit },
) => {
  app.get(API.senderRules, { schema: { response: { 200: senderRulesResponseSchema } } }, async (request) =>
    organise.list(request.user.userId),
  );

  app.put(
    `${API.senderRules}/:subscriptionId`,
    {
      preHandler: userRateLimit,
      schema: {
        params: senderRuleParamsSchema,
        body: putSenderRuleBodySchema,
        response: { 200: putSenderRuleResponseSchema },
      },
    },
    async (request) =>
      organise.put(request.user.userId, request.params.subscriptionId, request.body.rule, {
        dryRun: request.body.dryRun,
      }),
  );

  app.delete(
    `${API.senderRules}/:subscriptionId`,
    {
      preHandler: userRateLimit,
      schema: {
        params: senderRuleParamsSchema,
        querystring: deleteSenderRuleQuerySchema,
        response: { 200: deleteSenderRuleResponseSchema },
      },
    },
    async (request) =>
      organise.remove(request.user.userId, request.params.subscriptionId, request.query.restore),
  );

  app.get(
    API.mailboxFolders,
    {
      // It reaches the user's mail server, as the writes do.
      preHandler: userRateLimit,
      schema: { querystring: mailboxFoldersQuerySchema, response: { 200: mailboxFoldersResponseSchema } },
    },
    async (request) => organise.folders(request.user.userId, request.query.email),
  );

  app.put(
    API.screener,
    {
      preHandler: userRateLimit,
      schema: { body: putScreenerBodySchema, response: { 200: putScreenerResponseSchema } },
    },
    async (request) => organise.setScreener(request.user.userId, request.body.email, request.body.enabled),
  );
};
