import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  activityParamsSchema,
  activityQuerySchema,
  activityResponseSchema,
  undoActivityResponseSchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import type { ActivityService } from '#server/features/activity/service.js';
import type { PerUserRateLimit } from '../plugins/user-rate-limit.js';

export interface ActivityRouteOptions {
  activity: ActivityService;
  userRateLimit: PerUserRateLimit;
}

// The activity history (under routes/signed-in.ts). An undo reaches the user's mailbox as the screens' own
// Undo does, so it counts against the same per-user rate limit. Another user's id answers 404; nothing left
// to undo 409 (domain errors, plugins/errors.ts).
export const activityRoutes: FastifyPluginAsyncZod<ActivityRouteOptions> = async (
  app,
  { activity, userRateLimit },
) => {
  app.get(
    API.activity,
    { schema: { querystring: activityQuerySchema, response: { 200: activityResponseSchema } } },
    async (request) => activity.list(request.user.userId, request.query),
  );

  app.post(
    `${API.activity}/:id/undo`,
    {
      preHandler: userRateLimit,
      schema: { params: activityParamsSchema, response: { 200: undoActivityResponseSchema } },
    },
    async (request) => activity.undo(request.user.userId, request.params.id),
  );
};
