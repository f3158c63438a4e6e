import { z } from 'zod';
import type { OAuthClient } from '../mail/shared/oauth-client.js';
import { allOrNone, type Env, type Integration, isSet } from './integration.js';

// An OAuth client registered with a provider (Google, Microsoft): <PREFIX>_CLIENT_ID and
// <PREFIX>_CLIENT_SECRET turn it on, together or not at all; <PREFIX>_BASE_URL moves every call to the
// provider to one origin (an emulator or fake in tests) and does not turn it on by itself.

/** The part of Config one OAuth client owns: `google` and `googleBaseUrl`, say. */
export type OAuthClientConfig<Key extends string> = { [K in Key]: OAuthClient | null } & {
  /** One origin for every call to the provider (tests); null for the provider itself. */
  [K in `${Key}BaseUrl`]: string | null;
};

export interface OAuthClientSpec<Key extends string> {
  /** Its key in Config (`google`), and `<key>BaseUrl` beside it. */
  key: Key;
  /** Its variables' prefix (`GOOGLE`). */
  prefix: string;
  /** What users and operators call the provider. */
  label: string;
  unavailableText: string;
}

export function oauthClientIntegration<Key extends string>(
  spec: OAuthClientSpec<Key>,
): Integration<OAuthClientConfig<Key>> {
  const id = `${spec.prefix}_CLIENT_ID`;
  const secret = `${spec.prefix}_CLIENT_SECRET`;
  const baseUrl = `${spec.prefix}_BASE_URL`;
  const required = [id, secret] as const;
  const env = z
    .object({
      [id]: z.string().optional(),
      [secret]: z.string().optional(),
      [baseUrl]: z
        .url({
          protocol: /^https?$/,
          error: `${baseUrl} must be an http(s) URL (leave it unset for ${spec.label})`,
        })
        .optional(),
    })
    .superRefine(allOrNone(spec.label, required))
    .transform((e: Env) => {
      const clientId = e[id];
      const clientSecret = e[secret];
      return {
        [spec.key]: isSet(clientId) && isSet(clientSecret) ? { clientId, clientSecret } : null,
        [`${spec.key}BaseUrl`]: e[baseUrl] ? e[baseUrl].replace(/\/+$/, '') : null,
      } as OAuthClientConfig<Key>;
    });
  return {
    label: spec.label,
    required,
    env,
    enabled: (config) => config[spec.key] !== null,
    unavailableText: spec.unavailableText,
  };
}
