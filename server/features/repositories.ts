import type { Db } from '../db/index.js';
import { createAccountsRepository } from './accounts/repository.js';
import { createActivityRepository } from './activity/repository.js';
import { createBillingRepository } from './billing/repository.js';
import { createBulkRepository } from './bulk/repository.js';
import { createMailboxesRepository } from './mailboxes/repository.js';
import { createOrganiseRepository } from './organise/repository.js';
import { createPreviewRepository } from './preview/repository.js';
import { createScansRepository } from './scans/repository.js';
import { createSecurityRepository } from './security/repository.js';
import { createSettingsRepository } from './settings/repository.js';
import { createSubscriptionsRepository } from './subscriptions/repository.js';
import { createUnsubscribeRepository } from './unsubscribe/repository.js';

// Every feature's SQL, built once on the database by the composition root (server/app.ts). Services
// receive the repositories they use and never the database: a service.ts cannot import the database or
// Kysely (biome.json), so SQL has one place per feature.

export function createRepositories(db: Db) {
  return {
    accounts: createAccountsRepository(db),
    activity: createActivityRepository(db),
    billing: createBillingRepository(db),
    bulk: createBulkRepository(db),
    mailboxes: createMailboxesRepository(db),
    organise: createOrganiseRepository(db),
    preview: createPreviewRepository(db),
    scans: createScansRepository(db),
    security: createSecurityRepository(db),
    settings: createSettingsRepository(db),
    subscriptions: createSubscriptionsRepository(db),
    unsubscribe: createUnsubscribeRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
