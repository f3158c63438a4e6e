import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API } from '../../../contract/routes.js';
import type { AccountsService } from '../../features/accounts/service.js';
import type { SettingsService } from '../../features/settings/service.js';
import { parseBody } from '../validate.js';

const SettingsBody = z.object({
  alertManualUnsubscribe: z.boolean({ error: 'alertManualUnsubscribe must be true or false.' }),
  alertAfterUnsubscribe: z.boolean({ error: 'alertAfterUnsubscribe must be true or false.' }),
  autoBlockStillSending: z.boolean({ error: 'autoBlockStillSending must be true or false.' }).optional(),
});

export async function accountRoutes(
  app: FastifyInstance,
  { accounts, settings }: { accounts: AccountsService; settings: SettingsService },
) {
  app.get(API.signinStatus, async (request) => ({ status: (await request.sessionUser()) !== undefined }));

  app.get(API.subscriptionStatus, async (request) => {
    const user = await request.requireUser();
    return { status: await accounts.hasActiveSubscription(user.userId) };
  });

  app.get(API.getSettings, async (request) => settings.get((await request.requireUser()).userId));

  app.put(API.updateSettings, async (request) => {
    const user = await request.requireUser();
    return settings.update(user.userId, parseBody(SettingsBody, request.body));
  });

  app.delete(API.deleteAccount, async (request, reply) => {
    const user = await request.requireUser();
    await accounts.deleteAccount(user.userId);
    reply.endSession();
    return { message: 'Your account and everything stored with it has been deleted.' };
  });
}
