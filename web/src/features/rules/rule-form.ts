// The Organise dialog's fields and the rule they make: what the user typed, checked the way the server
// will check it (contract/api/rules.ts), so that a mistake is named beside its field before any call. The
// counting parts (keep the newest N, remove after N days) come from the contract's table of rule parts.
import {
  type ExpireAction,
  type MailboxFolder,
  type PutSenderRuleBody,
  putSenderRuleBodySchema,
  RULE_MESSAGES,
  SCREENER_FOLDER,
  type SenderRule,
} from '#contract/api.js';
import { COUNT_FIELDS, COUNT_PARTS, type CountField, FOLDER_PART } from '#contract/rule-parts.js';

/** The picker's choice that asks for a new folder's name. */
export const NEW_FOLDER = '\t+new';

export interface RuleForm {
  moveOn: boolean;
  /** A folder's path, or NEW_FOLDER. */
  folder: string;
  newFolder: string;
  /** Each counting part's switch. */
  on: Record<CountField, boolean>;
  /** Each counting part's number, as typed. */
  count: Record<CountField, string>;
  expireAction: ExpireAction;
}

export type RuleField = 'folder' | CountField | 'form';

export type FormResult =
  | { ok: true; body: PutSenderRuleBody }
  | { ok: false; field: RuleField; message: string };

/** One entry per counting part. */
function perPart<T>(value: (field: CountField) => T): Record<CountField, T> {
  return Object.fromEntries(COUNT_FIELDS.map((field) => [field, value(field)])) as Record<CountField, T>;
}

/** The fields for a sender: its rule's, or the defaults of a first rule. */
export function formOf(rule: SenderRule | null | undefined): RuleForm {
  return {
    moveOn: Boolean(rule?.folder),
    folder: rule?.folder ?? '',
    newFolder: '',
    on: perPart((field) => rule?.[field] != null),
    count: perPart((field) => String(rule?.[field] ?? COUNT_PARTS[field].initial)),
    expireAction: rule?.expireAction ?? 'trash',
  };
}

/** A whole number typed in a field, or NaN (never a partial parse: "5x" is not 5). */
function whole(text: string): number {
  const trimmed = text.trim();
  return /^\d{1,6}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The PUT body of the form, or the first mistake and its field. */
export function bodyOf(form: RuleForm): FormResult {
  let folder: string | null = null;
  if (form.moveOn) {
    folder = (form.folder === NEW_FOLDER ? form.newFolder : form.folder).trim();
    if (!folder || folder.length > FOLDER_PART.maxLength) {
      return { ok: false, field: 'folder', message: FOLDER_PART.message };
    }
  }
  const counts = perPart<number | null>((field) => (form.on[field] ? whole(form.count[field]) : null));
  for (const field of COUNT_FIELDS) {
    const value = counts[field];
    const { min, max, message } = COUNT_PARTS[field];
    if (value !== null && !(Number.isInteger(value) && value >= min && value <= max)) {
      return { ok: false, field, message };
    }
  }
  const body: PutSenderRuleBody = {
    rule: {
      folder,
      ...counts,
      expireAction: counts.expireAfterDays === null ? null : form.expireAction,
    },
  };
  // The contract's own check has the last word (the empty rule, the action without days).
  const checked = putSenderRuleBodySchema.safeParse(body);
  if (!checked.success) {
    return { ok: false, field: 'form', message: checked.error.issues[0]?.message ?? RULE_MESSAGES.empty };
  }
  return { ok: true, body };
}

/** The rule as a PUT sends it again (an Undo of an edit puts the previous rule back). */
export function bodyOfRule(rule: SenderRule): PutSenderRuleBody {
  return {
    rule: {
      folder: rule.folder,
      ...perPart((field) => rule[field]),
      expireAction: rule.expireAction,
    },
  };
}

/** The folders a rule can file into: not the inbox, the Screener, trash, junk, drafts, sent or all mail. */
export function fileableFolders(folders: MailboxFolder[]): MailboxFolder[] {
  const skipped = new Set(['\\inbox', '\\trash', '\\junk', '\\drafts', '\\sent', '\\all', '\\flagged']);
  return folders
    .filter((f) => !(f.specialUse && skipped.has(f.specialUse.toLowerCase())))
    .filter((f) => f.path.toUpperCase() !== 'INBOX' && f.path !== SCREENER_FOLDER)
    .sort((a, b) => a.name.localeCompare(b.name));
}
