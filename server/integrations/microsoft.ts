import { z } from 'zod';
import { allOrNone, type Integration, isSet } from './integration.js';

// Microsoft: Outlook mailboxes and sign-in with Microsoft (an Entra app registration, "Web" platform,
// redirect URI <PUBLIC_URL>/auth/outlook/callback). MICROSOFT_BASE_URL moves Graph and the identity
// platform to one origin (a fake in tests); it does not turn Microsoft on by itself.

const REQUIRED = ['MICROSOFT_CLIENT_ID', 'MICROSOFT_CLIENT_SECRET'] as const;

const microsoftEnv = z
  .object({
    MICROSOFT_CLIENT_ID: z.string().optional(),
    MICROSOFT_CLIENT_SECRET: z.string().optional(),
    MICROSOFT_BASE_URL: z
      .url({
        protocol: /^https?$/,
        error: 'MICROSOFT_BASE_URL must be an http(s) URL (leave it unset for Microsoft)',
      })
      .optional(),
  })
  .superRefine(allOrNone('Microsoft', REQUIRED))
  .transform((e) => ({
    microsoft:
      isSet(e.MICROSOFT_CLIENT_ID) && isSet(e.MICROSOFT_CLIENT_SECRET)
        ? { clientId: e.MICROSOFT_CLIENT_ID, clientSecret: e.MICROSOFT_CLIENT_SECRET }
        : null,
    /** One origin for Graph and the identity platform (tests); null for Microsoft itself. */
    microsoftBaseUrl: e.MICROSOFT_BASE_URL ? e.MICROSOFT_BASE_URL.replace(/\/+$/, '') : null,
  }));

export type MicrosoftConfig = z.output<typeof microsoftEnv>;

export const microsoft: Integration<MicrosoftConfig> = {
  label: 'Microsoft',
  required: REQUIRED,
  env: microsoftEnv,
  enabled: (config) => config.microsoft !== null,
  unavailableText: 'Microsoft sign-in is not set up on this server.',
};
