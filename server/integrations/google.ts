import { z } from 'zod';
import { allOrNone, type Integration, isSet } from './integration.js';

// Google: Gmail mailboxes and sign-in with Google (one OAuth client, "Web application", redirect URI
// <PUBLIC_URL>/auth/google/callback). GOOGLE_BASE_URL moves every Google call to one origin (the emulator
// in tests); it does not turn Google on by itself.

const REQUIRED = ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'] as const;

const googleEnv = z
  .object({
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    GOOGLE_BASE_URL: z
      .url({
        protocol: /^https?$/,
        error: 'GOOGLE_BASE_URL must be an http(s) URL (leave it unset for Google)',
      })
      .optional(),
  })
  .superRefine(allOrNone('Google', REQUIRED))
  .transform((e) => ({
    google:
      isSet(e.GOOGLE_CLIENT_ID) && isSet(e.GOOGLE_CLIENT_SECRET)
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET }
        : null,
    /** One origin for every Google call (the emulator in tests); null for Google itself. */
    googleBaseUrl: e.GOOGLE_BASE_URL ? e.GOOGLE_BASE_URL.replace(/\/+$/, '') : null,
  }));

export type GoogleConfig = z.output<typeof googleEnv>;

export const google: Integration<GoogleConfig> = {
  label: 'Google',
  required: REQUIRED,
  env: googleEnv,
  enabled: (config) => config.google !== null,
  unavailableText: 'Google sign-in is not set up on this server.',
};
