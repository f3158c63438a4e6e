import { z } from 'zod';
import {
  APP_PASSWORD_PROVIDERS,
  type AppPasswordProvider,
  imapServerRule,
  MAILBOX_PROVIDERS,
  type MailboxProvider,
} from './providers.js';
import {
  IMAP_MESSAGES,
  MESSAGES,
  validateAddMailbox,
  validateContactFrom,
  validateEmail,
  validateImapServer,
  validateNewPassword,
  validateSignin,
} from './validation.js';

// Request and response shapes of the HTTP API, as zod schemas: the server's routes validate bodies,
// queries and params with them and whitelist their answers through them; both sides use the types
// inferred from them. The rules and their messages are in validation.ts.
//
// Request schemas check the types of the fields first (`z.string({ error })`: a missing or non-string
// field answers that field's message) and the rules second, in an object-level `superRefine`, which zod
// runs only once every field has the right type. That keeps the order the API always answered in: a
// missing password says "Password is required." even when the email next to it is malformed too.

/** Adds the first rule that fails as an issue on `path` (the rules answer a message or null). */
function rule(ctx: z.RefinementCtx, path: string, message: string | null): boolean {
  if (message === null) return true;
  ctx.addIssue({ code: 'custom', message, path: [path] });
  return false;
}

// ---------------------------------------------------------------------------------------------------
// Shared answers

export const errorBodySchema = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const statusResponseSchema = z.object({ status: z.boolean() });
export type StatusResponse = z.infer<typeof statusResponseSchema>;

export const csrfTokenResponseSchema = z.object({ csrfToken: z.string() });
export type CsrfTokenResponse = z.infer<typeof csrfTokenResponseSchema>;

// ---------------------------------------------------------------------------------------------------
// Accounts: POST /auth/signup, /auth/signin, /auth/forgot-password, /auth/reset-password

/** POST /auth/signup: a valid address and a password of at least 8 characters. */
export const signupBodySchema = z
  .object({
    email: z.string({ error: MESSAGES.invalidEmail }),
    password: z.string({ error: MESSAGES.passwordRequired }),
  })
  .superRefine((b, ctx) => {
    rule(ctx, 'email', validateEmail(b.email)) && rule(ctx, 'password', validateNewPassword(b.password));
  });

/** POST /auth/signin: a valid address and any non-empty password. */
export const signinBodySchema = z
  .object({
    email: z.string({ error: MESSAGES.invalidEmail }),
    password: z.string({ error: MESSAGES.passwordRequired }),
  })
  .superRefine((b, ctx) => {
    const message = validateSignin(b);
    if (message) rule(ctx, message === MESSAGES.passwordRequired ? 'password' : 'email', message);
  });

/** Both credential forms send the same fields. */
export type CredentialsBody = z.infer<typeof signinBodySchema>;

export const authResponseSchema = z.object({ redirectUrl: z.string() });
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const forgotPasswordBodySchema = z
  .object({ email: z.string({ error: MESSAGES.invalidEmail }) })
  .superRefine((b, ctx) => {
    rule(ctx, 'email', validateEmail(b.email));
  });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

/** POST /auth/reset-password: the new password's rule comes first, then the token must be there. */
export const resetPasswordBodySchema = z
  .object({
    token: z.string({ error: MESSAGES.resetTokenInvalid }),
    password: z.string({ error: MESSAGES.passwordTooShort }),
  })
  .superRefine((b, ctx) => {
    rule(ctx, 'password', validateNewPassword(b.password)) &&
      rule(ctx, 'token', b.token ? null : MESSAGES.resetTokenInvalid);
  });
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

// ---------------------------------------------------------------------------------------------------
// Settings: GET /get-settings, PUT /update-settings

export const settingsSchema = z.object({
  alertManualUnsubscribe: z.boolean({ error: 'alertManualUnsubscribe must be true or false.' }),
  alertAfterUnsubscribe: z.boolean({ error: 'alertAfterUnsubscribe must be true or false.' }),
  /** Block senders whose mail still arrives after the grace period; default false. */
  autoBlockStillSending: z.boolean({ error: 'autoBlockStillSending must be true or false.' }),
});
export type Settings = z.infer<typeof settingsSchema>;

