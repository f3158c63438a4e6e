// What the other features and the app's shell use of the subscriptions; the rest stays inside.
export { subscriptionKeys } from './api/keys';
export { addLiveSubscription, setSubscriptionRule } from './api/list-query';
export { liveScanProgress, setLiveScan } from './api/live-scan';
export { blockSubscription, unblockSubscription } from './api/row-actions';
