import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  contactBodySchema,
  csrfTokenResponseSchema,
  messageResponseSchema,
  type PublicConfig,
  publicConfigSchema,
  statusResponseSchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import type { Config } from '#server/config.js';
import type { ContactService } from '#server/features/contact/service.js';
import { type OAUTH_PROVIDERS, unavailableReason } from '#server/features/oauth/providers.js';

export interface PublicRouteOptions {
  config: Config;
  contact: ContactService;
  rateLimit: { max: number; timeWindow: number };
}

export const publicRoutes: FastifyPluginAsyncZod<PublicRouteOptions> = async (
  app,
  { config, contact, rateLimit },
) => {
  app.get(
    API.csrfToken,
    { schema: { response: { 200: csrfTokenResponseSchema } } },
    async (_request, reply) => ({
      csrfToken: reply.generateCsrf(),
    }),
  );

  app.get(API.health, { schema: { response: { 200: statusResponseSchema } } }, async () => ({
    status: true,
  }));

  app.get(
    API.publicConfig,
    { schema: { response: { 200: publicConfigSchema } } },
    async (): Promise<PublicConfig> => {
      // Which sign-in providers this server has keys for; the reason is the user's text, no variable names.
      const availability = (provider: (typeof OAUTH_PROVIDERS)[number]) => {
        const reason = unavailableReason(provider, config);
        return reason ? { available: false, reason } : { available: true };
      };
      return {
        productName: 'Inbox Genie',
        billing: config.stripe !== null,
        gaMeasurementId: config.gaMeasurementId,
        logoBaseUrl: config.logoBaseUrl,
        providers: { google: availability('google'), outlook: availability('outlook') },
      };
    },
  );

  app.post(
    API.sendEmail,
    { config: { rateLimit }, schema: { body: contactBodySchema, response: { 200: messageResponseSchema } } },
    async (request) => {
      await contact.send(request.body);
      return { message: 'Email sent successfully!' };
    },
  );
};
