import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_EVENT_COOKIE,
  authEventValue,
  oauthCallbackQuerySchema,
  oauthStartQuerySchema,
} from '#contract/api.js';
import type { OAuthErrorCode } from '#contract/oauth-errors.js';
import { SCREENS } from '#contract/routes.js';
import type { AccountsService } from '#server/features/accounts/service.js';
import {
  decodeFlow,
  encodeFlow,
  FLOW_TTL_MS,
  flowCookieName,
  sameState,
} from '#server/features/oauth/flow.js';
import {
  OAUTH_INTEGRATIONS,
  OAUTH_PROVIDERS,
  type OAuthIntent,
  type OAuthProviderName,
} from '#server/features/oauth/providers.js';
import { OAuthFailure, type OAuthService } from '#server/features/oauth/service.js';
import { NotFoundError } from '#server/lib/errors.js';
import { SESSION_COOKIE } from '../plugins/session.js';

// GET /auth/{google|outlook}?intent=signin|signup|add → the provider's consent screen;
// GET /auth/{google|outlook}/callback?code&state (or ?error) → back into the product.
// Browser navigations, not API calls: every outcome is a redirect, except an unknown intent (400 {message},
// from the contract's query schema). A provider is given these routes only when its integration is
// configured; without keys its two paths answer 404 with the user-facing reason whatever the query, and
// the log names the variables that would turn it on.

export interface OAuthRouteOptions {
  oauth: OAuthService;
  accounts: AccountsService;
  secureCookies: boolean;
  /** AUTH_RATE_LIMIT: each callback costs a call to the provider's token endpoint. */
  rateLimit: { max: number; timeWindow: number };
}

/**
 * Where a failed sign-in lands: the picker it started from, with the reason as a code the screen turns
 * into one of its own sentences. Never free text: a crafted link must not make the product say anything.
 */
function failureUrl(intent: OAuthIntent, provider: OAuthProviderName, reason: OAuthErrorCode): string {
  const screen = intent === 'add' ? SCREENS.accounts : SCREENS.signin;
  return `${screen}?${new URLSearchParams({ error: 'oauth', reason, provider })}`;
}

/** What one provider's two handlers share: the services, and the cookie that carries its flow. */
interface ProviderRoute {
  provider: OAuthProviderName;
  oauth: OAuthService;
  accounts: AccountsService;
  secureCookies: boolean;
  cookie: string;
  cookieOptions: { path: string; httpOnly: true; sameSite: 'lax'; secure: boolean };
}

/** The callback's query as the contract's schema gives it (a value given twice counts as absent). */
interface CallbackQuery {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
  error_description?: string | undefined;
}

/** Both paths of a provider whose integration is not configured: 404 with the reason, and a log line. */
function registerUnavailable(
  app: Parameters<FastifyPluginAsyncZod<OAuthRouteOptions>>[0],
  provider: OAuthProviderName,
  unavailable: string,
): void {
  const { label, required } = OAUTH_INTEGRATIONS[provider];
  const answer = async (request: FastifyRequest) => {
    request.log.info(
      { provider, variables: required },
      `${label} is off on this server: set ${required.join(' and ')} to turn it on`,
    );
    throw new NotFoundError(unavailable);
  };
  app.get(`/auth/${provider}`, answer);
  app.get(`/auth/${provider}/callback`, answer);
}

/** GET /auth/<provider>: remembers the flow in a signed cookie and sends the browser to the consent screen. */
async function startFlow(
  { provider, oauth, cookie, cookieOptions }: ProviderRoute,
  request: FastifyRequest,
  reply: FastifyReply,
  intent: OAuthIntent,
): Promise<FastifyReply> {
  const user = await request.sessionUser();
  if (intent === 'add' && !user) return reply.redirect(SCREENS.signin);
  const { flow, url } = oauth.begin(provider, intent, user?.userId ?? null);
  reply.header('cache-control', 'no-store');
  reply.setCookie(cookie, encodeFlow(flow), {
    ...cookieOptions,
    signed: true,
    maxAge: FLOW_TTL_MS / 1000,
  });
  return reply.redirect(url);
}

