// A local Stripe for tests: the /v1 endpoints a subscription product calls, hosted Checkout and portal
// pages, and signed webhook events with controls. Driven by the real SDK:
//   new Stripe(fake.secretKey, { host: fake.host, port: fake.port, protocol: 'http' })
// See docs/decisions/039-stripe-fake-for-billing-tests.md for what it covers and the reference pages it follows.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { freePort } from '../net.js';
import { StripeApi } from './api.js';
import { EventBus } from './events.js';
import { HostedPages } from './pages.js';
import { StripeState } from './state.js';
import type { Json, StripeFakeOptions } from './types.js';

export type { Delivery, StripeFakeOptions } from './types.js';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeFake(options: StripeFakeOptions = {}) {
  const secretKey = options.secretKey ?? 'sk_test_fake';
  const webhookSecret = options.webhookSecret ?? 'whsec_fake';
  const apiVersion = options.apiVersion ?? Stripe.API_VERSION;
  const host = '127.0.0.1';
  const port = await freePort();
  const origin = `http://${host}:${port}`;

  let bus: EventBus | undefined;
  const state = new StripeState(
    options,
    () => origin,
    (type, object, previous) => bus?.emit(type, object, previous),
  );
  bus = new EventBus(options.webhookUrl, webhookSecret, apiVersion, () => state.clock, options.holdEvents);
  const events = bus;
  const api = new StripeApi(state, secretKey, apiVersion);
  api.events = () => events.events;
  const pages = new HostedPages(state);

  const server = createServer((req, res) => {
    void (async () => {
      try {
        const url = new URL(req.url ?? '/', origin);
        const body = await readBody(req);
        const method = req.method ?? 'GET';
        const answer = url.pathname.startsWith('/v1/')
          ? api.handle({ method, path: url.pathname, query: url.search.slice(1), headers: req.headers, body })
          : (pages.handle(method, url.pathname, body) ?? {
              status: 404,
              headers: { 'content-type': 'text/plain' },
              body: 'Not found',
            });
        res.writeHead(answer.status, answer.headers).end(answer.body);
      } catch (err) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });

  return {
    origin,
    host,
    port: (server.address() as AddressInfo).port,
    secretKey,
    webhookSecret,
    /** The seeded prices' ids. */
    prices: { monthly: state.monthlyPriceId, yearly: state.yearlyPriceId },
    /** The product's settings for billing against this fake (the variables of .env.example). */
    env: (): Record<string, string> => ({
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_PRICE_MONTHLY: state.monthlyPriceId,
      STRIPE_PRICE_YEARLY: state.yearlyPriceId,
      STRIPE_API_URL: origin,
    }),
    /** Every event made, oldest first (also what GET /v1/events/:id serves). */
    events: (): Json[] => events.events,
    /** Every webhook delivery with the endpoint's answer, in the order answered. */
    deliveries: () => events.deliveries,
    /** Every API call answered (method, path, parsed params, status). */
    requests: () => api.requests,
    setWebhookUrl: (url: string | undefined) => events.setWebhookUrl(url),
    /** Keep events instead of sending them (a slow webhook). */
    holdEvents: () => events.hold(),
    /** Events kept while held. */
    pendingEvents: () => events.pending(),
    /** Send what was held — in order, reversed, or by the listed ids first — and wait for the answers. */
    releaseEvents: (order?: 'in-order' | 'reverse' | string[]) => events.release(order),
    /** Send an event again (same id), as Stripe's retries do. */
    redeliver: (eventId: string) => events.redeliver(eventId),
    /** Wait until every delivery under way has been answered. */
    settled: () => events.settled(),
    /** A Stripe-Signature header for a payload, made with the SDK's helper and the webhook secret. */
    sign: (payload: string, timestamp?: number) => events.sign(payload, timestamp),
    /** The checkout page's Pay, without a browser. */
    completeCheckout: (sessionId: string) => state.completeCheckout(sessionId),
    /** The portal's Cancel at period end (true) / Renew (false), without a browser. */
    setCancelAtPeriodEnd: (subscriptionId: string, cancel = true) =>
      state.setCancelAtPeriodEnd(subscriptionId, cancel),
    /** The portal's Cancel now, without a browser. */
    cancelNow: (subscriptionId: string) => state.cancelNow(subscriptionId),
    /** Move the clock to the subscription's period end: a cancel-at-period-end one ends, others renew. */
    advanceToPeriodEnd: (subscriptionId: string) => state.advanceToPeriodEnd(subscriptionId),
    /** The fake's clock (unix seconds). */
    now: () => state.clock,
    subscriptionsOf: (customerId: string) => state.subscriptionsOf(customerId),
    /** A customer as GET /v1/customers/:id serves it (`{id, object, deleted: true}` once deleted). */
    customer: (customerId: string) => state.customers.get(customerId),
    /** A Checkout Session (status open, complete or expired). */
    checkoutSession: (sessionId: string) => state.sessions.get(sessionId),
    close: async () => {
      await events.settled();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type StripeFake = Awaited<ReturnType<typeof startStripeFake>>;
