// The Organise dialog's fields and the rule they make: what the user typed, checked the way the server
// will check it (contract/api/rules.ts), so that a mistake is named beside its field before any call.
import {
  type ExpireAction,
  type PutSenderRuleBody,
  putSenderRuleBodySchema,
  RULE_LIMITS,
  RULE_MESSAGES,
  type SenderRule,
} from '#contract/api.js';

/** The picker's choice that asks for a new folder's name. */
export const NEW_FOLDER = '\t+new';

export interface RuleForm {
  moveOn: boolean;
  /** A folder's path, or NEW_FOLDER. */
  folder: string;
  newFolder: string;
  keepOn: boolean;
  keepNewest: string;
  expireOn: boolean;
  expireAfterDays: string;
  expireAction: ExpireAction;
}

export type RuleField = 'folder' | 'keepNewest' | 'expireAfterDays' | 'form';

export type FormResult =
  | { ok: true; body: PutSenderRuleBody }
  | { ok: false; field: RuleField; message: string };

/** The fields for a sender: its rule's, or the defaults of a first rule. */
export function formOf(rule: SenderRule | null | undefined): RuleForm {
  return {
    moveOn: Boolean(rule?.folder),
    folder: rule?.folder ?? '',
    newFolder: '',
    keepOn: rule?.keepNewest != null,
    keepNewest: String(rule?.keepNewest ?? 5),
    expireOn: rule?.expireAfterDays != null,
    expireAfterDays: String(rule?.expireAfterDays ?? 30),
    expireAction: rule?.expireAction ?? 'trash',
  };
}

/** A whole number typed in a field, or NaN (never a partial parse: "5x" is not 5). */
function whole(text: string): number {
  const trimmed = text.trim();
  return /^\d{1,6}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

function within(value: number, limits: { min: number; max: number }): boolean {
  return Number.isInteger(value) && value >= limits.min && value <= limits.max;
}

/** The PUT body of the form, or the first mistake and its field. */
export function bodyOf(form: RuleForm): FormResult {
  let folder: string | null = null;
  if (form.moveOn) {
    folder = (form.folder === NEW_FOLDER ? form.newFolder : form.folder).trim();
    if (!folder || folder.length > RULE_LIMITS.folderName) {
      return { ok: false, field: 'folder', message: RULE_MESSAGES.folder };
    }
  }
  const keepNewest = form.keepOn ? whole(form.keepNewest) : null;
  if (keepNewest !== null && !within(keepNewest, RULE_LIMITS.keepNewest)) {
    return { ok: false, field: 'keepNewest', message: RULE_MESSAGES.keepNewest };
  }
  const expireAfterDays = form.expireOn ? whole(form.expireAfterDays) : null;
  if (expireAfterDays !== null && !within(expireAfterDays, RULE_LIMITS.expireAfterDays)) {
    return { ok: false, field: 'expireAfterDays', message: RULE_MESSAGES.expireAfterDays };
  }
  const body: PutSenderRuleBody = {
    rule: {
      folder,
      keepNewest,
      expireAfterDays,
      expireAction: expireAfterDays === null ? null : form.expireAction,
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
      keepNewest: rule.keepNewest,
      expireAfterDays: rule.expireAfterDays,
      expireAction: rule.expireAction,
    },
  };
}
