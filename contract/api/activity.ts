import { z } from 'zod';
import { BULK_ACTIONS } from './bulk.js';

// The activity history (docs/decisions/101-activity-history-and-counts-that-follow.md): GET /activity and
// POST /activity/:id/undo. Every block, unsubscribe that moved mail, rule or Screener run that moved mail,
// and bulk action, newest first, each with a way back for as long as the mail can be found.

export const ACTIVITY_KINDS = ['block', 'unsubscribe', 'rule', 'screener', 'bulk'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
/** The most entries one page of GET /activity answers, and its default. */
export const ACTIVITY_PAGE_MAX = 100;
export const ACTIVITY_PAGE_DEFAULT = 25;

export const activityEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(ACTIVITY_KINDS),
  /** The sender acted on; null for a bulk, whose senders are its items. */
  subscriptionId: z.string().nullable(),
  address: z.string().nullable(),
  senderName: z.string().nullable(),
  /** ISO 8601. */
  at: z.string(),
  /** Messages it moved (a bulk: all of its items'). */
  moved: z.number().int(),
  undone: z.boolean(),
  /** Not undone, and the way back still exists (the block, the rule, the mail's records). */
  undoable: z.boolean(),
  /** 'check': a check did it (a rule, the Screener, an automatic block); 'you': the user asked. */
  by: z.enum(['you', 'check']),
  /** A bulk: what it did and to how many senders. */
  bulk: z.object({ action: z.enum(BULK_ACTIONS), senders: z.number().int() }).nullable(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** GET /activity?limit=&cursor=: one page, newest first; `nextCursor` null on the last. */
export const activityQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(ACTIVITY_PAGE_MAX).optional(),
  cursor: z.string().max(512).optional(),
});
export const activityResponseSchema = z.object({
  data: z.array(activityEntrySchema),
  nextCursor: z.string().nullable(),
});
export type ActivityResponse = z.infer<typeof activityResponseSchema>;

export const activityParamsSchema = z.object({ id: z.string().min(1).max(100) });
/** POST /activity/:id/undo → the entry as it is now and how many messages came back. */
export const undoActivityResponseSchema = z.object({
  entry: activityEntrySchema,
  restored: z.number().int(),
});
export type UndoActivityResponse = z.infer<typeof undoActivityResponseSchema>;

export const ACTIVITY_MESSAGES = {
  notFound: 'This activity was not found.',
  nothingLeft: 'There is nothing left to undo: the block, rule or moved mail is gone.',
} as const;
