// What saving, removing or undoing a rule did, in words (the toasts), and what saving it will do (the
// Organise dialog's dry run). Pure, so that each wording is tested without a browser. The rule itself in
// words: rule-in-words.ts.
import type { RuleApplied, SenderRule } from '#contract/api.js';
import { folderLabel } from './rule-in-words';

function messages(count: number): string {
  return `${count} ${count === 1 ? 'message' : 'messages'}`;
}

/** Joins "a", "a and b", "a, b and c". */
function listed(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * The toast after a rule was saved: "Moved 42 messages to Newsletters", "Trashed 3 messages", both
 * joined; "Saved the rule for X" when nothing needed doing yet.
 */
export function appliedText(applied: RuleApplied, rule: SenderRule, sender: string): string {
  const done: string[] = [];
  const folder = folderLabel(rule);
  if (applied.moved > 0) done.push(`moved ${messages(applied.moved)}${folder ? ` to ${folder}` : ''}`);
  if (applied.trashed > 0) done.push(`trashed ${messages(applied.trashed)}`);
  if (applied.archived > 0) done.push(`archived ${messages(applied.archived)}`);
  if (done.length === 0) return `Saved the rule for ${sender}`;
  const text = listed(done);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What saving will do now, from a dry run: "15 of 20 messages will go to Trash now", "2 of 6 messages will
 * move to Papers and 4 will go to Trash now"; a rule that moves nothing yet says it waits for new mail.
 */
export function previewText(applied: RuleApplied, examined: number, rule: SenderRule): string {
  const folder = folderLabel(rule);
  const parts: Array<[number, string]> = [
    [applied.moved, `move to ${folder ?? 'the folder'}`],
    [applied.trashed, 'go to Trash'],
    [applied.archived, 'be archived'],
  ];
  const done = parts.filter(([count]) => count > 0);
  if (done.length === 0) return 'Saving moves nothing now; the rule will apply to new mail.';
  const text = done.map(([count, what], i) =>
    i === 0 ? `${count} of ${messages(examined)} will ${what}` : `${count} will ${what}`,
  );
  return `${listed(text)} now.`;
}

/** After a rule was removed: with the mail put back, how much came back. */
export function removedText(sender: string, restored: number | null): string {
  if (restored === null) return `Removed the rule for ${sender}`;
  return restored > 0
    ? `Removed the rule for ${sender} and put ${messages(restored)} back`
    : `Removed the rule for ${sender}; no mail needed putting back`;
}

/** After an Undo: the rule as it was before (an edit), or none (a new rule). */
export function undoneText(sender: string, restored: number, hadRule: boolean): string {
  const back = restored > 0 ? `, put ${messages(restored)} back` : '';
  return hadRule ? `Restored the previous rule for ${sender}${back}` : `Undid the rule for ${sender}${back}`;
}
