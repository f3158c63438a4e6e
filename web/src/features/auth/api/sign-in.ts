import { authResponseSchema, type CredentialsBody, signinResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/**
 * Signs in with email and password (POST /auth/signin): where to go next, or `{totpRequired}` when the
 * account has two-step sign-in (no session yet; a short-lived cookie ties the second step to this browser).
 */
export const signIn = (body: CredentialsBody) => api.post(API.signin, body, signinResponseSchema);

/** The second step (POST /auth/signin/totp): an authenticator app's code or a recovery code. */
export const signInWithCode = (code: string) => api.post(API.signinTotp, { code }, authResponseSchema);
