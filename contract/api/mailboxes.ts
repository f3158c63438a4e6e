import { z } from 'zod';
import {
  APP_PASSWORD_PROVIDERS,
  type AppPasswordProvider,
  imapServerRule,
  MAILBOX_PROVIDERS,
  type MailboxProvider,
} from '../providers.js';
import { IMAP_MESSAGES, MESSAGES, validateAddMailbox, validateImapServer } from '../validation.js';
import { rule } from './rule.js';

// Mailboxes: POST /auth/{provider}, GET /get-email-accounts, DELETE /delete-email-account

// The providers are the rows of providers.ts; the ids are re-exported here beside the schemas that
// use them.
export { APP_PASSWORD_PROVIDERS, type AppPasswordProvider, MAILBOX_PROVIDERS, type MailboxProvider };
export const mailboxProviderSchema = z.enum(MAILBOX_PROVIDERS);

/** The fields of the add-mailbox form, whatever the provider. */
export const addMailboxFieldsSchema = z.object({
  email: z.string({ error: MESSAGES.invalidEmail }),
  appPassword: z.string({ error: MESSAGES.appPasswordRequired }),
  /** Only for the providers whose form asks where the IMAP server is (`imap`, `protonmail`). */
  host: z.string().max(253).optional(),
  port: z.number({ error: IMAP_MESSAGES.portInvalid }).optional(),
  /** true: TLS from the start (port 993); false: plain, upgraded with STARTTLS when offered. */
  secure: z.boolean().optional(),
});
export type AddMailboxBody = z.infer<typeof addMailboxFieldsSchema>;

/**
 * POST /auth/{provider}: the provider's own address rule, then the app password, then the IMAP server:
 * always for a provider whose form requires it (`imap`), when a host is given for one where it is
 * optional (`protonmail`, whose preset is used otherwise).
 */
export function addMailboxBodySchema(provider: AppPasswordProvider) {
  return addMailboxFieldsSchema.superRefine((b, ctx) => {
    const message = validateAddMailbox({ provider, email: b.email, appPassword: b.appPassword });
    if (message) {
      rule(ctx, message === MESSAGES.appPasswordRequired ? 'appPassword' : 'email', message);
      return;
    }
    const server = imapServerRule(provider);
    if (server === 'required' || (server === 'optional' && b.host !== undefined)) {
      const serverMessage = validateImapServer({ host: b.host ?? '', port: b.port ?? 993 });
      rule(ctx, serverMessage === IMAP_MESSAGES.portInvalid ? 'port' : 'host', serverMessage);
    }
  });
}

export const removeMailboxBodySchema = z.object({ email: z.string({ error: MESSAGES.invalidEmail }) });
export type RemoveMailboxBody = z.infer<typeof removeMailboxBodySchema>;

export const emailAccountSchema = z.object({
  email: z.string(),
  provider: mailboxProviderSchema,
  /** active; scanning; reauth (the password or grant no longer works); error (last check failed) */
  status: z.enum(['active', 'scanning', 'reauth', 'error']),
  lastScannedAt: z.string().nullable(),
  /** Why the last check failed, in words for the user (status reauth or error); null otherwise. */
  error: z.string().nullable(),
  /** When the mailbox was last checked successfully (the first scan included); null: never yet. */
  lastCheckedAt: z.string().nullable(),
  /** New senders' mail goes to the Screener folder until the user decides (PUT /screener). */
  screener: z.boolean(),
});
export type EmailAccount = z.infer<typeof emailAccountSchema>;

/** POST /mailboxes/check `{email}`: "Check now", a check of one mailbox queued at once (202). */
export const checkMailboxBodySchema = z.object({ email: z.string().trim().min(1).max(320) });
export const checkMailboxResponseSchema = z.object({ message: z.string() });

/** GET /get-email-accounts */
export const emailAccountsResponseSchema = z.object({ data: z.array(emailAccountSchema) });
export type EmailAccountsResponse = z.infer<typeof emailAccountsResponseSchema>;
