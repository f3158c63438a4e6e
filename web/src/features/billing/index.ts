// What the other features and the app's shell use of billing (the sidebar's "Get Full Access"; the list's
// free unsubscribes left and the dialog of the trial's limit).

export { invalidateTrialUsage, useFreeUnsubscribesLeft } from './api/billing-state';
export { useHasSubscription } from './api/subscription-status';
export { FreeUnsubscribesLeft } from './free-left';
export { bulkRunText } from './plans';

/** The dialog of the free trial's limit (a 402 in the app), loaded only when one is shown. */
export const loadPlanLimitDialog = () => import('./plan-limit-dialog');
