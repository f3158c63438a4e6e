import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authResponseSchema,
  changePasswordBodySchema,
  codeBodySchema,
  idParamsSchema,
  messageResponseSchema,
  passkeyAuthenticationBodySchema,
  passkeyListSchema,
  passkeyRegistrationBodySchema,
  passkeySchema,
  recoveryCodesSchema,
  SECURITY_MESSAGES,
  sessionListSchema,
  totpSetupSchema,
  totpStatusSchema,
  webauthnOptionsSchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import type { AccountsService } from '#server/features/accounts/service.js';
import type { SecurityService } from '#server/features/security/service.js';
import { SECOND_STEP_COOKIE, SESSION_COOKIE } from '../plugins/session.js';

// Account security (docs/decisions/091-second-factors-passkeys-and-sessions.md). Signed out: the second
// step of a sign-in, and signing in with a passkey. Signed in (registered under signed-in.ts): two-step
// sign-in, passkeys and sessions.

export interface SecurityRouteOptions {
  accounts: AccountsService;
  security: SecurityService;
  rateLimit: { max: number; timeWindow: number };
}

/** Each WebAuthn ceremony's challenge is bound to the browser that asked for it (path: its second call). */
const WEBAUTHN_COOKIE = 'ig_webauthn';
// Secure whenever the request came over https (behind a proxy too, with TRUST_PROXY).
const ceremonyCookie = (path: string) => ({
  path,
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: 'auto' as const,
  maxAge: 300,
});

/** Hands the browser a ceremony's token, sent back only with the ceremony's second call (`path`). */
function giveCeremony(reply: FastifyReply, path: string, token: string): void {
  reply.setCookie(WEBAUTHN_COOKIE, token, ceremonyCookie(path));
}

/** The ceremony token the browser sent to `path`, spent: the cookie goes whatever happens next. */
function takeCeremony(request: FastifyRequest, reply: FastifyReply, path: string): string | undefined {
  reply.clearCookie(WEBAUTHN_COOKIE, ceremonyCookie(path));
  return request.cookies[WEBAUTHN_COOKIE];
}

export const signedOutSecurityRoutes: FastifyPluginAsyncZod<SecurityRouteOptions> = async (
  app,
  { accounts, security, rateLimit },
) => {
  const config = { rateLimit };

  app.post(
    API.signinTotp,
    { config, schema: { body: codeBodySchema, response: { 200: authResponseSchema } } },
    async (request, reply) => {
      const userId = await security.totp.completeSecondStep(
        request.cookies[SECOND_STEP_COOKIE],
        request.body.code,
      );
      reply.endSecondStep();
      const session = await accounts.openSessionPastSecondFactor(userId, reply.sessionMeta());
      reply.startSession(session.token);
      return { redirectUrl: session.redirectUrl };
    },
  );

  app.post(
    API.passkeyAuthenticationOptions,
    { config, schema: { response: { 200: webauthnOptionsSchema } } },
    async (_request, reply) => {
      const { options, token } = await security.passkeys.authenticationOptions();
      giveCeremony(reply, API.passkeyAuthentication, token);
      return options as unknown as Record<string, unknown>;
    },
  );

  app.post(
    API.passkeyAuthentication,
    { config, schema: { body: passkeyAuthenticationBodySchema, response: { 200: authResponseSchema } } },
    async (request, reply) => {
      const token = takeCeremony(request, reply, API.passkeyAuthentication);
      const userId = await security.passkeys.authenticate(token, request.body.response);
      const session = await accounts.openSessionPastSecondFactor(userId, reply.sessionMeta());
      if (await request.sessionUser()) await accounts.logout(request.cookies[SESSION_COOKIE]);
      reply.startSession(session.token);
      return { redirectUrl: session.redirectUrl };
    },
  );
};

export const signedInSecurityRoutes: FastifyPluginAsyncZod<SecurityRouteOptions> = async (
  app,
  { security, rateLimit },
) => {
  const config = { rateLimit };
  const message = { 200: messageResponseSchema };

  app.get(API.totp, { schema: { response: { 200: totpStatusSchema } } }, async (request) =>
    security.totp.status(request.user.userId),
  );
  app.post(API.totpSetup, { config, schema: { response: { 200: totpSetupSchema } } }, async (request) =>
    security.totp.setup(request.user.userId),
  );
  app.post(
    API.totpEnable,
    { config, schema: { body: codeBodySchema, response: { 200: recoveryCodesSchema } } },
    async (request) => security.totp.enable(request.user.userId, request.body.code),
  );
  app.delete(API.totp, { config, schema: { body: codeBodySchema, response: message } }, async (request) => {
    await security.totp.disable(request.user.userId, request.body.code);
    return { message: 'Two-step sign-in is off.' };
  });

  app.get(API.passkeys, { schema: { response: { 200: passkeyListSchema } } }, async (request) => ({
    data: await security.passkeys.list(request.user.userId),
  }));
  app.post(
    API.passkeyRegistrationOptions,
    { config, schema: { response: { 200: webauthnOptionsSchema } } },
    async (request, reply) => {
      const { options, token } = await security.passkeys.registrationOptions(request.user.userId);
      giveCeremony(reply, API.passkeyRegistration, token);
      return options as unknown as Record<string, unknown>;
    },
  );
  app.post(
    API.passkeyRegistration,
    { config, schema: { body: passkeyRegistrationBodySchema, response: { 200: passkeySchema } } },
    async (request, reply) => {
      const token = takeCeremony(request, reply, API.passkeyRegistration);
      return security.passkeys.register(request.user.userId, token, request.body.response, request.body.name);
    },
  );
  app.delete(
    `${API.passkeys}/:id`,
    { schema: { params: idParamsSchema, response: message } },
    async (request) => {
      await security.passkeys.remove(request.user.userId, request.params.id);
      return { message: 'The passkey is removed.' };
    },
  );

  app.get(API.sessions, { schema: { response: { 200: sessionListSchema } } }, async (request) => ({
    data: await security.sessions.list(request.user.userId, request.cookies[SESSION_COOKIE]),
  }));
  app.delete(
    `${API.sessions}/:id`,
    { schema: { params: idParamsSchema, response: message } },
    async (request) => {
      await security.sessions.revoke(request.user.userId, request.params.id);
      return { message: 'That session is signed out.' };
    },
  );
  app.post(API.revokeOtherSessions, { schema: { response: message } }, async (request) => {
    await security.sessions.revokeOthers(request.user.userId, request.cookies[SESSION_COOKIE]);
    return { message: 'Every other session is signed out.' };
  });

  // A wrong current password is 400 (the session is fine, the field is wrong), rate-limited per IP like
  // the other calls that check a secret, and counted per account (features/security/password.ts).
  app.post(
    API.changePassword,
    { config, schema: { body: changePasswordBodySchema, response: message } },
    async (request) => {
      await security.password.change(request.user.userId, request.cookies[SESSION_COOKIE], request.body);
      return { message: SECURITY_MESSAGES.passwordChanged };
    },
  );
};
