import { z } from 'zod';

// A passkey as its owner sees it (Settings, the data export): no key material. A module of its own so the
// export's schema can name it without bringing the rest of contract/api/security.ts into the signed-in
// first load (e2e/budget.e2e.test.ts).

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;
