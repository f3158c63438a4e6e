import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { z } from 'zod';
import { csrfTokenResponseSchema } from '#contract/api.js';
import { type AppDeps, buildApp } from '#server/app.js';
import { type Config, parseConfig } from '#server/config.js';
import type { Db } from '#server/db/index.js';
import { openDatabase } from '#server/db/index.js';
import { prepareDataDir } from '#server/startup.js';
import { registerSchema, testSchema } from './pg-schemas.js';
import {
  type AnswerOf,
  type CallOptions,
  type ErrorAnswer,
  type ErrorStatus,
  errorAnswerSchema,
  parseAnswer,
  ROUTES,
  type RouteKey,
  type Routes,
  requestOf,
} from './routes.js';

export type Dialect = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const DIALECTS: Dialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/** A fresh app with its own data folder and its own database (a new PostgreSQL schema per app). */
export async function createTestApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  extra: (config: Config) => Partial<AppDeps> = () => ({}),
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ig-test-'));
  const config = prepareDataDir(
    parseConfig(
      {
        AUTH_RATE_LIMIT: '1000/1m',
        USER_RATE_LIMIT: '1000/1m',
        // Senders' DKIM keys from the run's DNS server (test/helpers/dkim.ts, started by globalSetup).
        ...(process.env.TEST_DNS_SERVERS ? { DNS_SERVERS: process.env.TEST_DNS_SERVERS } : {}),
        LOG_LEVEL: 'silent',
        PUBLIC_URL: 'http://localhost:3000',
        ...env,
      },
      { dataDir },
    ),
  );
  const schema = dialect === 'postgres' ? testSchema('t') : undefined;
  const databaseUrl = dialect === 'postgres' ? process.env.TEST_DATABASE_URL! : null;
  const database = await openDatabase({ databaseUrl, dataDir, schema });
  const jobSchema = schema ? `${schema}_jobs` : config.jobSchema;
  if (schema) registerSchema(jobSchema);
  const effective: Config = { ...config, databaseUrl, jobSchema };
  const app = await buildApp({
    config: effective,
    db: database.db,
    jobBackoffMs: 50,
    ...extra(config),
  });
  await app.ready();
  return {
    app,
    db: database.db,
    config: effective,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      // Its PostgreSQL schemas are dropped at the end of the run (pg-schemas.ts says why).
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A browser-like client over app.inject: keeps cookies and sends the CSRF header on non-GET calls. */
export class Client {
  private cookies = new Map<string, string>();
  private csrf: string | null = null;
  ip = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

  constructor(private readonly app: FastifyInstance) {}

  async request(options: InjectOptions & { csrf?: boolean }): Promise<LightMyRequestResponse> {
    const method = (options.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
    if (method !== 'GET' && options.csrf !== false) headers['x-csrf-token'] = await this.token();
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookie) headers.cookie = cookie;
    const response = await this.app.inject({
      ...options,
      method: method as 'GET',
      headers,
      remoteAddress: this.ip,
    });
    for (const c of response.cookies as Array<{
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }>) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now()) || c.value === '';
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return response;
  }

  async token(): Promise<string> {
    if (!this.csrf) {
      const res = await this.request({ url: '/csrf-token' });
      this.csrf = this.json(res, csrfTokenResponseSchema).csrfToken;
    }
    return this.csrf;
  }

  /**
   * A call of a route of the contract (test/helpers/routes.ts), typed by it: checks that the answer has
   * `status` (the route's success status unless given) and that its body is what the contract's schema
   * describes, the route's answer at its success status and `{message, ...details}` at an error status,
   * and returns that body typed by the schema. An answer the schema refuses fails the test.
   */
  call<K extends RouteKey>(route: K, options: CallOptions<K> & { status: ErrorStatus }): Promise<ErrorAnswer>;
  call<K extends RouteKey>(
    route: K,
    options?: CallOptions<K> & { status?: Routes[K]['status'] },
  ): Promise<AnswerOf<K>>;
  async call<K extends RouteKey>(
    route: K,
    options: CallOptions<K> & { status?: number } = {},
  ): Promise<AnswerOf<K> | ErrorAnswer> {
    const { method, url } = requestOf(route, options);
    const res = await this.request({
      method,
      url,
      payload: options.body as object | undefined,
      headers: options.headers,
      csrf: options.csrf,
    });
    const spec = ROUTES[route];
    const status = options.status ?? spec.status;
    expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 500)}`).toBe(status);
    const schema: z.ZodType = status === spec.status ? spec.response : errorAnswerSchema;
    return this.json(res, schema) as AnswerOf<K> | ErrorAnswer;
  }

  /** The JSON body of `res`, checked with `schema` and typed by it (a body the schema refuses fails the test). */
  json<S extends z.ZodType>(res: LightMyRequestResponse, schema: S): z.output<S> {
    let body: unknown;
    try {
      body = res.json();
    } catch {
      throw new Error(`The answer (${res.statusCode}) is not JSON: ${res.body.slice(0, 200)}`);
    }
    return parseAnswer(body, schema, `${res.statusCode} ${res.headers['content-type'] ?? ''}`);
  }

  get(url: string) {
    return this.request({ method: 'GET', url });
  }

  post(url: string, payload?: unknown, opts: { csrf?: boolean } = {}) {
    return this.request({ method: 'POST', url, payload: payload as object, ...opts });
  }

  put(url: string, payload?: unknown) {
    return this.request({ method: 'PUT', url, payload: payload as object });
  }

  delete(url: string, payload?: unknown) {
    return this.request({ method: 'DELETE', url, payload: payload as object });
  }

  /** The Cookie header this browser would send (for a socket.io client). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  hasCookie(name: string): boolean {
    return this.cookies.has(name);
  }
}

let counter = 0;
/** A unique address per test, so no test sees another's user. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${randomBytes(3).toString('hex')}@example.com`;
}

export { isResetMail, type OutboxMail, readOutbox, resetTokenFrom } from './outbox.js';
export { type AnswerOf, type ErrorAnswer, errorAnswerSchema, type RouteKey } from './routes.js';
