import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API } from '../../../contract/routes.js';
import { MESSAGES } from '../../../contract/validation.js';
import type { AccountsService } from '../../features/accounts/service.js';
import { SESSION_COOKIE } from '../plugins/session.js';
import { parseBody } from '../validate.js';

const Credentials = z.object({
  email: z.string({ error: MESSAGES.invalidEmail }),
  password: z.string({ error: MESSAGES.passwordRequired }),
});
const Forgot = z.object({ email: z.string({ error: MESSAGES.invalidEmail }) });
const Reset = z.object({
  token: z.string({ error: MESSAGES.resetTokenInvalid }),
  password: z.string({ error: MESSAGES.passwordTooShort }),
});

export interface AuthRouteOptions {
  accounts: AccountsService;
  rateLimit: { max: number; timeWindow: number };
}

export async function authRoutes(app: FastifyInstance, { accounts, rateLimit }: AuthRouteOptions) {
  // Password guessing and reset-mail flooding are limited per IP (AUTH_RATE_LIMIT).
  const limited = { config: { rateLimit } };

  app.post(API.signup, limited, async (request, reply) => {
    const session = await accounts.signup(parseBody(Credentials, request.body));
    reply.startSession(session.token);
    return { redirectUrl: session.redirectUrl };
  });

  app.post(API.signin, limited, async (request, reply) => {
    const session = await accounts.signin(parseBody(Credentials, request.body));
    reply.startSession(session.token);
    return { redirectUrl: session.redirectUrl };
  });

  app.post(API.logout, async (request, reply) => {
    await accounts.logout(request.cookies[SESSION_COOKIE]);
    reply.endSession();
    return { message: 'Signed out.' };
  });

  app.post(API.forgotPassword, limited, async (request) => {
    // The mail is sent after this answer; its failures go to this request's log.
    accounts.forgotPassword(parseBody(Forgot, request.body), request.log);
    return { message: 'If an account exists for this address, a reset link is on its way.' };
  });

  // A reset mail still being sent at shutdown is finished first, not dropped.
  app.addHook('onClose', async () => {
    await accounts.resetMailsSent();
  });

  app.post(API.resetPassword, limited, async (request) => {
    await accounts.resetPassword(parseBody(Reset, request.body), request.cookies[SESSION_COOKIE]);
    return { message: 'Your password has been reset. Please sign in.' };
  });
}
