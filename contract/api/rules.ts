import { z } from 'zod';
import {
  COUNT_PARTS,
  type CountField,
  EXPIRE_ACTIONS,
  type ExpireAction,
  FOLDER_PART,
  ruleDoesSomething,
} from '../rule-parts.js';

// Organising what stays: sender rules, the Screener and the mailbox's folders (docs/decisions/079-sender-rules.md).

/** The parts' limits, as the table (contract/rule-parts.ts) gives them. */
export const RULE_LIMITS = {
  keepNewest: { min: COUNT_PARTS.keepNewest.min, max: COUNT_PARTS.keepNewest.max },
  expireAfterDays: { min: COUNT_PARTS.expireAfterDays.min, max: COUNT_PARTS.expireAfterDays.max },
  folderName: FOLDER_PART.maxLength,
} as const;

export const RULE_MESSAGES = {
  empty: 'Choose at least one thing for the rule to do.',
  keepNewest: COUNT_PARTS.keepNewest.message,
  expireAfterDays: COUNT_PARTS.expireAfterDays.message,
  expireAction: 'Choose whether old mail goes to the trash or the archive.',
  folder: FOLDER_PART.message,
  blocked: 'This sender is blocked, so its mail already goes to the trash. Keep it first to organise it.',
  premium: 'Rules are part of Premium. Choose a plan to organise your senders.',
  folderGone: 'That folder no longer exists in the mailbox. Choose another one.',
} as const;

export { EXPIRE_ACTIONS, type ExpireAction };

/**
 * One sender's rule: any of deliver to a folder, keep only the newest N, and remove after N days. Order of
 * application: folder, then keepNewest, then expireAfterDays.
 */
export const senderRuleSchema = z.object({
  /** Folder path as GET /mailbox-folders lists it (a Gmail label id, an Outlook folder path), or null. */
  folder: z.string().nullable(),
  /** The folder's name as the mailbox shows it (answers only; a PUT may name a folder not made yet). */
  folderName: z.string().nullable().optional(),
  keepNewest: z.number().int().nullable(),
  expireAfterDays: z.number().int().nullable(),
  expireAction: z.enum(EXPIRE_ACTIONS).nullable(),
});
export type SenderRule = z.infer<typeof senderRuleSchema>;

/** A counting part's field: a whole number within the part's limits, or null. */
const count = (field: CountField) => {
  const { min, max, message } = COUNT_PARTS[field];
  return z
    .number({ error: message })
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message })
    .nullable()
    .optional()
    .transform((v) => v ?? null);
};

/**
 * PUT /sender-rules/:subscriptionId `{rule}`. `folder` names a folder by its path from GET /mailbox-folders;
 * a name the mailbox does not have yet is created (the picker's "New folder").
 */
export const putSenderRuleBodySchema = z.object({
  rule: z
    .object({
      folder: z
        .string({ error: RULE_MESSAGES.folder })
        .trim()
        .min(1, { error: RULE_MESSAGES.folder })
        .max(FOLDER_PART.maxLength, { error: RULE_MESSAGES.folder })
        .nullable()
        .optional()
        .transform((v) => v ?? null),
      keepNewest: count('keepNewest'),
      expireAfterDays: count('expireAfterDays'),
      expireAction: z
        .enum(EXPIRE_ACTIONS, { error: RULE_MESSAGES.expireAction })
        .nullable()
        .optional()
        .transform((v) => v ?? null),
    })
    .superRefine((r, ctx) => {
      if (!ruleDoesSomething(r)) {
        ctx.addIssue({ code: 'custom', message: RULE_MESSAGES.empty, path: ['folder'] });
      } else if ((r.expireAfterDays === null) !== (r.expireAction === null)) {
        ctx.addIssue({ code: 'custom', message: RULE_MESSAGES.expireAction, path: ['expireAction'] });
      }
    }),
  /**
   * true: answer what saving the rule would do to the sender's mail now, and change nothing (no folder is
   * made, no mail moves, no rule is stored).
   */
  dryRun: z.boolean().optional(),
});
export type PutSenderRuleBody = z.input<typeof putSenderRuleBodySchema>;

/** What applying a rule (or the Screener) did: messages filed in a folder, trashed, archived. */
export const ruleAppliedSchema = z.object({
  moved: z.number(),
  trashed: z.number(),
  archived: z.number(),
});
export type RuleApplied = z.infer<typeof ruleAppliedSchema>;

/** The `:subscriptionId` of PUT and DELETE /sender-rules/:subscriptionId. */
export const senderRuleParamsSchema = z.object({ subscriptionId: z.string().min(1).max(100) });

/**
 * PUT /sender-rules/:subscriptionId: the stored rule and what applying it once did; on a dry run, the rule as
 * it would be stored and what applying it would do, out of `examined` messages of the sender it looked at.
 */
export const putSenderRuleResponseSchema = z.object({
  rule: senderRuleSchema,
  applied: ruleAppliedSchema,
  examined: z.number().optional(),
});
export type PutSenderRuleResponse = z.infer<typeof putSenderRuleResponseSchema>;

export const senderRuleRowSchema = z.object({
  subscriptionId: z.string(),
  address: z.string(),
  senderName: z.string(),
  /** The mailbox the sender writes to. */
  account: z.string(),
  rule: senderRuleSchema,
});
export type SenderRuleRow = z.infer<typeof senderRuleRowSchema>;

/** GET /sender-rules: every rule of the user's senders, by sender name. */
export const senderRulesResponseSchema = z.object({ data: z.array(senderRuleRowSchema) });
export type SenderRulesResponse = z.infer<typeof senderRulesResponseSchema>;

/** DELETE /sender-rules/:subscriptionId?restore=true */
export const deleteSenderRuleQuerySchema = z.object({
  restore: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
/** DELETE /sender-rules/:subscriptionId: messages the rule had moved that went back (0 without restore). */
export const deleteSenderRuleResponseSchema = z.object({ restored: z.number() });
export type DeleteSenderRuleResponse = z.infer<typeof deleteSenderRuleResponseSchema>;

/** GET /mailbox-folders?email= */
export const mailboxFoldersQuerySchema = z.object({ email: z.string().trim().min(1).max(320) });
export const mailboxFolderSchema = z.object({
  /** What a rule's `folder` names. */
  path: z.string(),
  name: z.string(),
  /** \Inbox, \Archive, \Trash, … when the folder is one of those. */
  specialUse: z.string().nullable(),
});
export type MailboxFolder = z.infer<typeof mailboxFolderSchema>;
export const mailboxFoldersResponseSchema = z.object({ data: z.array(mailboxFolderSchema) });
export type MailboxFoldersResponse = z.infer<typeof mailboxFoldersResponseSchema>;

/** The folder (IMAP, Outlook) or label (Gmail) screened mail waits in. */
export const SCREENER_FOLDER = 'Screener';

/** PUT /screener `{email, enabled}`. */
export const putScreenerBodySchema = z.object({
  email: z.string().trim().min(1).max(320),
  enabled: z.boolean(),
});
export type PutScreenerBody = z.infer<typeof putScreenerBodySchema>;
/** PUT /screener: the switch as stored, and messages moved back to the inbox when it was turned off. */
export const putScreenerResponseSchema = z.object({ enabled: z.boolean(), restored: z.number() });
export type PutScreenerResponse = z.infer<typeof putScreenerResponseSchema>;
