import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './app.js';
import { checkpointAfterDelete } from './db/index.js';
import { createMailer } from './email/mailer.js';
import { createAccountsService, sessionIdOf } from './features/accounts/service.js';
import { createBillingService } from './features/billing/service.js';
import { createContentfulSource } from './features/blog/contentful-source.js';
import { createMarkdownSource, defaultBlogDir, loadMarkdownPosts } from './features/blog/markdown-source.js';
import { createBlogService } from './features/blog/service.js';
import { createBulkService } from './features/bulk/service.js';
import { createContactService } from './features/contact/service.js';
import { createExportRepository } from './features/export/repository.js';
import { createExportService } from './features/export/service.js';
import { createInsightsRepository } from './features/insights/repository.js';
import { createInsightsService } from './features/insights/service.js';
import { createMailboxesService, saveMailboxSecret } from './features/mailboxes/service.js';
import { createOAuthService } from './features/oauth/service.js';
import { createOrganiseService } from './features/organise/service.js';
import { createPreviewService, PREVIEWS_PER_MAILBOX } from './features/preview/service.js';
import { createReportRepository } from './features/report/repository.js';
import { createReportService } from './features/report/service.js';
import { createRepositories } from './features/repositories.js';
import { createScansService } from './features/scans/service.js';
import { createSecurityService } from './features/security/service.js';
import { createSettingsService } from './features/settings/service.js';
import { createSubscriptionsService } from './features/subscriptions/service.js';
import { createUnsubscribeService } from './features/unsubscribe/service.js';
import { SESSION_COOKIE } from './http/plugins/session.js';
import { createJobQueue, type JobHandlers } from './jobs/index.js';
import { parseHostList } from './lib/address-policy.js';
import { keyedHasher, SecretBox } from './lib/crypto.js';
import { createDnsResolver } from './lib/dns-resolver.js';
import { attachLive } from './live/index.js';
import { openLivePool } from './live/pool.js';
import { createProviderFactory } from './mail/index.js';
import { createMailPool } from './mail/pool.js';

export type Services = Awaited<ReturnType<typeof createServices>>;

/**
 * Builds every service from the configuration, in the order they depend on each other: repositories and
 * ports first, then the features, the live channel and the job queue. `app` gives them its logger and its
 * HTTP server (socket.io attaches to it).
 */
