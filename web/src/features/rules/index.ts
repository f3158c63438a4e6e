// What the other features use of the rules; the rest stays inside. The dialog is loaded on first use:
// the subscription list's first load has a budget.
import { lazy } from 'react';

export { putScreener } from './api/screener';
export { ruleInWords } from './ruleWords';
export type { RuleTarget } from './useRuleActions';

export const OrganiseDialog = lazy(() => import('./OrganiseDialog'));
