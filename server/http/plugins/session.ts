import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '#contract/validation.js';
import type { AccountsService } from '#server/features/accounts/service.js';
import { SESSION_TTL_MS } from '#server/features/accounts/service.js';
import { forbidden } from '../http-error.js';

export const SESSION_COOKIE = 'ig_session';

export interface SessionUser {
  userId: string;
  email: string;
  /** One of the user's mailboxes waits for them to sign in to it again (read with the session). */
  reauthPending: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, looked up once per request on first use. */
    sessionUser(): Promise<SessionUser | undefined>;
    /**
     * The signed-in user of a route registered under `requireSession` (routes/signed-in.ts), which
     * answered 403 before the handler when there was none. Reading it elsewhere is a programming error.
     */
    readonly user: SessionUser;
  }
  interface FastifyReply {
    startSession(token: string): FastifyReply;
    endSession(): FastifyReply;
  }
}

/** The users `requireSession` found, by request: what `request.user` reads. */
const signedIn = new WeakMap<FastifyRequest, SessionUser>();

/**
 * The hook of the signed-in routes (routes/signed-in.ts): sets `request.user`, or answers 403
 * `{message}` without a session (docs/decisions/003-signed-out-calls-answer-403.md).
 */
export async function requireSession(request: FastifyRequest): Promise<void> {
  const user = await request.sessionUser();
  if (!user) throw forbidden(MESSAGES.notSignedIn);
  signedIn.set(request, user);
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
  app.decorateRequest('user', {
    getter(this: FastifyRequest) {
      const user = signedIn.get(this);
      if (!user) throw new Error(`request.user read outside the signed-in routes (${this.url})`);
      return user;
    },
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
