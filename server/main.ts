import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { ConfigError, parseConfig, parseRoles } from './config.js';
import { openDatabase } from './db/index.js';
import { disabledIntegrations } from './integrations/index.js';
import { lowerPriority } from './lib/priority.js';
import { warmScanThread } from './mail/imap/scan-thread.js';
import { loadDotEnv, prepareDataDir } from './startup.js';

// Entry point: reads .env (when present) and the configuration, creates the data folder and the secret
// key, opens and migrates the database, starts the HTTP API, the SPA and socket.io on one port, the job
// worker and the scheduler. `--roles=api,live,worker,scheduler` picks a subset for the split deployments
// of docs/ARCHITECTURE.md (they share work through PostgreSQL).

/** How long a stop may take before the process exits anyway (within an orchestrator's 10 s grace). */
const SHUTDOWN_DEADLINE_MS = 8_000;

function findWebRoot(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // dist/server/main.js -> dist/web; server/main.ts (tsx) -> dist/web
  const candidates = [path.resolve(here, '../web'), path.resolve(here, '../dist/web')];
  return candidates.find((c) => existsSync(path.join(c, 'index.html'))) ?? null;
}

async function main(): Promise<void> {
  const envFile = loadDotEnv();
  const roles = parseRoles(process.argv.slice(2));
  const config = prepareDataDir(parseConfig(process.env, { webRoot: findWebRoot(), roles }));
  if (!config.databaseUrl && roles.size < 4) {
    throw new ConfigError(
      'Separate roles share work through PostgreSQL: set DATABASE_URL, or run every role.',
    );
  }
  // A worker without the API lowers its priority before it starts a thread (decision 087).
  const niced =
    roles.has('worker') && !roles.has('api') && !roles.has('live') && config.workerNice > 0
      ? lowerPriority(config.workerNice)
      : undefined;
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({ config, db: database.db });
  if (niced)
    app.log.warn({ err: niced }, `could not lower the worker's priority to nice ${config.workerNice}`);
  else if (niced === null) app.log.info(`worker at CPU priority nice ${config.workerNice} (WORKER_NICE)`);
  if (envFile) app.log.info('read settings from .env (variables set in the environment take precedence)');
  // Users only learn that a provider is unavailable; which variables would turn it on is the operator's.
  for (const { label, required } of disabledIntegrations(config)) {
    app.log.info(
      { integration: label, variables: required },
      `${label} is off: set ${required.join(' and ')} to turn it on`,
    );
  }
  if (!config.webRoot) app.log.warn('No built web app found (run `npm run build`); serving the API only.');
  // The product creates DATA_DIR as 0700; one that already existed keeps the mode it had. The files in it
  // are private anyway (secret key, database, outbox), but their names and the folder's listing are not.
  const dataDirMode = statSync(config.dataDir).mode & 0o777;
  if (dataDirMode & 0o077) {
    app.log.warn(
      { dataDir: config.dataDir, mode: dataDirMode.toString(8) },
      `DATA_DIR ${config.dataDir} can be read by other users of this machine; run chmod 700 on it`,
    );
  }

  // An orchestrator's stop (SIGTERM) is followed by SIGKILL after a grace period (Docker's is 10 s): what
  // has not closed by SHUTDOWN_DEADLINE_MS is logged and left, and the process exits by itself.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      app.log.error(`still closing after ${SHUTDOWN_DEADLINE_MS / 1000} s: exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (roles.has('api') || roles.has('live')) await app.listen({ port: config.port, host: config.host });
  if (roles.has('scheduler')) app.startScheduler();
  // IMAP scans parse on a thread of their own (mail/imap/scan-thread.ts); started now, not at the first scan.
  if (roles.has('worker')) warmScanThread();
  app.log.info(
    { database: database.dialect, dataDir: config.dataDir, mail: config.smtpUrl ? 'smtp' : 'outbox' },
    `Inbox Genie is running at ${config.publicUrl}`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Inbox Genie could not start:', error);
  }
  process.exit(1);
});
