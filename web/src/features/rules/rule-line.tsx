import type { SenderRule } from '#contract/api.js';
import { ruleInWords } from './rule-in-words';

/** A subscription row's line of its rule in words ("→ Newsletters · keeps 5"); nothing for no rule. */
export function RuleLine({ rule }: { rule: SenderRule | null | undefined }) {
  const words = ruleInWords(rule);
  if (!words) return null;
  return (
    <div className="text-primary text-break subscription-rule">
      <span className="visually-hidden">Rule: </span>
      {words}
    </div>
  );
}