/** PUT /update-settings: `autoBlockStillSending` may be left out (older clients); it keeps its value. */
export const settingsUpdateSchema = settingsSchema.extend({
  autoBlockStillSending: settingsSchema.shape.autoBlockStillSending.optional(),
});
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

// ---------------------------------------------------------------------------------------------------
// Contact form: POST /send-email

export const contactBodySchema = z
  .object({
    /** "Name <address>" or a bare address. */
    from: z.string({ error: MESSAGES.contactIncomplete }),
    subject: z.string({ error: MESSAGES.contactIncomplete }),
    text: z.string({ error: MESSAGES.contactIncomplete }),
  })
  .superRefine((b, ctx) => {
    rule(ctx, 'from', validateContactFrom(b));
  });
export type ContactBody = z.infer<typeof contactBodySchema>;

// ---------------------------------------------------------------------------------------------------
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
});
export type EmailAccount = z.infer<typeof emailAccountSchema>;

/** GET /get-email-accounts */
export const emailAccountsResponseSchema = z.object({ data: z.array(emailAccountSchema) });
export type EmailAccountsResponse = z.infer<typeof emailAccountsResponseSchema>;

// ---------------------------------------------------------------------------------------------------
// Subscriptions: lists, Keep, Unsubscribe, Block, messages of a sender

export const SUBSCRIPTION_CATEGORIES = ['uncategorized', 'kept', 'unsubscribed'] as const;
export const subscriptionCategorySchema = z.enum(SUBSCRIPTION_CATEGORIES);
export type SubscriptionCategory = z.infer<typeof subscriptionCategorySchema>;

/** How an unsubscribe was carried out: RFC 8058 POST, a mail from the user's mailbox, the sender's page, or a block. */
export const unsubscribeMethodSchema = z.enum(['one-click', 'mailto', 'manual', 'block']);
export type UnsubscribeMethod = z.infer<typeof unsubscribeMethodSchema>;

