import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import helmet from 'helmet';
import pg from 'pg';
import type { Config } from './config.js';
import { checkpointAfterDelete, type Db } from './db/index.js';
import { createMailer, type Mailer } from './email/mailer.js';
import { createAccountsService, sessionIdOf } from './features/accounts/service.js';
import { createBillingService } from './features/billing/service.js';
import { createContentfulSource } from './features/blog/contentful-source.js';
import { createMarkdownSource, defaultBlogDir, loadMarkdownPosts } from './features/blog/markdown-source.js';
import { createBlogService } from './features/blog/service.js';
import { createBulkService } from './features/bulk/service.js';
import { createContactService } from './features/contact/service.js';
import { createMailboxesService, saveMailboxSecret } from './features/mailboxes/service.js';
import { createOAuthService } from './features/oauth/service.js';
import { createPreviewService } from './features/preview/service.js';
import { createRepositories } from './features/repositories.js';
import { createScansService } from './features/scans/service.js';
import { createSettingsService } from './features/settings/service.js';
import { createSubscriptionsService } from './features/subscriptions/service.js';
import { createUnsubscribeService } from './features/unsubscribe/service.js';
import { registerCsrf } from './http/plugins/csrf.js';
import { registerErrorHandler } from './http/plugins/errors.js';
import { registerSchemaCompilers } from './http/plugins/schemas.js';
import { registerSessions, SESSION_COOKIE } from './http/plugins/session.js';
import { perUserRateLimit } from './http/plugins/user-rate-limit.js';
import { authRoutes } from './http/routes/auth.js';
import { blogRoutes } from './http/routes/blog.js';
import { oauthRoutes } from './http/routes/oauth.js';
import { publicRoutes } from './http/routes/public.js';
import { signedInRoutes } from './http/routes/signed-in.js';
import { stripeRoutes } from './http/routes/stripe.js';
import { registerSpaFallback } from './http/spa.js';
import { registerStaticAssets } from './http/static-assets.js';
import { createPgBossQueue } from './jobs/pgboss.js';
import { createInProcessQueue, type JobHandlers, type JobQueue } from './jobs/queue.js';
import { type Scheduler, startScheduler } from './jobs/scheduler.js';
import { type HostLookup, parseHostList } from './lib/address-policy.js';
import { keyedHasher, SecretBox } from './lib/crypto.js';
import { createDnsResolver } from './lib/dns-resolver.js';
import { attachLive, type Live } from './live/index.js';
import { createProviderFactory, type ProviderFactory } from './mail/index.js';

export interface AppDeps {
  config: Config;
  db: Db;
  mailer?: Mailer;
  /** Replaces the real mail adapters (tests of failure paths). */
  providers?: ProviderFactory;
  /** Retry backoff of the job runner (tests make it short). */
  jobBackoffMs?: number;
  /** Resolver of mail server hosts, checked at every IMAP/SMTP connect (tests play DNS). */
  lookup?: HostLookup;
  /** Where the log goes instead of stdout (tests read it for secrets). */
  logStream?: NodeJS.WritableStream;
}

declare module 'fastify' {
  interface FastifyInstance {
    live: Live;
    jobs: JobQueue;
    /** Starts the periodic mailbox checks (the scheduler role). */
    startScheduler(): Scheduler;
  }
}

