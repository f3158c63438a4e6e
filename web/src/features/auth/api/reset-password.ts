import type { ResetPasswordBody } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/** Mails a link to choose a new password (the answer is the same whether the address has an account). */
export const forgotPassword = (email: string) => api.send('POST', API.forgotPassword, { email });

/**
 * Sets the new password with the mailed link's token; an account with two-step sign-in needs its `code`
 * too (a 401 `{message, totpRequired}` asks for it).
 */
export const resetPassword = (body: ResetPasswordBody) => api.send('POST', API.resetPassword, body);
