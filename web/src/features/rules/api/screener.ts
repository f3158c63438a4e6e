import { putScreenerResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/**
 * Turns one mailbox's Screener on or off (PUT /screener); answers the switch as stored and, when turned
 * off, how many screened messages went back to the inbox.
 */
export const putScreener = (email: string, enabled: boolean) =>
  api.put(API.screener, { email, enabled }, putScreenerResponseSchema);
