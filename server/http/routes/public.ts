import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PublicConfig } from '../../../contract/api.js';
import { API } from '../../../contract/routes.js';
import { MESSAGES } from '../../../contract/validation.js';
import type { Config } from '../../config.js';
import type { ContactService } from '../../features/contact/service.js';
import { parseBody } from '../validate.js';

const ContactBody = z.object({
  from: z.string({ error: MESSAGES.contactIncomplete }),
  subject: z.string({ error: MESSAGES.contactIncomplete }),
  text: z.string({ error: MESSAGES.contactIncomplete }),
});

export interface PublicRouteOptions {
  config: Config;
  contact: ContactService;
  rateLimit: { max: number; timeWindow: number };
}

export async function publicRoutes(app: FastifyInstance, { config, contact, rateLimit }: PublicRouteOptions) {
  app.get(API.csrfToken, async (_request, reply) => ({ csrfToken: reply.generateCsrf() }));

  app.get(API.health, async () => ({ status: true }));

  app.get(API.publicConfig, async (): Promise<PublicConfig> => {
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
  });

  app.post(API.sendEmail, { config: { rateLimit } }, async (request) => {
    await contact.send(parseBody(ContactBody, request.body));
    return { message: 'Email sent successfully!' };
  });
}
