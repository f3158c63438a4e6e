// A sender's rule in words: the row's line under the sender and the Rules screen's. Apart from the other
// wordings (ruleWords.ts): the subscription list loads this with its first load, which has a budget.
import type { SenderRule } from '#contract/api.js';

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
  if (folder) parts.push(`→ ${folder}`);
  if (rule.keepNewest !== null) parts.push(`keeps ${rule.keepNewest}`);
  if (rule.expireAfterDays !== null) {
    const days = `${rule.expireAfterDays} ${rule.expireAfterDays === 1 ? 'day' : 'days'}`;
    parts.push(rule.expireAction === 'archive' ? `archives after ${days}` : `removes after ${days}`);
  }
  return parts.length > 0 ? parts.join(' · ') : null;
}