export const subscriptionSchema = z.object({
  id: z.string(),
  address: z.string(),
  senderName: z.string(),
  messageCount: z.number(),
  category: subscriptionCategorySchema,
  lastMessageAt: z.string().nullable(),
  account: z.string(),
  /** Unsubscribed list: when the sender was unsubscribed, and how (its last successful receipt). */
  unsubscribedAt: z.string().nullable().optional(),
  unsubscribeMethod: unsubscribeMethodSchema.nullable().optional(),
  /** Mail still arrived more than 2 days after the unsubscribe: offer Block. */
  stillSending: z.boolean().optional(),
  /** Answer of POST /keep-subscription: the sender had been blocked and the block was lifted. */
  blockLifted: z.boolean().optional(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** GET /get-unsubscribe-emails?category=… (default uncategorized); 401 carries `redirectUrl` instead. */
export const subscriptionsQuerySchema = z.object({
  category: z
    .enum(SUBSCRIPTION_CATEGORIES, { error: (issue) => `Unknown category ${String(issue.input)}.` })
    .default('uncategorized'),
});

/** GET /get-unsubscribe-emails: 200 answer. */
export const subscriptionsResponseSchema = z.object({ data: z.array(subscriptionSchema) });
export type SubscriptionsResponse = z.infer<typeof subscriptionsResponseSchema>;

const subscriptionIdFields = {
  subscriptionId: z.string().min(1).optional(),
  // Older screens named the field messageId where they send a subscription id; both are read.
  messageId: z.string().min(1).optional(),
};

/** POST /keep-subscription and POST /manual-unsubscribe: `{subscriptionId}`. */
export const subscriptionRefBodySchema = z
  .object(subscriptionIdFields)
  .refine((b) => b.subscriptionId ?? b.messageId, { message: 'subscriptionId is required.' })
  .transform((b) => ({ subscriptionId: (b.subscriptionId ?? b.messageId) as string }));
export type SubscriptionRefBody = z.input<typeof subscriptionRefBodySchema>;

/**
 * POST /unsubscribe and POST /block-subscription. `confirmBlock`: the user agreed, after a 409
 * `{message, confirmBlock: true, unlistedMessages, messages}`, that a block also trashes the sender's mail
 * that carries no list headers. POST /unsubscribe answers 502 `{message, offerBlock: true}` when the
 * unsubscribe email could not be sent and nothing else can be tried: the screen offers Block.
 */
export const blockingBodySchema = z
  .object({ ...subscriptionIdFields, confirmBlock: z.boolean().optional() })
  .refine((b) => b.subscriptionId ?? b.messageId, { message: 'subscriptionId is required.' })
  .transform((b) => ({
    subscriptionId: (b.subscriptionId ?? b.messageId) as string,
    confirmBlock: b.confirmBlock === true,
  }));
export type BlockingBody = z.input<typeof blockingBodySchema>;

/** 409 of a block that would trash mail without list headers: ask the user, then repeat with confirmBlock. */
export const confirmBlockErrorSchema = z.object({
  message: z.string(),
  confirmBlock: z.literal(true),
  unlistedMessages: z.number(),
  messages: z.number(),
});
export type ConfirmBlockError = z.infer<typeof confirmBlockErrorSchema>;

/** POST /unsubscribe {subscriptionId}: what was done. */
export const unsubscribeResultSchema = z.object({
  subscriptionId: z.string(),
  method: unsubscribeMethodSchema,
  /** The sender was told (one-click POST answered 2xx, or the mailto request was sent): the item leaves the list. */
  oneClickUnsubscribeSuccess: z.boolean(),
  /** Only web pages remain: open `unsubscribeOptions[0]`, then confirm with POST /manual-unsubscribe. */
  manualUnsubscribe: z.boolean(),
  /** No usable link: future mail goes to trash and existing mail was moved there. */
  blockedAndTrashed: z.boolean(),
  unsubscribeOptions: z.array(z.string()),
  /** Present when the mailbox needs the user to sign in again before anything can be done. */
  authUrl: z.string().optional(),
});
export type UnsubscribeResult = z.infer<typeof unsubscribeResultSchema>;

export const subscriptionMessageSchema = z.object({
  id: z.string(),
  subject: z.string(),
  date: z.string().nullable(),
});
export type SubscriptionMessage = z.infer<typeof subscriptionMessageSchema>;

/** GET /get-subscriptions/{id}: the messages of one sender, newest first. */
export const subscriptionMessagesParamsSchema = z.object({ id: z.string() });
export const subscriptionMessagesResponseSchema = z.object({ data: z.array(subscriptionMessageSchema) });
export type SubscriptionMessagesResponse = z.infer<typeof subscriptionMessagesResponseSchema>;

// ---------------------------------------------------------------------------------------------------
// Preview: POST /get-message-preview, POST /get-messages-by-sender-address

/**
 * POST /get-message-preview: answers sanitized HTML (text/html). Remote images are replaced by a
 * placeholder unless `loadImages` is true. 404 `{message}` when the message is gone.
 */
export const messagePreviewBodySchema = z.object({
  subscriptionId: z.string().min(1, 'subscriptionId is required.'),
  messageId: z.string().min(1, 'messageId is required.'),
  loadImages: z.boolean().optional(),
});
export type MessagePreviewBody = z.infer<typeof messagePreviewBodySchema>;

/** POST /get-messages-by-sender-address {senderAddress} → the messages of that sender, newest first. */
export const messagesBySenderBodySchema = z.object({
  senderAddress: z.string().trim().min(1, 'senderAddress is required.'),
  messageId: z.string().optional(),
});
export type MessagesBySenderBody = z.input<typeof messagesBySenderBodySchema>;

// ---------------------------------------------------------------------------------------------------
// Public configuration: GET /get-public-config

const availabilitySchema = z.object({ available: z.boolean(), reason: z.string().optional() });

/** What the screens may know about the server's configuration. */
export const publicConfigSchema = z.object({
  providers: z.object({ google: availabilitySchema, outlook: availabilitySchema }),
  billing: z.boolean(),
  productName: z.string(),
  /** Base URL of the sender-logo service (`<base>/<domain>`); null: always the default image. */
  logoBaseUrl: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

// ---------------------------------------------------------------------------------------------------
// Sign-in with Google or Microsoft: browser navigations, answered with redirects

export const OAUTH_INTENTS = ['signin', 'signup', 'add'] as const;

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
