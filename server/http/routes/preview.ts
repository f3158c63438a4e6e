import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API } from '../../../contract/routes.js';
import { previewCsp } from '../../features/preview/sanitize.js';
import type { PreviewService } from '../../features/preview/service.js';
import { parseBody } from '../validate.js';

const PreviewBody = z.object({
  subscriptionId: z.string().min(1, 'subscriptionId is required.'),
  messageId: z.string().min(1, 'messageId is required.'),
  loadImages: z.boolean().optional(),
});

const SenderBody = z.object({
  senderAddress: z.string().trim().min(1, 'senderAddress is required.'),
  messageId: z.string().optional(),
});

export interface PreviewRouteOptions {
  preview: PreviewService;
}

export async function previewRoutes(app: FastifyInstance, { preview }: PreviewRouteOptions) {
  app.post(API.messagePreview, async (request, reply) => {
    const user = await request.requireUser();
    const body = parseBody(PreviewBody, request.body);
    const html = await preview.preview(user.userId, body);
    // Opened on its own (not in the modal's sandboxed frame), the document is still held to its policy.
    return reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', `${previewCsp(body.loadImages === true)}; sandbox allow-popups`)
      .header('Cache-Control', 'no-store')
      .send(html);
  });

  app.post(API.messagesBySender, async (request) => {
    const user = await request.requireUser();
    const { senderAddress } = parseBody(SenderBody, request.body);
    return { data: await preview.messagesBySender(user.userId, senderAddress) };
  });
}
