import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { Mailer } from './email/mailer.js';
import { registerCsrf } from './http/plugins/csrf.js';
import { registerErrorHandler } from './http/plugins/errors.js';
import { loggerOptions } from './http/plugins/logging.js';
import { registerOpenApi } from './http/plugins/openapi.js';
import { registerSchemaCompilers } from './http/plugins/schemas.js';
import { registerSecurityHeaders } from './http/plugins/security-headers.js';
import { registerSessions } from './http/plugins/session.js';
import { perUserRateLimit } from './http/plugins/user-rate-limit.js';
import { authRoutes } from './http/routes/auth.js';
import { blogRoutes } from './http/routes/blog.js';
import { oauthRoutes } from './http/routes/oauth.js';
import { publicRoutes } from './http/routes/public.js';
import { reportRoutes } from './http/routes/report.js';
import { signedOutSecurityRoutes } from './http/routes/security.js';
import { signedInRoutes } from './http/routes/signed-in.js';
import { stripeRoutes } from './http/routes/stripe.js';
import { registerSpaFallback } from './http/spa.js';
import { registerStaticAssets } from './http/static-assets.js';
import type { JobQueue } from './jobs/queue.js';
import { registerRecovery } from './jobs/recovery.js';
import { type Scheduler, startScheduler } from './jobs/scheduler.js';
import type { HostLookup } from './lib/address-policy.js';
import type { Live } from './live/index.js';
import type { ProviderFactory } from './mail/index.js';
import { createServices } from './services.js';

export interface AppDeps {
  config: Config;
  db: Db;
  mailer?: Mailer;
  /** Replaces the real mail adapters (tests of failure paths). */
  providers?: ProviderFactory;
  /** Retry backoff of the job runner (tests make it short). */
  jobBackoffMs?: number;
  /** How long a pooled mail connection is kept unused (mail/pool.ts POOL_IDLE_MS); 0 keeps none (tests). */
  mailPoolIdleMs?: number;
  /** Resolver of mail server hosts, checked at every IMAP/SMTP connect (tests play DNS). */
  lookup?: HostLookup;
  /** The port mail autoconfig files are fetched from (tests' local server; 443 otherwise). */
  autoconfigPort?: number;
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

/**
 * Composition root: the services (services.ts), then the plugins every request passes through, the
 * routes, the built web app, and what runs beside the requests (recovery at start, the scheduler). Does
 * not listen.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  const services = await createServices(app, deps);
  const { accounts, billing, blog, blogDir, bulk, jobs, live, livePool, scans } = services;
  registerRecovery(app, services, { all: !config.databaseUrl });

  registerErrorHandler(app);
  registerSchemaCompilers(app);
  registerSecurityHeaders(app, {
    analytics: Boolean(config.gaMeasurementId),
    secureCookies: config.secureCookies,
  });
  await app.register(fastifyCookie, { secret: config.secretKey });
  await registerCsrf(app, config.secureCookies);
  await app.register(fastifyRateLimit, { global: false });
  registerSessions(app, accounts, config.secureCookies);
  await registerOpenApi(app, { publicUrl: config.publicUrl });

  const authLimit = { max: config.authRateLimit.max, timeWindow: config.authRateLimit.windowMs };
  await app.register(publicRoutes, { config, contact: services.contact, rateLimit: authLimit });
  await app.register(authRoutes, { accounts, rateLimit: authLimit });
  await app.register(signedOutSecurityRoutes, {
    accounts,
    security: services.security,
    rateLimit: authLimit,
  });
  await app.register(stripeRoutes, { billing });
  await app.register(blogRoutes, { blog, publicUrl: config.publicUrl, blogDir });
  await app.register(reportRoutes, { report: services.report });
  await app.register(signedInRoutes, {
    ...services,
    rateLimit: authLimit,
    userRateLimit: perUserRateLimit(config.userRateLimit),
  });
  await app.register(oauthRoutes, {
    oauth: services.oauth,
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
      enqueue: services.requestScan,
      onError: (error) => app.log.error({ err: error }, 'scheduler tick failed'),
    });
    schedulers.push(scheduler);
    // The weekly reports due (features/report), looked for every minute; one job per user and week.
    schedulers.push(
      startScheduler({
        intervalMs: 60_000,
        due: () => services.report.dueUsers(),
        enqueue: (userId) => jobs.enqueue('weekly-report', { userId }, { key: `weekly-report:${userId}` }),
        onError: (error) => app.log.error({ err: error }, 'weekly report scheduler tick failed'),
      }),
    );
    return scheduler;
  });
  // Fastify closes its HTTP server before the onClose hooks run, and the server's close waits for every
  // connection: open tabs' live sockets (a websocket, a long poll) would hold it open for good. They are
  // closed first; a tab reconnects to another instance, or to this one when it is back.
  app.addHook('preClose', async () => {
    live.io.disconnectSockets(true);
    live.io.engine.close();
  });
  app.addHook('onClose', async () => {
    // Bulk runners start no new item; the rest of a bulk waits for the next start (resumeUnfinished).
    bulk.stop();
    for (const s of schedulers) s.stop();
    await jobs.stop();
    // The mailboxes' pooled connections log out (the previews' requests are over by now).
    await services.mailPool.close();
    await live.io.close();
    await livePool?.end();
  });
  return app;
}