export async function createServices(app: FastifyInstance, deps: AppDeps) {
  const { config, db, mailer: givenMailer } = deps;
  const mailer =
    givenMailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: config.dataDir,
      dkim: config.dkim,
    });
  const repos = createRepositories(db);
  const accounts = createAccountsService({
    repo: repos.accounts,
    mailer,
    publicUrl: config.publicUrl,
    // Both read services made below, once requests arrive.
    beforeDelete: (userId) => billing.keepTrialUsage(userId),
    secondStep: {
      begin: (userId) => security.totp.beginSecondStep(userId),
      check: (userId, code) => security.totp.check(userId, code),
    },
    afterDelete: async (user) => {
      try {
        await mailer.forget?.(user.email);
        await checkpointAfterDelete(db);
      } catch (err) {
        app.log.error({ err }, 'cleaning up after an account deletion failed');
      }
    },
  });
  const settings = createSettingsService(repos);
  const contact = createContactService({ mailer, supportEmail: config.supportEmail });
  const secrets = new SecretBox(config.secretKey);
  const security = createSecurityService({
    repo: repos.security,
    accountsRepo: repos.accounts,
    accounts,
    secrets,
    publicUrl: config.publicUrl,
  });
  const providers =
    deps.providers ??
    createProviderFactory({
      secrets,
      overridesJson: config.mailProviderOverrides,
      batchSize: config.scanBatchSize,
      google: config.google,
      googleBaseUrl: config.googleBaseUrl,
      microsoft: config.microsoft,
      microsoftBaseUrl: config.microsoftBaseUrl,
      saveSecret: (mailboxId, sealed, replacing) => saveMailboxSecret(repos, mailboxId, sealed, replacing),
      imapAllowedHosts: parseHostList(config.imapAllowedHosts),
      lookup: deps.lookup,
    });
  const subscriptions = createSubscriptionsService(repos);
  const billing = createBillingService({
    settings: config.stripe,
    repos,
    publicUrl: config.publicUrl,
    // One sync at a time per customer; events arriving meanwhile merge into the next one.
    enqueueSync: (customerId) =>
      jobs.enqueue('billing-sync', { customerId }, { key: `stripe-customer:${customerId}` }),
    log: app.log,
    trialKey: keyedHasher(config.secretKey, 'trial usage'),
  });
  const organise = createOrganiseService({
    repos,
    providers,
    hasPremium: (userId) => billing.hasActiveSubscription(userId),
    log: app.log,
  });
  const unsubscribe = createUnsubscribeService({
    repos,
    organise,
    providers,
    subscriptions,
    allowedHosts: parseHostList(config.unsubscribeAllowedHosts),
    dnsResolver: createDnsResolver(config.dnsServers),
    log: app.log,
    reserveUnsubscribe: billing.reserveUnsubscribe,
  });
  const livePool = config.databaseUrl ? await openLivePool(config.databaseUrl) : null;
  const live = attachLive(
    app.server,
    {
      // A socket handshake carries the same session cookie as the API calls.
      authenticate: async (cookieHeader) => {
        const token = app.parseCookie(cookieHeader)[SESSION_COOKIE];
        const user = await accounts.sessionUser(token);
        return user && token ? { userId: user.userId, sessionId: sessionIdOf(token) } : null;
      },
      onSessionsEnded: (listener) => accounts.onSessionsEnded(listener),
    },
    config.publicUrl,
    livePool ? { pool: livePool, channelPrefix: `ig_${config.jobSchema}` } : undefined,
  );
  const scans = createScansService({
    repos,
    providers,
    live,
    subscriptions,
    log: app.log,
    afterCheck: (userId, mailboxId) => unsubscribe.verify(userId, mailboxId),
    organise,
  });
  // Its handler is in the job map below; `jobs` is only read when a bulk is queued, after start.
  const bulk = createBulkService({
    repos,
    unsubscribe,
    live,
    enqueue: (bulkId) => jobs.enqueue('bulk-action', { bulkId }, { key: `bulk:${bulkId}` }),
    log: app.log,
  });
  // The weekly report (features/report): its job sends one user's report; the scheduler queues those due.
  const report = createReportService({
    repo: createReportRepository(db),
    mailer,
    publicUrl: config.publicUrl,
  });
  const handlers: JobHandlers = {
    'scan-mailbox': ({ mailboxId }) => scans.scanMailbox(mailboxId),
    'billing-sync': ({ customerId }) => billing.syncCustomer(customerId),
    'bulk-action': ({ bulkId }) => bulk.run(bulkId),
    'weekly-report': async ({ userId }) => {
      await report.sendWeekly(userId);
    },
  };
  const jobs = await createJobQueue(config, handlers, { backoffMs: deps.jobBackoffMs, log: app.log });
  const requestScan = (mailboxId: string) =>
    jobs.enqueue('scan-mailbox', { mailboxId }, { key: `mailbox:${mailboxId}` });
  const mailboxes = createMailboxesService({
    repos,
    secrets,
    providers,
    requestScan,
    allowedHosts: parseHostList(config.imapAllowedHosts),
    lookup: deps.lookup,
    mailboxLimit: billing.mailboxLimit,
    addressProven: accounts.mailboxProven,
    mailboxAdded: billing.mailboxConnected,
    // The pool is made below; a removal comes with a request, after start.
    mailboxRemoved: (mailboxId) => mailPool.evict(mailboxId),
  });
  const oauth = createOAuthService({ config, accounts, mailboxes });
  // The blog: Contentful when configured, else the repository's markdown posts, read and checked now (a bad
  // post stops the start, naming the file and the field).
  const blogDir = config.blogDir ?? defaultBlogDir();
  const blog = createBlogService({
    source: config.contentful
      ? createContentfulSource({ settings: config.contentful, log: app.log })
      : createMarkdownSource(await loadMarkdownPosts(blogDir, app.log)),
    log: app.log,
  });

  // Logged-in connections kept per mailbox between requests (decision 089); closed in app.ts' onClose.
  const mailPool = createMailPool(providers, {
    perMailbox: PREVIEWS_PER_MAILBOX,
    idleMs: deps.mailPoolIdleMs,
  });
  const preview = createPreviewService({ repos, mail: mailPool });
  const dataExport = createExportService({
    repo: createExportRepository(db),
    passkeys: (userId) => security.passkeys.list(userId),
  });
  const insights = createInsightsService({ repo: createInsightsRepository(db) });
  return {
    accounts,
    security,
    settings,
    contact,
    subscriptions,
    billing,
    unsubscribe,
    organise,
    scans,
    bulk,
    mailboxes,
    oauth,
    blog,
    blogDir,
    preview,
    dataExport,
    insights,
    report,
    live,
    livePool,
    mailPool,
    jobs,
    requestScan,
  };
}
