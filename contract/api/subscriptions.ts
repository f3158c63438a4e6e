import { z } from 'zod';
import { senderRuleSchema } from './rules.js';

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
  /** Answer of POST /unblock-subscription (and of a Keep with restoreFromTrash): messages the block had trashed that were moved back. */
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
  /** The sender's rule (folder, keep newest, remove after days), or null. */
  rule: senderRuleSchema.nullable().optional(),
  /** Found while the Screener was on: its mail waits in the Screener folder ("New" badge). */
  screened: z.boolean().optional(),
  /** Answer of POST /keep-subscription: screened messages moved back to the inbox. */
  restoredFromScreener: z.number().optional(),
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
 * null on the last page). With `group=brand` a page holds whole brands whose senders add up to at most
 * `limit` (one brand alone when it has more).
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
  /** `brand`: one row per brand (brandsResponseSchema) instead of one per sender. */
  group: z
    .enum(['sender', 'brand'], { error: (issue) => `Unknown group ${String(issue.input)}.` })
    .default('sender'),
});
export type SubscriptionsQuery = z.input<typeof subscriptionsQuerySchema>;

/** GET /get-unsubscribe-emails: 200 answer. `total`: how many match the category and `q`, all pages. */
export const subscriptionsResponseSchema = z.object({
  data: z.array(subscriptionSchema),
  nextCursor: z.string().nullable().optional(),
  total: z.number().optional(),
});
export type SubscriptionsResponse = z.infer<typeof subscriptionsResponseSchema>;

/**
 * A brand of the grouped list (`group=brand`): the registrable domain of its senders' addresses (Public
 * Suffix List, punycode), or of the List-Id they share; its senders of the category, newest mail first,
 * and their counts together.
 */
export const brandRowSchema = z.object({
  brand: z.string(),
  /**
   * What the brand is called: the display name its senders use on the most messages ("The New York Times"),
   * cleaned of controls and bidi characters; sender-written text, to be shown as text. Null when none has one.
   */
  name: z.string().nullable().optional(),
  senders: z.array(subscriptionSchema),
  messageCount: z.number(),
  /** Messages a month from the brand's senders over the last 90 days. */
  messagesPerMonth: z.number().min(0),
  /** Share (0 to 1) of the brand's messages read; null while no read state is known. */
  readRate: z.number().min(0).max(1).nullable(),
  lastMessageAt: z.string().nullable(),
});
export type BrandRow = z.infer<typeof brandRowSchema>;

/** GET /get-unsubscribe-emails?group=brand: 200 answer. `total`: how many brands match, all pages. */
export const brandsResponseSchema = z.object({
  data: z.array(brandRowSchema),
  nextCursor: z.string().nullable().optional(),
  total: z.number().optional(),
});
export type BrandsResponse = z.infer<typeof brandsResponseSchema>;

/**
 * GET /get-unsubscribe-emails: either answer. The brand shape comes first: a sender page fails it at its
 * first row, so a serializer trying them in order settles quickly on the sender shape.
 */
export const subscriptionListResponseSchema = z.union([brandsResponseSchema, subscriptionsResponseSchema]);

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
 * POST /keep-subscription. `restoreFromTrash`: a blocked sender's block is lifted and the mail the block put
 * in the trash goes back where it was, as the undo of Block does (the answer's `restoredFromTrash`).
 */
export const keepBodySchema = z
  .object({ ...subscriptionIdFields, restoreFromTrash: z.boolean().optional() })
  .refine((b) => b.subscriptionId ?? b.messageId, { message: 'subscriptionId is required.' })
  .transform((b) => ({
    subscriptionId: (b.subscriptionId ?? b.messageId) as string,
    restoreFromTrash: b.restoreFromTrash === true,
  }));
export type KeepBody = z.input<typeof keepBodySchema>;

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
    // POST /unsubscribe only, the list's "Also move existing mail to Trash": true, the sender's existing
    // mail goes to the trash whichever way out worked; false, it stays where it is, also when the last way
    // out is a block (future mail only); absent, the spec's default: only a block moves it
    // (docs/decisions/100-mail-moves-only-when-asked.md).
    moveToTrash: b.moveToTrash,
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
