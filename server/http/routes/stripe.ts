import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pricesResponseSchema } from '#contract/api.js';
import { API, SCREENS } from '#contract/routes.js';
import type { BillingService } from '#server/features/billing/service.js';

export interface StripeRouteOptions {
  billing: BillingService;
}

/** Stripe's webhook deliveries are small (tens of KiB); anything far larger is not one. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

// What Stripe and the browser coming back from Stripe call, outside the signed-in scope: the webhook (no
// session, no CSRF token: the signature proves it), the two return URLs (browser navigations that sync the
// plan and redirect), and the public prices.
export const stripeRoutes: FastifyPluginAsyncZod<StripeRouteOptions> = async (app, { billing }) => {
  app.get(API.prices, { schema: { response: { 200: pricesResponseSchema } } }, async () => ({
    data: await billing.prices(),
  }));

  // The signature is over the exact bytes Stripe sent: this scope keeps JSON bodies as a Buffer.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    scope.post(API.stripeWebhook, { config: { csrf: false } }, async (request, reply) => {
      const signature = request.headers['stripe-signature'];
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const answer = await billing.webhook({
        rawBody: body,
        signature: typeof signature === 'string' ? signature : undefined,
      });
      return reply.status(answer.status).send(answer.body);
    });
  });

  /** Browser navigations: without a session the user signs in first. */
  const signedInUser = async (request: FastifyRequest) => (await request.sessionUser())?.userId;

  app.get<{ Querystring: { session_id?: string } }>(API.checkoutReturn, async (request, reply) => {
    const userId = await signedInUser(request);
    if (!userId) return reply.redirect(SCREENS.signin);
    const sessionId = typeof request.query.session_id === 'string' ? request.query.session_id : undefined;
    return reply.redirect(await billing.checkoutReturn(userId, sessionId));
  });

  app.get<{ Querystring: { to?: string } }>(API.portalReturn, async (request, reply) => {
    const userId = await signedInUser(request);
    if (!userId) return reply.redirect(SCREENS.signin);
    const to = typeof request.query.to === 'string' ? request.query.to : undefined;
    return reply.redirect(await billing.portalReturn(userId, to));
  });
};
