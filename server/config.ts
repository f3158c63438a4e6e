import { createPrivateKey } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { type IntegrationsConfig, parseIntegrations } from './integrations/index.js';
import { parseDnsServers } from './lib/dns-resolver.js';

// Environment -> typed configuration (.env.example). Every name here is listed in .env.example. Parsing is
// pure: it reads the variables it is given and touches no file (start-up creates the data folder and the
// secret key: server/startup.ts). The server's own variables are below; each integration owns its slice
// (server/integrations/). `Config` is what these schemas produce: a variable is written in its schema and
// once in the mapping to its field, not a third time in an interface.

export class ConfigError extends Error {}

export const ROLES = ['api', 'live', 'worker', 'scheduler'] as const;
export type Role = (typeof ROLES)[number];

/** `--roles=api,live` from the command line; every role when absent. */
export function parseRoles(argv: readonly string[]): Set<Role> {
  const arg = argv.find((a) => a.startsWith('--roles='));
  if (!arg) return new Set(ROLES);
  const names = arg
    .slice('--roles='.length)
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(ROLES as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) {
    throw new ConfigError(`--roles takes a comma list of ${ROLES.join(', ')} (got "${arg.slice(8)}")`);
  }
  return new Set(names as Role[]);
}

const RATE = /^(\d+)\/(\d+)(s|m|h)$/;

function parseRate(value: string): { max: number; windowMs: number } {
  const [, count, amount, unit] = RATE.exec(value)!;
  const unitMs = unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
  return { max: Number(count), windowMs: Number(amount) * unitMs };
}

function parseDuration(value: string): number {
  const [, amount, unit] = /^(\d+)(ms|s|m|h)$/.exec(value)!;
  const unitMs = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
  return Number(amount) * unitMs;
}

const dkimMissing = 'DKIM signing needs both DKIM_PRIVATE_KEY and DKIM_SELECTOR (DKIM_DOMAIN is optional)';

/** A PEM written on one line with \n for its line breaks, as environment files often hold it. */
function pemOf(value: string): string {
  return value.includes('\\n') ? value.replaceAll('\\n', '\n') : value;
}

