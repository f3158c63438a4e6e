import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API } from '#contract/routes.js';
import { MESSAGES } from '#contract/validation.js';
import type { AccountsService, SessionMeta } from '#server/features/accounts/service.js';
import { SESSION_TTL_MS } from '#server/features/accounts/service.js';
import { SECOND_STEP_TTL_MS } from '#server/features/security/totp.js';
import { randomToken } from '#server/lib/crypto.js';
import { forbidden } from '../http-error.js';

export const SESSION_COOKIE = 'ig_session';
/** A long-lived random id of the browser: a sign-in from one never seen for the account is told by mail. */
export const DEVICE_COOKIE = 'ig_device';
/** A sign-in waiting for its second factor (POST /auth/signin/totp), five minutes. */
export const SECOND_STEP_COOKIE = 'ig_second_step';
const DEVICE_MAX_AGE_S = 400 * 24 * 3600;

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
    /**
     * What the browser that signs in says of itself (accounts' SessionMeta): its User-Agent, and its device
     * id, given to it now (a cookie) when it has none.
     */
    sessionMeta(): SessionMeta;
    /** Keeps a sign-in waiting for its second factor in this browser. */
    startSecondStep(token: string): FastifyReply;
    endSecondStep(): FastifyReply;
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
  app.decorateReply('sessionMeta', function (this: FastifyReply): SessionMeta {
    const request = this.request;
    let device = request.cookies[DEVICE_COOKIE];
    if (!device || device.length > 100) {
      device = randomToken();
      this.setCookie(DEVICE_COOKIE, device, { ...cookieOptions, maxAge: DEVICE_MAX_AGE_S });
    }
    const userAgent = request.headers['user-agent'];
    return { device, userAgent: typeof userAgent === 'string' ? userAgent : null, log: request.log };
  });
  // Sent only to the second step's call; Lax, as Google's and Microsoft's callbacks set it on a navigation.
  const secondStepOptions = { ...cookieOptions, path: API.signinTotp };
  app.decorateReply('startSecondStep', function (this: FastifyReply, token: string) {
    return this.setCookie(SECOND_STEP_COOKIE, token, {
      ...secondStepOptions,
      maxAge: SECOND_STEP_TTL_MS / 1000,
    });
  });
  app.decorateReply('endSecondStep', function (this: FastifyReply) {
    return this.clearCookie(SECOND_STEP_COOKIE, secondStepOptions);
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
