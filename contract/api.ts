// Request and response shapes of the HTTP API, as zod schemas: the server's routes validate bodies,
// queries and params with them and whitelist their answers through them; both sides use the types
// inferred from them. The rules and their messages are in validation.ts.
//
// Request schemas check the types of the fields first (`z.string({ error })`: a missing or non-string
// field answers that field's message) and the rules second, in an object-level `superRefine`, which zod
// runs only once every field has the right type. That keeps the order the API always answered in: a
// missing password says "Password is required." even when the email next to it is malformed too.
//
// One file per part of the API under contract/api/; this entry is what both sides import.

export * from './api/accounts.js';
export * from './api/activity.js';
export * from './api/billing.js';
export * from './api/blog.js';
export * from './api/bulk.js';
export * from './api/export.js';
export * from './api/insights.js';
export * from './api/mailbox-settings.js';
export * from './api/mailboxes.js';
export * from './api/oauth.js';
export * from './api/public-config.js';
export * from './api/rules.js';
export * from './api/security.js';
export * from './api/shared.js';
export * from './api/subscriptions.js';
