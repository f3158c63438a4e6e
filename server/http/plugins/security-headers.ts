import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Helmet's headers on every answer, with a Content-Security-Policy of this site only. Google Analytics'
 * hosts are allowed only when analytics is configured (the browser still loads it only after the visitor's
 * consent). Helmet's middleware is built once here: @fastify/helmet builds it again for every request,
 * parsing the CSP directives each time.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { analytics: boolean; secureCookies: boolean },
): void {
  const analyticsHosts = options.analytics
    ? ['https://*.googletagmanager.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com']
    : [];
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...analyticsHosts],
        imgSrc: ["'self'", 'data:', 'https:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'", ...analyticsHosts],
        frameSrc: ["'self'"],
        upgradeInsecureRequests: options.secureCookies ? [] : null,
      },
    },
    hsts: options.secureCookies,
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );
}