/** GET /auth/<provider>/callback: checks the flow, completes it with the provider, lands in the product. */
async function finishFlow(
  route: ProviderRoute,
  request: FastifyRequest,
  reply: FastifyReply,
  query: CallbackQuery,
): Promise<FastifyReply> {
  const { provider, oauth, accounts, secureCookies, cookie, cookieOptions } = route;
  reply.header('cache-control', 'no-store');
  // One attempt per started flow: whatever happens next, the cookie is spent.
  reply.clearCookie(cookie, cookieOptions);
  const raw = request.cookies[cookie];
  const unsigned = raw ? request.unsignCookie(raw) : null;
  const flow = unsigned?.valid && unsigned.value ? decodeFlow(unsigned.value, provider, Date.now()) : null;
  const user = await request.sessionUser();
  const fail = (intent: OAuthIntent, reason: OAuthErrorCode, detail?: string): FastifyReply => {
    request.log.warn({ provider, intent, reason, detail }, 'oauth sign-in failed');
    return reply.redirect(failureUrl(intent, provider, reason));
  };

  if (!flow || !sameState(flow.state, query.state)) {
    return fail(
      flow?.intent ?? (user ? 'add' : 'signin'),
      'expired',
      flow ? 'state mismatch' : 'no valid flow cookie',
    );
  }
  const { error, code } = query;
  if (error) {
    return fail(
      flow.intent,
      error === 'access_denied' ? 'denied' : 'refused',
      `${error}: ${query.error_description ?? ''}`,
    );
  }
  if (!code) return fail(flow.intent, 'no_code');
  if (flow.intent === 'add') {
    // The mailbox goes to whoever started adding it, and only while they are still signed in.
    if (!user) return reply.redirect(SCREENS.signin);
    if (user.userId !== flow.userId) return fail('add', 'other_user');
  }

  let done: Awaited<ReturnType<OAuthService['complete']>>;
  try {
    done = await oauth.complete(flow, code, reply.sessionMeta());
  } catch (err) {
    if (err instanceof OAuthFailure) return fail(flow.intent, err.code, err.detail);
    throw err;
  }
  if (done.secondStep) {
    // Two-step sign-in is on: the code is asked before any session (its screen posts it).
    reply.startSecondStep(done.secondStep);
    request.log.info(
      { provider, intent: flow.intent, userId: done.userId },
      'oauth sign-in waits for its code',
    );
    return reply.redirect(SCREENS.signinTotp);
  }
  if (done.sessionToken) {
    // Signing in as this account replaces whatever session the browser had.
    if (user) await accounts.logout(request.cookies[SESSION_COOKIE]);
    reply.startSession(done.sessionToken);
    // For the page's analytics (sent only with the visitor's consent): what this sign-in was.
    reply.setCookie(
      AUTH_EVENT_COOKIE,
      authEventValue({
        event: done.userCreated ? 'sign_up' : 'login',
        method: provider === 'google' ? 'Google' : 'Microsoft',
      }),
      { path: '/', sameSite: 'lax', secure: secureCookies, httpOnly: false, maxAge: 60 },
    );
  }
  request.log.info(
    {
      provider,
      intent: flow.intent,
      userId: done.userId,
      mailboxId: done.mailboxId,
      created: done.userCreated,
      tookOver: done.tookOver,
    },
    'oauth sign-in completed',
  );
  // The owner is told on screen that the password someone had set for the address is gone.
  return reply.redirect(done.tookOver ? `${SCREENS.subscriptions}?account=secured` : SCREENS.subscriptions);
}

export const oauthRoutes: FastifyPluginAsyncZod<OAuthRouteOptions> = async (
  app,
  { oauth, accounts, secureCookies, rateLimit },
) => {
  for (const provider of OAUTH_PROVIDERS) {
    const unavailable = oauth.unavailable(provider);
    if (unavailable) {
      registerUnavailable(app, provider, unavailable);
      continue;
    }
    const route: ProviderRoute = {
      provider,
      oauth,
      accounts,
      secureCookies,
      cookie: flowCookieName(provider),
      // Lax: the callback is a top-level GET navigation from the provider, which Lax cookies accompany.
      cookieOptions: { path: `/auth/${provider}`, httpOnly: true, sameSite: 'lax', secure: secureCookies },
    };
    app.get(`/auth/${provider}`, { schema: { querystring: oauthStartQuerySchema } }, (request, reply) =>
      startFlow(route, request, reply, request.query.intent),
    );
    app.get(
      `/auth/${provider}/callback`,
      { config: { rateLimit }, schema: { querystring: oauthCallbackQuerySchema } },
      (request, reply) => finishFlow(route, request, reply, request.query),
    );
  }
};
