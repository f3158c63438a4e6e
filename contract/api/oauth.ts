import { z } from 'zod';

// Sign-in with Google or Microsoft: browser navigations, answered with redirects

export const OAUTH_INTENTS = ['signin', 'signup', 'add'] as const;

export {
  AUTH_EVENT_COOKIE,
  AUTH_EVENTS,
  AUTH_METHODS,
  type AuthEvent,
  authEventValue,
  parseAuthEvent,
} from '../analytics.js';

/** GET /auth/{google|outlook}?intent=signin|signup|add (default signin). */
export const oauthStartQuerySchema = z.object({
  intent: z
    .enum(OAUTH_INTENTS, {
      error: (issue) => `Unknown intent ${String(issue.input)}: use signin, signup or add.`,
    })
    .default('signin'),
});

/**
 * GET /auth/{google|outlook}/callback?code&state (or ?error). A value given twice (an array) or of
 * another type counts as absent: the flow then fails with a redirect, never a JSON error.
 */
const callbackParam = z.string().optional().catch(undefined);
export const oauthCallbackQuerySchema = z.object({
  code: callbackParam,
  state: callbackParam,
  error: callbackParam,
  error_description: callbackParam,
});
