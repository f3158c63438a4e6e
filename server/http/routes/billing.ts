import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ANALYTICS_CLIENT_ID_HEADER,
  billingStateSchema,
  paymentLinkBodySchema,
  urlResponseSchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import type { BillingService } from '#server/features/billing/service.js';

export interface BillingRouteOptions {
  billing: BillingService;
  rateLimit: { max: number; timeWindow: number };
}

/** The analytics client id a pricing call carried, if it looks like one (GA's "123.456"); else null. */
function analyticsClientId(value: string | string[] | undefined): string | null {
  const id = Array.isArray(value) ? value[0] : value;
  return id && /^[\w.-]{1,100}$/.test(id) ? id : null;
}

// The signed-in user's plan: payment and portal links, the Billing screen (under routes/signed-in.ts).
// Each link is a call to Stripe: rate-limited like the other calls that reach a third party for the user.
export const billingRoutes: FastifyPluginAsyncZod<BillingRouteOptions> = async (
  app,
  { billing, rateLimit },
) => {
  for (const [path, interval] of [
    [API.monthlyPaymentLink, 'month'],
    [API.yearlyPaymentLink, 'year'],
  ] as const) {
    app.post(
      path,
      {
        config: { rateLimit },
        schema: { body: paymentLinkBodySchema, response: { 200: urlResponseSchema } },
      },
      async (request) => ({
        url: await billing.paymentLink({
          userId: request.user.userId,
          interval,
          originalUrl: request.body.originalUrl,
          analyticsClientId: analyticsClientId(request.headers[ANALYTICS_CLIENT_ID_HEADER]),
        }),
      }),
    );
  }

  app.post(
    API.billingPortalLink,
    { config: { rateLimit }, schema: { body: paymentLinkBodySchema, response: { 200: urlResponseSchema } } },
    async (request) => ({ url: await billing.portalLink(request.user.userId, request.body.originalUrl) }),
  );

  app.get(API.billing, { schema: { response: { 200: billingStateSchema } } }, async (request) =>
    billing.state(request.user.userId),
  );
};