/** Fastify's request serializer without the query string. */
export function logSafeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: pathOf(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** A request target without its query string (or fragment), for logs. */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** Composition root: builds the services and registers plugins and routes. Does not listen. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, mailer: givenMailer } = deps;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'],
      // Query strings carry secrets (reset tokens, OAuth codes and states, Checkout session ids): only
      // the path of a request is logged (docs/decisions.md, "Nothing secret in the logs").
      serializers: { req: logSafeRequest },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });

  const mailer =
    givenMailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir });
  const repos = createRepositories(db);
  const accounts = createAccountsService({
    repo: repos.accounts,
    mailer,
    publicUrl: config.publicUrl,
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
      saveSecret: (mailboxId, sealed) => saveMailboxSecret(repos, mailboxId, sealed),
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
  const unsubscribe = createUnsubscribeService({
    repos,
    providers,
    subscriptions,
    allowedHosts: parseHostList(config.unsubscribeAllowedHosts),
    dnsResolver: createDnsResolver(config.dnsServers),
    log: app.log,
    reserveUnsubscribe: billing.reserveUnsubscribe,
  });
  // Unsubscribe runs a stopped process left mid-way are settled, never sent again (on SQLite this
  // process is the only one, so every unfinished run is abandoned; on PostgreSQL those past their lease).
  app.addHook('onReady', async () => {
    const settled = await unsubscribe.reconcileAbandoned({ all: !config.databaseUrl });
    if (settled > 0) app.log.warn({ settled }, 'settled unsubscribe runs left by a stopped process');
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
  });
  // Its handler is in the job map below; `jobs` is only read when a bulk is queued, after start.
  const bulk = createBulkService({
    repos,
    unsubscribe,
    live,
    enqueue: (bulkId) => jobs.enqueue('bulk-action', { bulkId }, { key: `bulk:${bulkId}` }),
    log: app.log,
  });
  // Bulk actions a stopped process left unfinished go on (after the unsubscribe runs it left were settled
  // above, so an item cut off mid-request answers from its receipts instead of being sent again).
  app.addHook('onReady', async () => {
    const resumed = await bulk.resumeUnfinished({ all: !config.databaseUrl });
    if (resumed > 0) app.log.info({ resumed }, 'resuming unfinished bulk actions');
  });
  const handlers: JobHandlers = {
    'scan-mailbox': ({ mailboxId }) => scans.scanMailbox(mailboxId),
    'billing-sync': ({ customerId }) => billing.syncCustomer(customerId),
    'bulk-action': ({ bulkId }) => bulk.run(bulkId),
  };
  const jobs = config.databaseUrl
    ? await createPgBossQueue({
        connectionString: config.databaseUrl,
        schema: config.jobSchema,
        handlers,
        work: config.roles.has('worker'),
        retryDelaySeconds:
          deps.jobBackoffMs === undefined ? 2 : Math.max(1, Math.round(deps.jobBackoffMs / 1000)),
        pollingIntervalSeconds: deps.jobBackoffMs === undefined ? 2 : 0.5,
        onError: (error) => app.log.error({ err: error }, 'job queue error'),
      })
    : createInProcessQueue({
        handlers,
        backoffMs: deps.jobBackoffMs,
        onError: (error, job) => app.log.warn({ err: error, job }, 'job failed'),
      });
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
  });
  // Webhook events a stopped process stored but did not sync are synced now (the in-process queue is
  // lost with its process; pg-boss keeps its jobs, and a second sync changes nothing).
  app.addHook('onReady', async () => {
    const queued = await billing.resumeUnprocessed();
    if (queued > 0) app.log.info({ queued }, 'syncing Stripe customers with unprocessed events');
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

  registerErrorHandler(app);
  registerSchemaCompilers(app);
  // Google Analytics' hosts are allowed only when analytics is configured (the browser still loads it
  // only after the visitor's consent).
  const analyticsHosts = config.gaMeasurementId
    ? ['https://*.googletagmanager.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com']
    : [];
  // Helmet's middleware built once: @fastify/helmet builds it again for every request (parsing the CSP
  // directives each time), about a tenth of what a small API answer costs.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...analyticsHosts],
        imgSrc: ["'self'", 'data:', 'https:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'", ...analyticsHosts],
        frameSrc: ["'self'"],
        upgradeInsecureRequests: config.secureCookies ? [] : null,
      },
    },
    hsts: config.secureCookies,
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );
  await app.register(fastifyCookie, { secret: config.secretKey });
  await registerCsrf(app, config.secureCookies);
  await app.register(fastifyRateLimit, { global: false });
  registerSessions(app, accounts, config.secureCookies);

  const authLimit = { max: config.authRateLimit.max, timeWindow: config.authRateLimit.windowMs };
  await app.register(publicRoutes, { config, contact, rateLimit: authLimit });
  await app.register(authRoutes, { accounts, rateLimit: authLimit });
  await app.register(stripeRoutes, { billing });
  await app.register(blogRoutes, { blog, publicUrl: config.publicUrl, blogDir });
  await app.register(signedInRoutes, {
    accounts,
    billing,
    settings,
    mailboxes,
    subscriptions,
    unsubscribe,
    bulk,
    preview: createPreviewService({ repos, providers }),
    rateLimit: authLimit,
    userRateLimit: perUserRateLimit(config.userRateLimit),
  });
  await app.register(oauthRoutes, {
    oauth,
    accounts,
    secureCookies: config.secureCookies,
    rateLimit: authLimit,
  });

  // The built web app: its files (static-assets.ts), and index.html for the screens' paths (spa.ts).
  const webRoot =
    config.webRoot && existsSync(path.join(config.webRoot, 'index.html')) ? config.webRoot : null;
  if (webRoot) await registerStaticAssets(app, webRoot);
  registerSpaFallback(app, { root: webRoot, publicUrl: config.publicUrl, blog });

  app.decorate('live', live);
  app.decorate('jobs', jobs);
  const schedulers: Scheduler[] = [];
  app.decorate('startScheduler', () => {
    const scheduler = startScheduler({
      intervalMs: config.scanIntervalMs,
      due: (interval) => scans.dueMailboxes(interval),
      interrupted: () => scans.interruptedMailboxes(),
      enqueue: requestScan,
      onError: (error) => app.log.error({ err: error }, 'scheduler tick failed'),
    });
    schedulers.push(scheduler);
    return scheduler;
  });
  app.addHook('onClose', async () => {
    // Bulk runners start no new item; the rest of a bulk waits for the next start (resumeUnfinished).
    bulk.stop();
    for (const s of schedulers) s.stop();
    await jobs.stop();
    await live.io.close();
    await livePool?.end();
  });
  return app;
}

/** Connections of the socket.io PostgreSQL adapter (one holds LISTEN), and its table for large events. */
async function openLivePool(databaseUrl: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  try {
    await pool.query(
      'CREATE TABLE IF NOT EXISTS public.socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)',
    );
  } catch (error) {
    // Two instances starting together can both try to create it; one wins (duplicate type/table).
    if (!['23505', '42P07'].includes((error as { code?: string }).code ?? '')) throw error;
  }
  return pool;
}
