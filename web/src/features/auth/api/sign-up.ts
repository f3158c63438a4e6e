import { authResponseSchema, type CredentialsBody } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/** Creates an account with email and password (POST /auth/signup); answers where to go next. */
export const signUp = (body: CredentialsBody) => api.post(API.signup, body, authResponseSchema);
