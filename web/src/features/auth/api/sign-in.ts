import { authResponseSchema, type CredentialsBody } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/** Signs in with email and password (POST /auth/signin); answers where to go next. */
export const signIn = (body: CredentialsBody) => api.post(API.signin, body, authResponseSchema);
