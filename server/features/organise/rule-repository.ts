import type { SenderRule } from '#contract/api.js';
import { ruleDoesSomething } from '#contract/rule-parts.js';
import type { SenderRulesTable } from '#server/db/schema.js';

// One definition of a sender rule's columns (sender_rules) and of the row it maps to: the organise,
// subscriptions and export repositories read it through here, so a new part is one column, one field and
// one line of RULE_COLUMNS (docs/ARCHITECTURE.md, "Common changes"). The parts themselves, their limits and
// words: contract/rule-parts.ts.

/** The columns that hold what the user chose (the rest of sender_rules is the rule's run state). */
export const RULE_COLUMNS = [
  'folder',
  'folder_name',
  'keep_newest',
  'expire_after_days',
  'expire_action',
] as const;
export type RuleColumn = (typeof RULE_COLUMNS)[number];
type RuleRow = Pick<SenderRulesTable, RuleColumn>;

/** The rule's fields from its columns (PostgreSQL may answer whole numbers as strings). */
export function ruleOfColumns(row: RuleRow): SenderRule {
  const whole = (v: number | null) => (v === null ? null : Number(v));
  return {
    folder: row.folder,
    folderName: row.folder_name,
    keepNewest: whole(row.keep_newest),
    expireAfterDays: whole(row.expire_after_days),
    expireAction: row.expire_action,
  };
}

/** The columns of a rule's fields (an expire action without days is not stored). */
export function columnsOfRule(rule: SenderRule): RuleRow {
  return {
    folder: rule.folder,
    folder_name: rule.folderName ?? null,
    keep_newest: rule.keepNewest,
    expire_after_days: rule.expireAfterDays,
    expire_action: rule.expireAfterDays === null ? null : rule.expireAction,
  };
}

/** RULE_COLUMNS as a join selects them, each named `rule_<column>` beside the other table's columns. */
export const JOINED_RULE_COLUMNS = RULE_COLUMNS.map((c) => `sender_rules.${c} as rule_${c}`) as ReadonlyArray<
  { [C in RuleColumn]: `sender_rules.${C} as rule_${C}` }[RuleColumn]
>;
type JoinedRuleRow = { [C in RuleColumn as `rule_${C}`]: SenderRulesTable[C] | null };

/** The rule of a joined row (JOINED_RULE_COLUMNS), or null where the sender has none. */
export function ruleOfJoined(row: JoinedRuleRow): SenderRule | null {
  const columns = Object.fromEntries(RULE_COLUMNS.map((c) => [c, row[`rule_${c}`]])) as unknown as RuleRow;
  const rule = ruleOfColumns(columns);
  return ruleDoesSomething(rule) ? rule : null;
}

/** Only the rule's fields of something that carries more (a stored rule's run state stays behind). */
export function ruleFieldsOf(rule: SenderRule): SenderRule {
  return ruleOfColumns(columnsOfRule(rule));
}
