// The free trial's limits and the billing answers' messages, apart from api.ts (which re-exports them):
// the signed-in area's first screen needs these constants, and api.ts would bring its schemas and zod.

/** The free trial's limits, enforced on the server while billing is on; premium has none. */
export const FREE_TRIAL = { mailboxes: 1, unsubscribes: 10 } as const;

/** Answers of the limits: 401 on adding a second mailbox (the add-account screen shows it), 402 otherwise. */
export const BILLING_MESSAGES = {
  subscriptionRequired: 'Subscription required',
  unsubscribeLimit: `Your free trial includes ${FREE_TRIAL.unsubscribes} unsubscribes and they are used up. Choose a plan to unsubscribe without limits.`,
  unavailable: 'Plans are not sold on this server: every feature is available without limits.',
  noCustomer: 'There is no billing account yet. Choose a plan first.',
} as const;
