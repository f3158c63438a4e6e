import { z } from 'zod';
import type { Integration } from './integration.js';

// Google Analytics 4: loaded in the browser only when GA_MEASUREMENT_ID is set and the visitor accepted the
// consent banner; the Content-Security-Policy allows Google's hosts only then.

const analyticsEnv = z
  .object({
    GA_MEASUREMENT_ID: z
      .string()
      .trim()
      .regex(/^(G-[A-Z0-9]{4,20})?$/, 'GA_MEASUREMENT_ID looks like G-XXXXXXXXXX')
      .optional(),
  })
  .transform((e) => ({ gaMeasurementId: e.GA_MEASUREMENT_ID ? e.GA_MEASUREMENT_ID : null }));

export type AnalyticsConfig = z.output<typeof analyticsEnv>;

export const analytics: Integration<AnalyticsConfig> = {
  label: 'Google Analytics',
  required: ['GA_MEASUREMENT_ID'],
  env: analyticsEnv,
  enabled: (config) => config.gaMeasurementId !== null,
  unavailableText: 'Analytics are off on this server.',
};
