import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  messagePreviewBodySchema,
  messagesBySenderBodySchema,
  subscriptionMessagesResponseSchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import { previewCsp } from '#server/features/preview/sanitize.js';
import type { PreviewService } from '#server/features/preview/service.js';
import type { PerUserRateLimit } from '../plugins/user-rate-limit.js';

export interface PreviewRouteOptions {
  preview: PreviewService;
  userRateLimit: PerUserRateLimit;
}

// Reading one message on demand (registered under routes/signed-in.ts).
export const previewRoutes: FastifyPluginAsyncZod<PreviewRouteOptions> = async (
  app,
  { preview, userRateLimit },
) => {
  // The answer is the sanitized document itself (text/html), which no JSON response schema describes:
  // only the body is declared. Its errors are the usual `{message}`.
  app.post(
    API.messagePreview,
    { preHandler: userRateLimit, schema: { body: messagePreviewBodySchema } },
    async (request, reply) => {
      const body = request.body;
      const html = await preview.preview(request.user.userId, body);
      // Opened on its own (not in the modal's sandboxed frame), the document is still held to its policy.
      return reply
        .header('Content-Type', 'text/html; charset=utf-8')
        .header('Content-Security-Policy', `${previewCsp(body.loadImages === true)}; sandbox allow-popups`)
        .header('Cache-Control', 'no-store')
        .send(html);
    },
  );

  app.post(
    API.messagesBySender,
    {
      preHandler: userRateLimit,
      schema: { body: messagesBySenderBodySchema, response: { 200: subscriptionMessagesResponseSchema } },
    },
    async (request) => ({
      data: await preview.messagesBySender(request.user.userId, request.body.senderAddress),
    }),
  );
};
