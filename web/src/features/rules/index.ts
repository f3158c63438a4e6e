// What the other features use of the rules; the rest stays inside. The subscription list imports this
// entry only when it needs it (a row with a rule, the first Organise…): its first load has a budget.
export { ruleKeys } from './api/keys';
export { putScreener } from './api/screener';
export { RuleLine } from './rule-line';
export type { RuleTarget } from './use-rule-actions';

/** The Organise dialog's module (its default export), loaded with its first opening. */
export const loadOrganiseDialog = () => import('./organise-dialog');
