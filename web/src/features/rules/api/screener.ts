import { putScreenerResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { writeJson } from './write';

/**
 * Turns one mailbox's Screener on or off (PUT /screener); answers the switch as stored and, when turned
 * off, how many screened messages went back to the inbox.
 */
export const putScreener = (email: string, enabled: boolean) =>
  writeJson('PUT', API.screener, { email, enabled }, putScreenerResponseSchema);
