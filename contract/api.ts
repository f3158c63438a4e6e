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

/** GET /auth/email-verification: whether the signed-in user's address is proven. */
export const emailStatusSchema = z.object({ email: z.string(), emailVerified: z.boolean() });
export type EmailStatus = z.infer<typeof emailStatusSchema>;
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
  /** Answer of POST /block-subscription: messages moved to the trash by the block. */
  movedToTrash: z.number().optional(),
  /** Answer of POST /unblock-subscription: messages the block had trashed that were moved back. */
  restoredFromTrash: z.number().optional(),
  /**
   * Share (0 to 1) of the sender's scanned messages the user has read (IMAP \Seen, Gmail without UNREAD,
   * Graph isRead); null while no message's read state is known.
   */
  readRate: z.number().min(0).max(1).nullable().optional(),
  /** Messages a month from this sender over the last 90 days. */
  messagesPerMonth: z.number().min(0).optional(),
  /** A discussion list's poster: the list the mail came through (its List-Id or posting address). */
  via: z.string().nullable().optional(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/**
 * Orders of the subscription list: newest mail first (the spec's default), most messages first, least
 * read first (unknown read rates last), most messages a month first.
 */
export const SUBSCRIPTION_SORTS = ['newest', 'messages', 'readRate', 'perMonth'] as const;
export type SubscriptionSort = (typeof SUBSCRIPTION_SORTS)[number];
/** The largest page GET /get-unsubscribe-emails answers. */
export const SUBSCRIPTION_PAGE_MAX = 200;

/**
 * GET /get-unsubscribe-emails?category=&sort=&q=&limit=&cursor= (category default uncategorized, sort
 * default newest); 401 carries `redirectUrl` instead. `q` matches the sender's name or address; without
 * `limit` the whole category is answered (the spec's call), with it one page and `nextCursor` (opaque;
 * null on the last page).
 */
export const subscriptionsQuerySchema = z.object({
  category: z
    .enum(SUBSCRIPTION_CATEGORIES, { error: (issue) => `Unknown category ${String(issue.input)}.` })
    .default('uncategorized'),
  sort: z
    .enum(SUBSCRIPTION_SORTS, { error: (issue) => `Unknown sort ${String(issue.input)}.` })
    .default('newest'),
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(SUBSCRIPTION_PAGE_MAX).optional(),
  cursor: z.string().max(512).optional(),
});
export type SubscriptionsQuery = z.input<typeof subscriptionsQuerySchema>;

/** GET /get-unsubscribe-emails: 200 answer. `total`: how many match the category and `q`, all pages. */
export const subscriptionsResponseSchema = z.object({
  data: z.array(subscriptionSchema),
  nextCursor: z.string().nullable().optional(),
  total: z.number().optional(),
});
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
  .object({
    ...subscriptionIdFields,
    confirmBlock: z.boolean().optional(),
    moveToTrash: z.boolean().optional(),
  })
  .refine((b) => b.subscriptionId ?? b.messageId, { message: 'subscriptionId is required.' })
  .transform((b) => ({
    subscriptionId: (b.subscriptionId ?? b.messageId) as string,
    confirmBlock: b.confirmBlock === true,
    // POST /unsubscribe only: also move the sender's existing mail to the trash once unsubscribed (off
    // by default; a block always does).
    moveToTrash: b.moveToTrash === true,
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
  /** Messages of the sender moved to the trash (a block, or an unsubscribe asked to with moveToTrash). */
  movedToTrash: z.number().optional(),
});
export type UnsubscribeResult = z.infer<typeof unsubscribeResultSchema>;

// ---------------------------------------------------------------------------------------------------
// Bulk actions: POST /bulk-action, GET /bulk-action/:bulkId, and the socket's bulk-progress / bulk-done

export const BULK_ACTIONS = ['unsubscribe', 'keep', 'block'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
/** The most senders one bulk action takes. */
export const BULK_MAX_SUBSCRIPTIONS = 5000;

/** POST /bulk-action → 202 {bulkId}. `moveToTrash` (unsubscribe): also move each sender's mail to the trash. */
export const bulkActionBodySchema = z.object({
  action: z.enum(BULK_ACTIONS),
  subscriptionIds: z.array(z.string().min(1).max(100)).min(1).max(BULK_MAX_SUBSCRIPTIONS),
  moveToTrash: z.boolean().optional(),
});
export type BulkActionBody = z.input<typeof bulkActionBodySchema>;
export const bulkStartedSchema = z.object({ bulkId: z.string() });
/** GET /bulk-action/:bulkId's path parameter. */
export const bulkStatusParamsSchema = z.object({ bulkId: z.string().min(1).max(100) });

/**
 * What a bulk action did to one sender: unsubscribed by one-click or by mail, blocked, kept; `manual`:
 * only the sender's page remains (its links in `result.unsubscribeOptions`, to open and confirm one by
 * one); `not-found`: not the caller's subscription; `limit`: the free trial's unsubscribes are used up;
 * `reauth`: the mailbox needs the user to sign in again; `failed`: tried and failed (`error` says why).
 */
export const BULK_OUTCOMES = [
  'one-click',
  'mailto',
  'blocked',
  'kept',
  'manual',
  'not-found',
  'limit',
  'reauth',
  'failed',
] as const;
export type BulkOutcome = (typeof BULK_OUTCOMES)[number];

export const bulkItemResultSchema = z.object({
  subscriptionId: z.string(),
  outcome: z.enum(BULK_OUTCOMES),
  /** The single unsubscribe's answer, when the action was an unsubscribe that got one. */
  result: unsubscribeResultSchema.optional(),
  /** Messages moved to the trash for this sender (block, or unsubscribe with moveToTrash). */
  movedToTrash: z.number().optional(),
  error: z.string().optional(),
});
export type BulkItemResult = z.infer<typeof bulkItemResultSchema>;

/** How many senders ended in each outcome. */
export const bulkSummarySchema = z.partialRecord(z.enum(BULK_OUTCOMES), z.number());
export type BulkSummary = z.infer<typeof bulkSummarySchema>;

/** GET /bulk-action/:bulkId: the caller's own bulk action, as far as it has come. */
export const bulkStatusSchema = z.object({
  bulkId: z.string(),
  action: z.enum(BULK_ACTIONS),
  done: z.number(),
  total: z.number(),
  results: z.array(bulkItemResultSchema),
});
export type BulkStatus = z.infer<typeof bulkStatusSchema>;

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
// Plans and billing (docs/product.md §1, §3, §7, §9)

export { ANALYTICS_CLIENT_ID_HEADER } from './analytics.js';
export { BILLING_MESSAGES, FREE_TRIAL } from './billing.js';

export const priceSchema = z.object({
  id: z.string(),
  /** In cents; the screens show unit_amount / 100 with two decimals. */
  unit_amount: z.number().int().nonnegative(),
  currency: z.string(),
  recurring: z.object({ interval: z.enum(['month', 'year']) }),
});
export type Price = z.infer<typeof priceSchema>;

export const pricesResponseSchema = z.object({ data: z.array(priceSchema) });
export type PricesResponse = z.infer<typeof pricesResponseSchema>;

/** The page the user was on: Checkout's cancel and the portal's return lead back there when it is on this site. */
export const paymentLinkBodySchema = z.object({ originalUrl: z.string().max(2048).optional() });
export type PaymentLinkBody = z.infer<typeof paymentLinkBodySchema>;

export const urlResponseSchema = z.object({ url: z.string() });
export type UrlResponse = z.infer<typeof urlResponseSchema>;

export const PLANS = ['free', 'premium'] as const;
export type Plan = (typeof PLANS)[number];

/** GET /get-billing: what the Billing screen shows. */
export const billingStateSchema = z.object({
  /** Plans are sold on this server. */
  enabled: z.boolean(),
  plan: z.enum(PLANS),
  /** The Stripe subscription's status (active, trialing, past_due, canceled, …); null: never subscribed. */
  status: z.string().nullable(),
  interval: z.enum(['month', 'year']).nullable(),
  /** ISO time the paid period ends: renewal date, or the end date when cancelAtPeriodEnd. */
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** Whether the user has a billing account (the portal can be opened). */
  hasCustomer: z.boolean(),
  /** The trial's use; limits are null when there are none (premium, or billing off). */
  usage: z.object({
    unsubscribesUsed: z.number().int(),
    unsubscribesLimit: z.number().int().nullable(),
    mailboxes: z.number().int(),
    mailboxesLimit: z.number().int().nullable(),
  }),
});
export type BillingState = z.infer<typeof billingStateSchema>;

// ---------------------------------------------------------------------------------------------------
// The blog (docs/product.md §2 blog screens, §3 blog entry, §7, §9 page size)

/** Posts per page of /blog. */
export const BLOG_PAGE_SIZE = 9;

/** A post's id: a markdown file's name in content/blog, or a Contentful entry's sys.id. */
export const BLOG_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const blogImageSchema = z.object({
  /** Absolute https URL, or a path on this site (posts from the repository). */
  url: z.string(),
  alt: z.string(),
});

export const blogPostSummarySchema = z.object({
  id: z.string().regex(BLOG_ID_PATTERN),
  title: z.string(),
  summary: z.string(),
  /** ISO date (YYYY-MM-DD) the post was created; the screens show it in US English. */
  date: z.string(),
  image: blogImageSchema.nullable(),
});
export type BlogPostSummary = z.infer<typeof blogPostSummarySchema>;

/** GET /get-blog-posts: every post, newest first; the list screen pages them BLOG_PAGE_SIZE at a time. */
export const blogListResponseSchema = z.object({
  items: z.array(blogPostSummarySchema),
  total: z.number().int().nonnegative(),
});
export type BlogListResponse = z.infer<typeof blogListResponseSchema>;

/** GET /get-blog-post/:id: one post with its markdown body (404 {message} when there is none). */
export const blogPostSchema = blogPostSummarySchema.extend({ content: z.string() });
export type BlogPost = z.infer<typeof blogPostSchema>;

export const blogPostParamsSchema = z.object({
  id: z.string().regex(BLOG_ID_PATTERN, { error: 'No such post.' }),
});

// ---------------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------------
// Sign-in with Google or Microsoft: browser navigations, answered with redirects

export const OAUTH_INTENTS = ['signin', 'signup', 'add'] as const;

export {
  AUTH_EVENT_COOKIE,
  AUTH_EVENTS,
  AUTH_METHODS,
  type AuthEvent,
  authEventValue,
  parseAuthEvent,
} from './analytics.js';

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
