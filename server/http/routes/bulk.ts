import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bulkActionBodySchema,
  bulkStartedSchema,
  bulkStatusParamsSchema,
  bulkStatusSchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import type { BulkService } from '#server/features/bulk/service.js';
import type { PerUserRateLimit } from '../plugins/user-rate-limit.js';

export interface BulkRouteOptions {
  bulk: BulkService;
  userRateLimit: PerUserRateLimit;
}

// Many senders at once (under routes/signed-in.ts: session and CSRF token as every signed-in POST). One
// POST starts one bulk and counts once against the rate limit, however many senders it names; its items
// run as a job, not as requests, so no per-request limit sees them. 409 `{message, bulkId}` while the
// user's previous bulk still runs.
export const bulkRoutes: FastifyPluginAsyncZod<BulkRouteOptions> = async (app, { bulk, userRateLimit }) => {
  app.post(
    API.bulkAction,
    {
      preHandler: userRateLimit,
      schema: { body: bulkActionBodySchema, response: { 202: bulkStartedSchema } },
    },
    async (request, reply) => {
      const started = await bulk.start(request.user.userId, request.body);
      return reply.code(202).send(started);
    },
  );

  app.get(
    `${API.bulkAction}/:bulkId`,
    { schema: { params: bulkStatusParamsSchema, response: { 200: bulkStatusSchema } } },
    async (request) => bulk.status(request.user.userId, request.params.bulkId),
  );
};
