// What the other features use of the rules; the rest stays inside. The dialog is loaded on first use:
// the subscription list's first load has a budget.
import { lazy } from 'react';

export { ruleInWords } from './ruleInWords';
export type { RuleTarget } from './useRuleActions';

export const OrganiseDialog = lazy(() => import('./OrganiseDialog'));

/**
 * PUT /screener (api/screener.ts), loaded with its first use: the subscription list imports this entry too,
 * and its first load has a budget.
 */
export async function putScreener(email: string, enabled: boolean) {
  return (await import('./api/screener')).putScreener(email, enabled);
}
