import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authResponseSchema,
  confirmEmailBodySchema,
  forgotPasswordBodySchema,
  messageResponseSchema,
  resetPasswordBodySchema,
  signinBodySchema,
  signinResponseSchema,
  signupBodySchema,
  statusResponseSchema,
} from '#contract/api.js';
import { API, SCREENS } from '#contract/routes.js';
import type { AccountsService } from '#server/features/accounts/service.js';
import { SESSION_COOKIE } from '../plugins/session.js';

export interface AuthRouteOptions {
  accounts: AccountsService;
  rateLimit: { max: number; timeWindow: number };
}

// Signing up, in and out, and resetting a password: the calls made without a session.
export const authRoutes: FastifyPluginAsyncZod<AuthRouteOptions> = async (app, { accounts, rateLimit }) => {
  // Password guessing and reset-mail flooding are limited per IP (AUTH_RATE_LIMIT).
  const config = { rateLimit };
  const redirect = { 200: authResponseSchema };
  const message = { 200: messageResponseSchema };

  // Never fails: a signed-out browser is told `{status: false}`.
  app.get(API.signinStatus, { schema: { response: { 200: statusResponseSchema } } }, async (request) => ({
    status: (await request.sessionUser()) !== undefined,
  }));

  app.post(
    API.signup,
    { config, schema: { body: signupBodySchema, response: redirect } },
    async (request, reply) => {
      // Mails (the address's proof, or a notice to its owner) go after the answer, failures to this log.
      const session = await accounts.signup(request.body, request.log, reply.sessionMeta());
      reply.startSession(session.token);
      return { redirectUrl: session.redirectUrl };
    },
  );

  app.post(
    API.signin,
    { config, schema: { body: signinBodySchema, response: { 200: signinResponseSchema } } },
    async (request, reply) => {
      const outcome = await accounts.signin(request.body, reply.sessionMeta());
      if ('secondStep' in outcome) {
        reply.startSecondStep(outcome.secondStep);
        return { totpRequired: true as const };
      }
      reply.startSession(outcome.token);
      return { redirectUrl: outcome.redirectUrl };
    },
  );

  app.post(API.logout, { schema: { response: message } }, async (request, reply) => {
    await accounts.logout(request.cookies[SESSION_COOKIE]);
    reply.endSession();
    return { message: 'Signed out.' };
  });

  app.post(
    API.forgotPassword,
    { config, schema: { body: forgotPasswordBodySchema, response: message } },
    async (request) => {
      // The mail is sent after this answer; its failures go to this request's log.
      accounts.forgotPassword(request.body, request.log);
      return { message: 'If an account exists for this address, a reset link is on its way.' };
    },
  );

  // Links mailed before the confirm screen existed: a navigation that only leads there. Mail scanners and
  // link previews fetch links (GET and HEAD), so opening one must change nothing. The token travels in
  // the query, which logs leave out (app.ts).
  app.get<{ Querystring: { token?: string } }>(API.verifyEmail, { config }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const token = typeof request.query.token === 'string' ? request.query.token.slice(0, 200) : '';
    return reply.redirect(`${SCREENS.confirmEmail}?${new URLSearchParams({ token })}`);
  });

  // The confirm screen's button: the link's token, and the account's password unless this browser is
  // signed in to that account (docs/decisions/090-accounts-that-stay-their-owners.md).
  app.post(
    API.verifyEmail,
    { config, schema: { body: confirmEmailBodySchema, response: redirect } },
    async (request) => {
      const user = await request.sessionUser();
      const confirmed = await accounts.confirmEmail(request.body.token, {
        sessionUserId: user?.userId,
        password: request.body.password,
      });
      return {
        redirectUrl:
          user?.userId === confirmed
            ? `${SCREENS.subscriptions}?email=verified`
            : `${SCREENS.signinPassword}?email=verified`,
      };
    },
  );

  // A reset mail still being sent at shutdown is finished first, not dropped.
  app.addHook('onClose', async () => {
    await accounts.resetMailsSent();
  });

  app.post(
    API.resetPassword,
    { config, schema: { body: resetPasswordBodySchema, response: message } },
    async (request) => {
      await accounts.resetPassword(request.body, request.cookies[SESSION_COOKIE]);
      return { message: 'Your password has been reset. Please sign in.' };
    },
  );
};
