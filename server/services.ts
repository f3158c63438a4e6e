import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './app.js';
import { checkpointAfterDelete } from './db/index.js';
import { createMailer, type Mailer } from './email/mailer.js';
import { type AccountsService, createAccountsService, sessionIdOf } from './features/accounts/service.js';
import { activityLog } from './features/activity/repository.js';
import { createActivityService } from './features/activity/service.js';
import { type BillingService, createBillingService } from './features/billing/service.js';
import { createContentfulSource } from './features/blog/contentful-source.js';
import { createMarkdownSource, defaultBlogDir, loadMarkdownPosts } from './features/blog/markdown-source.js';
import { createBlogService } from './features/blog/service.js';
import { createBulkService } from './features/bulk/service.js';
import { createContactService } from './features/contact/service.js';
import { createExportRepository } from './features/export/repository.js';
import { createExportService } from './features/export/service.js';
import { createInsightsRepository } from './features/insights/repository.js';
import { createInsightsService } from './features/insights/service.js';
import { createMailboxSettingsService } from './features/mailbox-settings/service.js';
import { createMailboxesService, saveMailboxSecret } from './features/mailboxes/service.js';
import { createOAuthService } from './features/oauth/service.js';
import { createOrganiseService } from './features/organise/service.js';
import { createPreviewService, PREVIEWS_PER_MAILBOX } from './features/preview/service.js';
import { createReportRepository } from './features/report/repository.js';
import { createReportService } from './features/report/service.js';
import { createRepositories, type Repositories } from './features/repositories.js';
import { createScansService } from './features/scans/service.js';
import { createSecurityService, type SecurityService } from './features/security/service.js';
import { createSettingsService } from './features/settings/service.js';
import { createSubscriptionsService } from './features/subscriptions/service.js';
import { createUnsubscribeService } from './features/unsubscribe/service.js';
import { SESSION_COOKIE } from './http/plugins/session.js';
import { createJobQueue, type JobHandlers, type JobQueue } from './jobs/index.js';
import { parseHostList } from './lib/address-policy.js';
import { keyedHasher, SecretBox } from './lib/crypto.js';
import { configuredResolver, createDnsResolver } from './lib/dns-resolver.js';
import { attachLive } from './live/index.js';
import { openLivePool } from './live/pool.js';
import { createProviderFactory } from './mail/index.js';
import { createMailPool, type MailPool } from './mail/pool.js';

export type Services = Awaited<ReturnType<typeof createServices>>;

/**
 * A service made after those whose callbacks call it (accounts' `beforeDelete` calls billing, made later):
 * set once it is built, read only when a request or a job comes, after start.
 */
interface LateBound<T> {
  set(value: T): T;
  get(): T;
}

function lateBound<T>(name: string): LateBound<T> {
  let bound: { value: T } | null = null;
  return {
    set(value) {
      bound = { value };
      return value;
    },
    get() {
      if (!bound) throw new Error(`The ${name} service is used before it is built`);
      return bound.value;
    },
  };
}

/** The services read by callbacks of services built before them. */
interface Later {
  billing: LateBound<BillingService>;
  security: LateBound<SecurityService>;
  jobs: LateBound<JobQueue>;
  mailPool: LateBound<MailPool>;
}

/** What every builder below is given: the app (its logger, its server), the dependencies, the ports. */
interface Base {
  app: FastifyInstance;
  deps: AppDeps;
  mailer: Mailer;
  repos: Repositories;
  later: Later;
}