function isPrivateKey(pem: string): boolean {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

const DNS_NAME = /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/** The DKIM variables trimmed, empty ones unset, the key's \n made line breaks. */
function dkimVariables(e: { DKIM_PRIVATE_KEY?: string; DKIM_SELECTOR?: string; DKIM_DOMAIN?: string }) {
  const key = e.DKIM_PRIVATE_KEY?.trim();
  return {
    key: key ? pemOf(key) : null,
    selector: e.DKIM_SELECTOR?.trim() || null,
    domain: e.DKIM_DOMAIN?.trim().toLowerCase() || null,
  };
}

function dkimOf(e: {
  DKIM_PRIVATE_KEY?: string;
  DKIM_SELECTOR?: string;
  DKIM_DOMAIN?: string;
  MAIL_FROM: string;
}) {
  const { key, selector, domain } = dkimVariables(e);
  if (!key || !selector) return null;
  return { privateKey: key, selector, domain: domain ?? domainOf(e.MAIL_FROM)?.toLowerCase() ?? '' };
}

/** The domain of MAIL_FROM's address ("Name <a@b.example>" or a bare address). */
export function domainOf(from: string): string | null {
  return /@([A-Za-z0-9.-]+\.[A-Za-z]{2,})>?\s*$/.exec(from.trim())?.[1] ?? null;
}

const serverEnv = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('127.0.0.1'),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)')
      .optional(),
    SECRET_KEY: z.string().min(32, 'SECRET_KEY must be at least 32 characters').optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
      .optional(),
    MAIL_FROM: z.string().default('Inbox Genie <no-reply@localhost>'),
    SUPPORT_EMAIL: z.string().default('support@localhost'),
    AUTH_RATE_LIMIT: z
      .string()
      .regex(RATE, 'AUTH_RATE_LIMIT looks like 20/15m (count/window)')
      .default('20/15m'),
    USER_RATE_LIMIT: z
      .string()
      .regex(RATE, 'USER_RATE_LIMIT looks like 60/1m (count/window)')
      .default('60/1m'),
    TRUST_PROXY: z.enum(['true', 'false']).default('false'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SCAN_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(2000),
    WORKER_NICE: z.coerce
      .number({ message: 'WORKER_NICE is a whole number from 0 to 19' })
      .int('WORKER_NICE is a whole number from 0 to 19')
      .min(0, 'WORKER_NICE is a whole number from 0 to 19')
      .max(19, 'WORKER_NICE is a whole number from 0 to 19')
      .default(19),
    IMAP_ALLOWED_HOSTS: z.string().default(''),
    UNSUBSCRIBE_ALLOWED_HOSTS: z.string().default(''),
    DNS_SERVERS: z
      .string()
      .refine(
        (v) => {
          try {
            parseDnsServers(v);
            return true;
          } catch {
            return false;
          }
        },
        { message: 'DNS_SERVERS is a comma-separated list of IP[:port] (e.g. 127.0.0.1:5353)' },
      )
      .optional(),
    JOB_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/, 'JOB_SCHEMA must be a plain schema name')
      .default('pgboss'),
    LOGO_BASE_URL: z.string().default('https://logo.clearbit.com'),
    MAIL_PROVIDER_OVERRIDES: z.string().optional(),
    BLOG_DIR: z.string().optional(),
    SCAN_INTERVAL: z
      .string()
      .regex(/^\d+(ms|s|m|h)$/, 'SCAN_INTERVAL looks like 24h, 30m or 5s')
      .default('24h'),
    DKIM_PRIVATE_KEY: z.string().optional(),
    DKIM_SELECTOR: z.string().optional(),
    DKIM_DOMAIN: z.string().optional(),
  })
  .superRefine((e, ctx) => {
    // DKIM signing of the product's mail: the key and its selector together, or neither ('' is unset).
    const { key, selector, domain } = dkimVariables(e);
    if (!key && !selector && !domain) return;
    if (!key) ctx.addIssue({ code: 'custom', path: ['DKIM_PRIVATE_KEY'], message: dkimMissing });
    if (!selector) ctx.addIssue({ code: 'custom', path: ['DKIM_SELECTOR'], message: dkimMissing });
    if (key && !isPrivateKey(key)) {
      ctx.addIssue({
        code: 'custom',
        path: ['DKIM_PRIVATE_KEY'],
        message: 'DKIM_PRIVATE_KEY must be a PEM private key (RSA or Ed25519); \\n may stand for line breaks',
      });
    }
    if (selector && !DNS_NAME.test(selector)) {
      ctx.addIssue({
        code: 'custom',
        path: ['DKIM_SELECTOR'],
        message: 'DKIM_SELECTOR is a DNS label such as mail2026',
      });
    }
    if (domain && !(DNS_NAME.test(domain) && domain.includes('.'))) {
      ctx.addIssue({
        code: 'custom',
        path: ['DKIM_DOMAIN'],
        message: 'DKIM_DOMAIN is a domain name such as example.com',
      });
    }
    if (!domain && !domainOf(e.MAIL_FROM)) {
      ctx.addIssue({
        code: 'custom',
        path: ['DKIM_DOMAIN'],
        message: 'DKIM_DOMAIN is needed when MAIL_FROM has no domain to sign for',
      });
    }
  })
  .transform((e) => {
    const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
    return {
      port: e.PORT,
      host: e.HOST,
      publicUrl,
      secureCookies: publicUrl.startsWith('https://'),
      dataDir: path.resolve(e.DATA_DIR),
      databaseUrl: e.DATABASE_URL ?? null,
      /** Null: start-up reads (or creates) DATA_DIR/secret-key (server/startup.ts). */
      secretKey: e.SECRET_KEY ?? null,
      smtpUrl: e.SMTP_URL ?? null,
      mailFrom: e.MAIL_FROM,
      supportEmail: e.SUPPORT_EMAIL,
      authRateLimit: parseRate(e.AUTH_RATE_LIMIT),
      /** Resolvers for the product's own DNS lookups (DKIM keys, mailbox settings); null: the system's. */
      dnsServers: e.DNS_SERVERS ?? null,
      /** Per signed-in user, over the calls that reach a mail server or a sender (one budget for all). */
      userRateLimit: parseRate(e.USER_RATE_LIMIT),
      trustProxy: e.TRUST_PROXY === 'true',
      logLevel: e.LOG_LEVEL as string,
      /**
       * DKIM signing of the product's mail (the weekly report's List-Unsubscribe is only honoured by mail
       * providers under a valid signature); null: mail goes out unsigned.
       */
      dkim: dkimOf(e),
      /** The built SPA's folder; set by main.ts, which finds it (no variable). */
      webRoot: null as string | null,
      logoBaseUrl: e.LOGO_BASE_URL.trim() ? e.LOGO_BASE_URL.trim().replace(/\/$/, '') : null,
      /** PostgreSQL schema of the job queue (pg-boss) when DATABASE_URL is set. */
      jobSchema: e.JOB_SCHEMA,
      /** What this process does (docs/ARCHITECTURE.md); `--roles` on the command line, not a variable. */
      roles: new Set<Role>(ROLES),
      mailProviderOverrides: e.MAIL_PROVIDER_OVERRIDES ?? null,
      scanIntervalMs: parseDuration(e.SCAN_INTERVAL),
      /** Private hosts a user may nevertheless enter as their IMAP server (self-hosted mail, tests). */
      imapAllowedHosts: e.IMAP_ALLOWED_HOSTS,
      /** Private hosts a sender's unsubscribe link may nevertheless reach (comma list; tests, intranet lists). */
      unsubscribeAllowedHosts: e.UNSUBSCRIBE_ALLOWED_HOSTS,
      /** Messages per scan batch: each batch is one transaction and one checkpoint. */
      scanBatchSize: e.SCAN_BATCH_SIZE,
      /**
       * The CPU priority (nice) of a process that runs the worker role without the api or live role, so an
       * API on the same machine answers first while checks run (docs/decisions/087-worker-priority.md).
       */
      workerNice: e.WORKER_NICE,
      /** The blog's markdown posts (and images/); null: <repository>/content/blog (features/blog). */
      blogDir: e.BLOG_DIR?.trim() ? path.resolve(e.BLOG_DIR.trim()) : null,
    };
  });

/** The configuration as parsed: the secret key may still be to read from the data folder. */
export type ParsedConfig = z.output<typeof serverEnv> & IntegrationsConfig;

/** The configuration the app runs with, once start-up has settled the secret key. */
export type Config = Omit<ParsedConfig, 'secretKey'> & { secretKey: string };

/**
 * Environment -> configuration, touching nothing else. Every invalid or half-set variable is reported at
 * once. `overrides` replace fields as given (derived ones such as publicUrl are not recomputed); a
 * dataDir override is resolved like DATA_DIR.
 */
export function parseConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Config> = {},
): ParsedConfig {
  const server = serverEnv.safeParse(env);
  const integrations = parseIntegrations(env);
  const issues = [
    ...(server.success ? [] : server.error.issues),
    ...(integrations.success ? [] : integrations.issues),
  ];
  if (!server.success || !integrations.success) {
    const lines = issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return {
    ...server.data,
    ...integrations.data,
    ...overrides,
    ...(overrides.dataDir !== undefined && { dataDir: path.resolve(overrides.dataDir) }),
  };
}
