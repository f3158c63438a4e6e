import type { ContactBody } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/** Sends the Contact Us message to the team (POST /send-email). */
export const sendEmail = (body: ContactBody) => api.send('POST', API.sendEmail, body);
