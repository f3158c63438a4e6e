import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../../contract/validation.js';
import type { AccountsService } from '../../features/accounts/service.js';
import { SESSION_TTL_MS } from '../../features/accounts/service.js';
import { forbidden } from '../../lib/errors.js';

export const SESSION_COOKIE = 'ig_session';

export interface SessionUser {
  userId: string;
  email: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, looked up once per request on first use. */
    sessionUser(): Promise<SessionUser | undefined>;
    /** The signed-in user, or a 403 (SPEC §4 session gates). */
    requireUser(): Promise<SessionUser>;
  }
  interface FastifyReply {
    startSession(token: string): FastifyReply;
    endSession(): FastifyReply;
  }
}

// Server-side sessions: the cookie holds a random token; the database holds its hash and expiry.
export function registerSessions(
  app: FastifyInstance,
  accounts: AccountsService,
  secureCookies: boolean,
): void {
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: secureCookies };
  const cache = new WeakMap<FastifyRequest, Promise<SessionUser | undefined>>();

  app.decorateRequest('sessionUser', function (this: FastifyRequest) {
    let pending = cache.get(this);
    if (!pending) {
      pending = accounts.sessionUser(this.cookies[SESSION_COOKIE]);
      cache.set(this, pending);
    }
    return pending;
  });
  app.decorateRequest('requireUser', async function (this: FastifyRequest) {
    const user = await this.sessionUser();
    if (!user) throw forbidden(MESSAGES.notSignedIn);
    return user;
  });
  app.decorateReply('startSession', function (this: FastifyReply, token: string) {
    return this.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: SESSION_TTL_MS / 1000 });
  });
  app.decorateReply('endSession', function (this: FastifyReply) {
    return this.clearCookie(SESSION_COOKIE, cookieOptions);
  });
  // No cache, shared or the browser's own (back/forward, disk), keeps what a session produced: every
  // JSON answer (user data, session status, CSRF tokens, refusals) and any answer of a route that looked
  // at the session. Routes that chose their own Cache-Control keep it; static files are untouched.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) {
      const type = String(reply.getHeader('content-type') ?? '');
      if (type.startsWith('application/json') || cache.has(request))
        reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}
