import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/** Ends the session (POST /auth/logout). */
export const logOut = () => api.send('POST', API.logout);
