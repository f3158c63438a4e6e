import { z } from 'zod';
import { unsubscribeResultSchema } from './subscriptions.js';

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

/**
 * GET /get-subscriptions/{id}?limit=&cursor=: the messages of one sender, newest first. Without `limit` its
 * newest 500 (the spec's call), with it one page and `nextCursor` (opaque; null on the last page).
 */
export const subscriptionMessagesParamsSchema = z.object({ id: z.string() });
/** The largest page of a sender's messages. */
export const SUBSCRIPTION_MESSAGES_PAGE_MAX = 100;
export const subscriptionMessagesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(SUBSCRIPTION_MESSAGES_PAGE_MAX).optional(),
  cursor: z.string().max(512).optional(),
});
export type SubscriptionMessagesQuery = z.input<typeof subscriptionMessagesQuerySchema>;
export const subscriptionMessagesResponseSchema = z.object({
  data: z.array(subscriptionMessageSchema),
  nextCursor: z.string().nullable().optional(),
});
export type SubscriptionMessagesResponse = z.infer<typeof subscriptionMessagesResponseSchema>;
