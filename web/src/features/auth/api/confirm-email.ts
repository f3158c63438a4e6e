import { authResponseSchema, type ConfirmEmailBody } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/**
 * Proves the account's address with the sign-up mail's token (POST /auth/verify-email); the password too
 * unless this browser is signed in to that account. Answers where to go next.
 */
export const confirmEmail = (body: ConfirmEmailBody) => api.post(API.verifyEmail, body, authResponseSchema);
