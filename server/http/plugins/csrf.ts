import fastifyCsrf from '@fastify/csrf-protection';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false`: the route takes state-changing calls without the X-CSRF-Token header, because its callers
     * are not browsers holding our cookies (a provider's webhook, which proves itself another way).
     */
    csrf?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every state-changing call needs the X-CSRF-Token header from GET /csrf-token, tied to the signed,
 * HttpOnly `ig_csrf` cookie (docs/decisions/002-sessions-and-csrf.md), unless its route says
 * `config: { csrf: false }`. Calls to no route (404s) are checked too. socket.io needs no exemption:
 * its engine answers /socket.io/ on the HTTP server before Fastify sees the request.
 * Call after @fastify/cookie is registered.
 */
export async function registerCsrf(app: FastifyInstance, secureCookies: boolean): Promise<void> {
  await app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: 'ig_csrf',
    cookieOpts: { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies, signed: true },
    getToken: (request) => request.headers['x-csrf-token'] as string | undefined,
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config.csrf === false) return done();
    app.csrfProtection(request, reply, done);
  });
}
