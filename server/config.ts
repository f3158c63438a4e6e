import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

// Environment -> typed configuration (.env.example). Every name here is listed in .env.example.

const RATE = /^(\d+)\/(\d+)(s|m|h)$/;

const EnvSchema = z.object({
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
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SCAN_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(2000),
  IMAP_ALLOWED_HOSTS: z.string().default(''),
  UNSUBSCRIBE_ALLOWED_HOSTS: z.string().default(''),
  JOB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'JOB_SCHEMA must be a plain schema name')
    .default('pgboss'),
  LOGO_BASE_URL: z.string().default('https://logo.clearbit.com'),
  MAIL_PROVIDER_OVERRIDES: z.string().optional(),
  SCAN_INTERVAL: z
    .string()
    .regex(/^\d+(ms|s|m|h)$/, 'SCAN_INTERVAL looks like 24h, 30m or 5s')
    .default('24h'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  MICROSOFT_CLIENT_ID: z.string().optional(),
  MICROSOFT_CLIENT_SECRET: z.string().optional(),
  GOOGLE_BASE_URL: z
    .url({
      protocol: /^https?$/,
      error: 'GOOGLE_BASE_URL must be an http(s) URL (leave it unset for Google)',
    })
    .optional(),
  MICROSOFT_BASE_URL: z
    .url({
      protocol: /^https?$/,
      error: 'MICROSOFT_BASE_URL must be an http(s) URL (leave it unset for Microsoft)',
    })
    .optional(),
});

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  secureCookies: boolean;
  dataDir: string;
  databaseUrl: string | null;
  secretKey: string;
  smtpUrl: string | null;
  mailFrom: string;
  supportEmail: string;
  authRateLimit: { max: number; windowMs: number };
  trustProxy: boolean;
  logLevel: string;
  google: { clientId: string; clientSecret: string } | null;
  microsoft: { clientId: string; clientSecret: string } | null;
  /** GOOGLE_BASE_URL: one origin for every Google call (the emulator in tests); null for Google itself. */
  googleBaseUrl: string | null;
  /** MICROSOFT_BASE_URL: one origin for Graph and the identity platform (tests); null for Microsoft. */
  microsoftBaseUrl: string | null;
  webRoot: string | null;
  logoBaseUrl: string | null;
  /** PostgreSQL schema of the job queue (pg-boss) when DATABASE_URL is set. */
  jobSchema: string;
  /** What this process does (docs/ARCHITECTURE.md): serve HTTP and live events, run jobs, schedule checks. */
  roles: Set<Role>;
  mailProviderOverrides: string | null;
  scanIntervalMs: number;
  /** Private hosts a user may nevertheless enter as their IMAP server (self-hosted mail, tests). */
  imapAllowedHosts: string;
  /** Private hosts a sender's unsubscribe link may nevertheless reach (comma list; tests, intranet lists). */
  unsubscribeAllowedHosts: string;
  /** Messages per scan batch: each batch is one transaction and one checkpoint. */
  scanBatchSize: number;
}

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

/** Reads SECRET_KEY from DATA_DIR/secret-key, creating it (mode 0600) on first start. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(overrides.dataDir ?? e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const port = overrides.port ?? e.PORT;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  const pair = (id?: string, secret?: string) =>
    id && secret ? { clientId: id, clientSecret: secret } : null;
  return {
    port,
    host: e.HOST,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    secretKey: e.SECRET_KEY ?? loadOrCreateSecret(dataDir),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    authRateLimit: parseRate(e.AUTH_RATE_LIMIT),
    trustProxy: e.TRUST_PROXY === 'true',
    logLevel: e.LOG_LEVEL,
    google: pair(e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET),
    microsoft: pair(e.MICROSOFT_CLIENT_ID, e.MICROSOFT_CLIENT_SECRET),
    googleBaseUrl: e.GOOGLE_BASE_URL ? e.GOOGLE_BASE_URL.replace(/\/+$/, '') : null,
    microsoftBaseUrl: e.MICROSOFT_BASE_URL ? e.MICROSOFT_BASE_URL.replace(/\/+$/, '') : null,
    webRoot: null,
    jobSchema: e.JOB_SCHEMA,
    roles: new Set(ROLES),
    logoBaseUrl: e.LOGO_BASE_URL.trim() ? e.LOGO_BASE_URL.trim().replace(/\/$/, '') : null,
    mailProviderOverrides: e.MAIL_PROVIDER_OVERRIDES ?? null,
    scanIntervalMs: parseDuration(e.SCAN_INTERVAL),
    scanBatchSize: e.SCAN_BATCH_SIZE,
    imapAllowedHosts: e.IMAP_ALLOWED_HOSTS,
    unsubscribeAllowedHosts: e.UNSUBSCRIBE_ALLOWED_HOSTS,
    ...overrides,
  };
}