/** The account's services: sign-up and sign-in, settings, the contact form, two-step sign-in and passkeys. */
function buildAccountServices({ app, deps, mailer, repos, later }: Base) {
  const { config, db } = deps;
  const accounts = createAccountsService({
    repo: repos.accounts,
    mailer,
    publicUrl: config.publicUrl,
    // Both read services made later, once requests arrive.
    beforeDelete: (userId) => later.billing.get().keepTrialUsage(userId),
    secondStep: {
      begin: (userId) => later.security.get().totp.beginSecondStep(userId),
      check: (userId, code) => later.security.get().totp.check(userId, code),
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
  const security = later.security.set(
    createSecurityService({
      repo: repos.security,
      accountsRepo: repos.accounts,
      accounts,
      secrets,
      publicUrl: config.publicUrl,
    }),
  );
  return { accounts, settings, contact, secrets, security };
}

/** The mail port and what acts on the user's mail: subscriptions, billing's gate on it, organise, unsubscribe. */
function buildMailServices({ app, deps, repos, later }: Base, secrets: SecretBox) {
  const { config } = deps;
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
  const billing = later.billing.set(
    createBillingService({
      settings: config.stripe,
      repos,
      publicUrl: config.publicUrl,
      // One sync at a time per customer; events arriving meanwhile merge into the next one.
      enqueueSync: (customerId) =>
        later.jobs.get().enqueue('billing-sync', { customerId }, { key: `stripe-customer:${customerId}` }),
      log: app.log,
      trialKey: keyedHasher(config.secretKey, 'trial usage'),
    }),
  );
  // What moved the user's mail, for the Activity screen: written by organise, unsubscribe and bulk.
  const activityLogged = activityLog(repos.activity);
  const organise = createOrganiseService({
    repos,
    activity: activityLogged,
    providers,
    hasPremium: (userId) => billing.hasActiveSubscription(userId),
    log: app.log,
  });
  const unsubscribe = createUnsubscribeService({
    repos,
    organise,
    activity: activityLogged,
    providers,
    subscriptions,
    allowedHosts: parseHostList(config.unsubscribeAllowedHosts),
    dnsResolver: createDnsResolver(config.dnsServers),
    log: app.log,
    reserveUnsubscribe: billing.reserveUnsubscribe,
  });
  const activity = createActivityService({ repo: repos.activity, unsubscribe, organise });
  return { providers, subscriptions, billing, organise, unsubscribe, activity, activityLogged };
}

/** socket.io on the app's server, across instances through PostgreSQL when there is one. */
async function buildLive({ app, deps }: Base, accounts: AccountsService) {
  const { config } = deps;
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
  return { livePool, live };
}

/** What runs as jobs (scans, bulk actions, billing syncs, weekly reports) and the queue that runs them. */
async function buildJobServices(
  base: Base,
  mail: ReturnType<typeof buildMailServices>,
  live: Awaited<ReturnType<typeof buildLive>>['live'],
) {
  const { app, deps, mailer, repos, later } = base;
  const { config, db } = deps;
  const { providers, subscriptions, billing, organise, unsubscribe, activityLogged } = mail;
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
    activity: activityLogged,
    live,
    enqueue: (bulkId) => later.jobs.get().enqueue('bulk-action', { bulkId }, { key: `bulk:${bulkId}` }),
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
  const jobs = later.jobs.set(
    await createJobQueue(config, handlers, { backoffMs: deps.jobBackoffMs, log: app.log }),
  );
  const requestScan = (mailboxId: string) =>
    jobs.enqueue('scan-mailbox', { mailboxId }, { key: `mailbox:${mailboxId}` });
  return { scans, bulk, report, jobs, requestScan };
}

/** Adding and removing mailboxes, by app password or through OAuth (which signs in too). */
function buildMailboxServices(
  { deps, repos, later }: Base,
  { accounts, secrets }: ReturnType<typeof buildAccountServices>,
  { providers, billing }: ReturnType<typeof buildMailServices>,
  requestScan: Awaited<ReturnType<typeof buildJobServices>>['requestScan'],
) {
  const { config } = deps;
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
    // The pool is made later; a removal comes with a request, after start.
    mailboxRemoved: (mailboxId) => later.mailPool.get().evict(mailboxId),
  });
  const oauth = createOAuthService({ config, accounts, mailboxes });
  // The add-mailbox form's suggestion: DNS with one short try, so a silent domain cannot hold the form.
  const mailboxSettings = createMailboxSettingsService({
    resolver: configuredResolver(config.dnsServers, { timeoutMs: 1500, tries: 1 }),
    allowedHosts: parseHostList(config.imapAllowedHosts),
    autoconfigPort: deps.autoconfigPort,
  });
  return { mailboxes, oauth, mailboxSettings };
}

/**
 * The blog: Contentful when configured, else the repository's markdown posts, read and checked now (a bad
 * post stops the start, naming the file and the field).
 */
async function buildBlog({ app, deps }: Base) {
  const { config } = deps;
  const blogDir = config.blogDir ?? defaultBlogDir();
  const blog = createBlogService({
    source: config.contentful
      ? createContentfulSource({ settings: config.contentful, log: app.log })
      : createMarkdownSource(await loadMarkdownPosts(blogDir, app.log)),
    log: app.log,
  });
  return { blog, blogDir };
}

/** What reads for the user on request: previews through pooled connections, the data export, insights. */
function buildReadServices(
  { deps, repos, later }: Base,
  providers: ReturnType<typeof buildMailServices>['providers'],
  security: SecurityService,
) {
  const { db } = deps;
  // Logged-in connections kept per mailbox between requests (decision 089); closed in app.ts' onClose.
  const mailPool = later.mailPool.set(
    createMailPool(providers, {
      perMailbox: PREVIEWS_PER_MAILBOX,
      idleMs: deps.mailPoolIdleMs,
    }),
  );
  const preview = createPreviewService({ repos, mail: mailPool });
  const dataExport = createExportService({
    repo: createExportRepository(db),
    passkeys: (userId) => security.passkeys.list(userId),
  });
  const insights = createInsightsService({ repo: createInsightsRepository(db) });
  return { mailPool, preview, dataExport, insights };
}

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
  const later: Later = {
    billing: lateBound('billing'),
    security: lateBound('security'),
    jobs: lateBound('job queue'),
    mailPool: lateBound('mail pool'),
  };
  const base: Base = { app, deps, mailer, repos, later };
  const account = buildAccountServices(base);
  const mail = buildMailServices(base, account.secrets);
  const { livePool, live } = await buildLive(base, account.accounts);
  const work = await buildJobServices(base, mail, live);
  const { mailboxes, oauth, mailboxSettings } = buildMailboxServices(base, account, mail, work.requestScan);
  const { blog, blogDir } = await buildBlog(base);
  const { mailPool, preview, dataExport, insights } = buildReadServices(
    base,
    mail.providers,
    account.security,
  );
  return {
    accounts: account.accounts,
    security: account.security,
    settings: account.settings,
    contact: account.contact,
    subscriptions: mail.subscriptions,
    billing: mail.billing,
    unsubscribe: mail.unsubscribe,
    organise: mail.organise,
    activity: mail.activity,
    scans: work.scans,
    bulk: work.bulk,
    mailboxes,
    mailboxSettings,
    oauth,
    blog,
    blogDir,
    preview,
    dataExport,
    insights,
    report: work.report,
    live,
    livePool,
    mailPool,
    jobs: work.jobs,
    requestScan: work.requestScan,
  };
}
