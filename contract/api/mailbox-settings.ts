import { z } from 'zod';
import { MESSAGES, validateEmail } from '../validation.js';
import { rule } from './rule.js';

// GET /mailbox-settings?email=: the IMAP server suggested for an address on the add-mailbox form of
// "another IMAP host", found from the address's domain (docs/decisions/103-imap-settings-found-from-the-address.md).

export const mailboxSettingsQuerySchema = z
  .object({ email: z.string({ error: MESSAGES.invalidEmail }).trim().max(320) })
  .superRefine((q, ctx) => {
    rule(ctx, 'email', validateEmail(q.email));
  });
export type MailboxSettingsQuery = z.infer<typeof mailboxSettingsQuerySchema>;

export const imapSettingsSchema = z.object({
  host: z.string(),
  port: z.number().int().min(1).max(65535),
  /** true: TLS from the first byte (port 993); false: STARTTLS. */
  secure: z.boolean(),
});

/**
 * `source`: the domain's SRV records (RFC 6186), its autoconfig file, or the product's built-in table;
 * both null when nothing was found (or the lookups failed, timed out, or named a private address).
 */
export const mailboxSettingsResponseSchema = z.object({
  imap: imapSettingsSchema.nullable(),
  source: z.enum(['srv', 'autoconfig', 'table']).nullable(),
});
export type MailboxSettingsResponse = z.infer<typeof mailboxSettingsResponseSchema>;
