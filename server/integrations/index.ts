import type { z } from 'zod';
import { type AnalyticsConfig, analytics } from './analytics.js';
import { type ContentfulConfig, contentful } from './contentful.js';
import { type GoogleConfig, google } from './google.js';
import type { Env, Integration } from './integration.js';
import { type MicrosoftConfig, microsoft } from './microsoft.js';
import { type StripeConfig, stripe } from './stripe.js';

// Every integration, in one list: config parsing reads each one's slice of the environment, start-up logs
// the ones that are off with the variables that would turn them on. A new one is one
// module beside these, one entry here and one part of IntegrationsConfig.

export type { Integration };
export { analytics, contentful, google, microsoft, stripe };

export const INTEGRATIONS = [google, microsoft, stripe, analytics, contentful] as const;

/** The part of Config the integrations own. */
export type IntegrationsConfig = GoogleConfig &
  MicrosoftConfig &
  StripeConfig &
  AnalyticsConfig &
  ContentfulConfig;

/** Each integration's slice of `env`, merged; or every issue found, so one start shows them all. */
export function parseIntegrations(
  env: Env,
): { success: true; data: IntegrationsConfig } | { success: false; issues: z.core.$ZodIssue[] } {
  const data: Partial<IntegrationsConfig> = {};
  const issues: z.core.$ZodIssue[] = [];
  for (const integration of INTEGRATIONS) {
    const parsed = (integration as Integration).env.safeParse(env);
    if (parsed.success) Object.assign(data, parsed.data);
    else issues.push(...parsed.error.issues);
  }
  return issues.length > 0 ? { success: false, issues } : { success: true, data: data as IntegrationsConfig };
}

/** The integrations this config leaves off, with the variables that would turn each on (for the log). */
export function disabledIntegrations(
  config: IntegrationsConfig,
): { label: string; required: readonly string[] }[] {
  return INTEGRATIONS.filter(
    (integration) => !(integration as Integration<IntegrationsConfig>).enabled(config),
  ).map(({ label, required }) => ({ label, required }));
}
