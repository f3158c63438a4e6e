// A sender's rule in words: the row's line under the sender and the Rules screen's, each part's words from
// the contract's table of rule parts. What saving or undoing a rule did, in words: rule-outcomes.ts. This
// file loads with the subscription list's rows, whose first load has a budget: it reads the zod-free table.
import type { SenderRule } from '#contract/api.js';
import { COUNT_FIELDS, COUNT_PARTS, FOLDER_PART } from '#contract/rule-parts.js';

/** The folder's name as the mailbox shows it: the answer's `folderName`, else the path's last part. */
export function folderLabel(rule: Pick<SenderRule, 'folder' | 'folderName'>): string | null {
  if (rule.folderName?.trim()) return rule.folderName.trim();
  if (!rule.folder) return null;
  // Answers name the folder; a path alone (an older answer) shows its part after the last "/".
  const parts = rule.folder.split('/');
  return parts[parts.length - 1] || rule.folder;
}

/** "→ Newsletters · keeps 5 · removes after 30 days"; null for no rule or a rule that does nothing. */
export function ruleInWords(rule: SenderRule | null | undefined): string | null {
  if (!rule) return null;
  const parts: string[] = [];
  const folder = folderLabel(rule);
  if (folder) parts.push(FOLDER_PART.words(folder));
  for (const field of COUNT_FIELDS) {
    const count = rule[field];
    if (count !== null) parts.push(COUNT_PARTS[field].words(count, rule));
  }
  return parts.length > 0 ? parts.join(' · ') : null;
}
