import type { FastifyPluginAsync } from 'fastify';
import { requireSession } from '../plugins/session.js';
import { type AccountRouteOptions, accountRoutes } from './account.js';
import { type ActivityRouteOptions, activityRoutes } from './activity.js';
import { type BillingRouteOptions, billingRoutes } from './billing.js';
import { type BulkRouteOptions, bulkRoutes } from './bulk.js';
import { type ExportRouteOptions, exportRoutes } from './export.js';
import { type InsightsRouteOptions, insightsRoutes } from './insights.js';
import { type MailboxSettingsRouteOptions, mailboxSettingsRoutes } from './mailbox-settings.js';
import { type MailboxRouteOptions, mailboxRoutes } from './mailboxes.js';
import { type OrganiseRouteOptions, organiseRoutes } from './organise.js';
import { type PreviewRouteOptions, previewRoutes } from './preview.js';
import { type SecurityRouteOptions, signedInSecurityRoutes } from './security.js';
import { type SubscriptionRouteOptions, subscriptionRoutes } from './subscriptions.js';

export type SignedInRouteOptions = AccountRouteOptions &
  ActivityRouteOptions &
  BillingRouteOptions &
  BulkRouteOptions &
  ExportRouteOptions &
  InsightsRouteOptions &
  MailboxRouteOptions &
  MailboxSettingsRouteOptions &
  OrganiseRouteOptions &
  PreviewRouteOptions &
  SecurityRouteOptions &
  SubscriptionRouteOptions;

/**
 * Every route that needs a session, in one encapsulated scope whose hook sets `request.user` or answers
 * 403 without a session (docs/decisions/003-signed-out-calls-answer-403.md).
 *
 * The hook is `preValidation`, not `preHandler`: a signed-out call is refused before its body is checked
 * against its schema, so it answers 403 whatever it sent, as it always did; it still runs after the CSRF
 * check and the rate limit (both `onRequest`), which also keeps their order.
 */
export const signedInRoutes: FastifyPluginAsync<SignedInRouteOptions> = async (app, options) => {
  app.addHook('preValidation', requireSession);
  await app.register(accountRoutes, options);
  await app.register(mailboxRoutes, options);
  await app.register(mailboxSettingsRoutes, options);
  await app.register(subscriptionRoutes, options);
  await app.register(previewRoutes, options);
  await app.register(billingRoutes, options);
  await app.register(bulkRoutes, options);
  await app.register(organiseRoutes, options);
  await app.register(activityRoutes, options);
  await app.register(exportRoutes, options);
  await app.register(insightsRoutes, options);
  await app.register(signedInSecurityRoutes, options);
};
