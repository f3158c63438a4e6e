// What the other features and the app's shell use of billing (the sidebar's "Get Full Access").
export { useHasSubscription } from './api/subscription-status';
