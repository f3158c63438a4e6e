import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  contactBodySchema,
  csrfTokenResponseSchema,
  messageResponseSchema,
  type PublicConfig,
  publicConfigSchema,
  statusResponseSchema,
} from '../../../contract/api.js';
import { API } from '../../../contract/routes.js';
import type { Config } from '../../config.js';
import type { ContactService } from '../../features/contact/service.js';

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
      const unavailable = (name: string, vars: string) => ({
        available: false,
        reason: `${name} sign-in is not set up on this server (${vars} are not configured).`,
      });
      return {
        productName: 'Inbox Genie',
        billing: false,
        logoBaseUrl: config.logoBaseUrl,
        providers: {
          google: config.google
            ? { available: true }
            : unavailable('Google', 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET'),
          outlook: config.microsoft
            ? { available: true }
            : unavailable('Microsoft', 'MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET'),
        },
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
