import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { insightsResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import type { InsightsService } from '#server/features/insights/service.js';

export interface InsightsRouteOptions {
  insights: InsightsService;
}

// The Insights screen's figures (under routes/signed-in.ts): read-only, from what the product stores.
export const insightsRoutes: FastifyPluginAsyncZod<InsightsRouteOptions> = async (app, { insights }) => {
  app.get(API.insights, { schema: { response: { 200: insightsResponseSchema } } }, async (request) =>
    insights.get(request.user.userId),
  );
};
