import { z } from 'zod';

// Public configuration: GET /get-public-config

const availabilitySchema = z.object({ available: z.boolean(), reason: z.string().optional() });

/** What the screens may know about the server's configuration. */
export const publicConfigSchema = z.object({
  providers: z.object({ google: availabilitySchema, outlook: availabilitySchema }),
  /** Whether plans are sold here (Stripe configured); off: no limits, /pricing is information only. */
  billing: z.boolean(),
  /** GA4 measurement id; null: no analytics at all (nothing loaded, no consent banner). */
  gaMeasurementId: z.string().nullable(),
  productName: z.string(),
  /** Base URL of the sender-logo service (`<base>/<domain>`); null: always the default image. */
  logoBaseUrl: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
