import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authResponseSchema,
  codeBodySchema,
  idParamsSchema,
  messageResponseSchema,
  passkeyAuthenticationBodySchema,
  passkeyListSchema,
  passkeyRegistrationBodySchema,
  passkeySchema,
  recoveryCodesSchema,
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
      const outcome = await accounts.openSession(userId, reply.sessionMeta(), true);
      if ('secondStep' in outcome) throw new Error('A second step asked for a second step');
      reply.startSession(outcome.token);
      return { redirectUrl: outcome.redirectUrl };
    },
  );

  app.post(
    API.passkeyAuthenticationOptions,
    { config, schema: { response: { 200: webauthnOptionsSchema } } },
    async (_request, reply) => {
      const { options, token } = await security.passkeys.authenticationOptions();
      reply.setCookie(WEBAUTHN_COOKIE, token, ceremonyCookie(API.passkeyAuthentication));
      return options as unknown as Record<string, unknown>;
    },
  );

  app.post(
    API.passkeyAuthentication,
    { config, schema: { body: passkeyAuthenticationBodySchema, response: { 200: authResponseSchema } } },
    async (request, reply) => {
      const token = request.cookies[WEBAUTHN_COOKIE];
      reply.clearCookie(WEBAUTHN_COOKIE, ceremonyCookie(API.passkeyAuthentication));
      const userId = await security.passkeys.authenticate(token, request.body.response);
      // A passkey with user verification is two factors in one (the device and its PIN or biometric).
      const outcome = await accounts.openSession(userId, reply.sessionMeta(), true);
      if ('secondStep' in outcome) throw new Error('A passkey sign-in asked for a second step');
      if (await request.sessionUser()) await accounts.logout(request.cookies[SESSION_COOKIE]);
      reply.startSession(outcome.token);
      return { redirectUrl: outcome.redirectUrl };
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
      reply.setCookie(WEBAUTHN_COOKIE, token, ceremonyCookie(API.passkeyRegistration));
      return options as unknown as Record<string, unknown>;
    },
  );
  app.post(
    API.passkeyRegistration,
    { config, schema: { body: passkeyRegistrationBodySchema, response: { 200: passkeySchema } } },
    async (request, reply) => {
      const token = request.cookies[WEBAUTHN_COOKIE];
      reply.clearCookie(WEBAUTHN_COOKIE, ceremonyCookie(API.passkeyRegistration));
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
};
