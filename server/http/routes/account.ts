import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emailStatusSchema,
  messageResponseSchema,
  reportPreviewSchema,
  settingsSchema,
  settingsUpdateSchema,
  statusResponseSchema,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import type { AccountsService } from '#server/features/accounts/service.js';
import type { BillingService } from '#server/features/billing/service.js';
import type { ReportService } from '#server/features/report/service.js';
import type { SettingsService } from '#server/features/settings/service.js';

export interface AccountRouteOptions {
  accounts: AccountsService;
  billing: BillingService;
  settings: SettingsService;
  report: ReportService;
  /** AUTH_RATE_LIMIT, per IP: Resend mails someone. */
  rateLimit: { max: number; timeWindow: number };
}

// The signed-in user's account: plan, settings, deletion (registered under routes/signed-in.ts).
export const accountRoutes: FastifyPluginAsyncZod<AccountRouteOptions> = async (
  app,
  { accounts, billing, settings, report, rateLimit },
) => {
  app.get(
    API.subscriptionStatus,
    { schema: { response: { 200: statusResponseSchema } } },
    async (request) => ({
      status: await billing.hasActiveSubscription(request.user.userId),
    }),
  );

  app.get(API.getSettings, { schema: { response: { 200: settingsSchema } } }, async (request) =>
    settings.get(request.user.userId),
  );

  app.put(
    API.updateSettings,
    { schema: { body: settingsUpdateSchema, response: { 200: settingsSchema } } },
    async (request) => settings.update(request.user.userId, request.body),
  );

  // The weekly report's switch in Settings shows when reports arrive and a preview of the user's own
  // (features/report): read-only, no mail sent.
  app.get(API.reportPreview, { schema: { response: { 200: reportPreviewSchema } } }, async (request) =>
    report.preview(request.user.userId),
  );

  // Whether the signed-in user's address is proven (the banner), and "Resend" of its link.
  app.get(API.emailVerification, { schema: { response: { 200: emailStatusSchema } } }, async (request) =>
    accounts.emailStatus(request.user.userId),
  );

  app.post(
    API.emailVerification,
    { config: { rateLimit }, schema: { response: { 200: messageResponseSchema } } },
    async (request) => {
      await accounts.resendVerification(request.user.userId, request.log);
      return { message: 'A new confirmation link is on its way. It works for 24 hours.' };
    },
  );

  app.delete(
    API.deleteAccount,
    { schema: { response: { 200: messageResponseSchema } } },
    async (request, reply) => {
      // A paid plan ends with the account: nobody is charged for an account that no longer exists.
      await billing.cancelForDeletion(request.user.userId);
      // What it used of the free trial is kept by accounts' beforeDelete (services.ts).
      await accounts.deleteAccount(request.user.userId);
      reply.endSession();
      return { message: 'Your account and everything stored with it has been deleted.' };
    },
  );
};
