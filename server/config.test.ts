import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.js';
import { disabledIntegrations } from './integrations/index.js';
import { loadDotEnv, prepareDataDir } from './startup.js';

const temp: string[] = [];
afterEach(() => {
  for (const dir of temp.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ig-config-'));
  temp.push(dir);
  return dir;
}

function configError(env: Record<string, string>): string {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
  it('runs on defaults with nothing set, every integration off', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      secureCookies: false,
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      secretKey: null,
      smtpUrl: null,
      authRateLimit: { max: 20, windowMs: 15 * 60_000 },
      trustProxy: false,
      logLevel: 'info',
      logoBaseUrl: 'https://logo.clearbit.com',
      jobSchema: 'pgboss',
      scanIntervalMs: 24 * 3_600_000,
      scanBatchSize: 2000,
      workerNice: 19,
      webRoot: null,
      google: null,
      microsoft: null,
      googleBaseUrl: null,
      microsoftBaseUrl: null,
      stripe: null,
      gaMeasurementId: null,
    });
    expect([...config.roles]).toEqual(['api', 'live', 'worker', 'scheduler']);
    expect(disabledIntegrations(config)).toEqual([
      { label: 'Google', required: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'] },
      { label: 'Microsoft', required: ['MICROSOFT_CLIENT_ID', 'MICROSOFT_CLIENT_SECRET'] },
      {
        label: 'Stripe billing',
        required: [
          'STRIPE_SECRET_KEY',
          'STRIPE_WEBHOOK_SECRET',
          'STRIPE_PRICE_MONTHLY',
          'STRIPE_PRICE_YEARLY',
        ],
      },
      { label: 'Google Analytics', required: ['GA_MEASUREMENT_ID'] },
      { label: 'Contentful', required: ['CONTENTFUL_SPACE_ID', 'CONTENTFUL_ACCESS_TOKEN'] },
    ]);
  });

  it('maps each variable to its field', () => {
    const config = parseConfig({
      PORT: '4000',
      PUBLIC_URL: 'https://genie.example/',
      SECRET_KEY: 'k'.repeat(32),
      AUTH_RATE_LIMIT: '5/30s',
      TRUST_PROXY: 'true',
      SCAN_INTERVAL: '5s',
      WORKER_NICE: '0',
      LOGO_BASE_URL: ' ',
      GOOGLE_CLIENT_ID: 'gid',
      GOOGLE_CLIENT_SECRET: 'gsecret',
      GOOGLE_BASE_URL: 'http://127.0.0.1:4010//',
      MICROSOFT_CLIENT_ID: 'mid',
      MICROSOFT_CLIENT_SECRET: 'msecret',
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_PRICE_MONTHLY: 'price_m',
      STRIPE_PRICE_YEARLY: 'price_y',
      GA_MEASUREMENT_ID: 'G-ABC123XYZ',
      CONTENTFUL_SPACE_ID: 'space1',
      CONTENTFUL_ACCESS_TOKEN: 'cda1',
    });
    expect(config).toMatchObject({
      port: 4000,
      publicUrl: 'https://genie.example',
      secureCookies: true,
      secretKey: 'k'.repeat(32),
      authRateLimit: { max: 5, windowMs: 30_000 },
      trustProxy: true,
      scanIntervalMs: 5000,
      workerNice: 0,
      logoBaseUrl: null,
      google: { clientId: 'gid', clientSecret: 'gsecret' },
      googleBaseUrl: 'http://127.0.0.1:4010',
      microsoft: { clientId: 'mid', clientSecret: 'msecret' },
      microsoftBaseUrl: null,
      stripe: {
        secretKey: 'sk_test_1',
        webhookSecret: 'whsec_1',
        prices: { month: 'price_m', year: 'price_y' },
        endpoint: null,
      },
      gaMeasurementId: 'G-ABC123XYZ',
    });
    expect(disabledIntegrations(config)).toEqual([]);
  });

  it('turns billing on only with all four Stripe variables, naming the missing ones otherwise', () => {
    const all = {
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_PRICE_MONTHLY: 'price_m',
      STRIPE_PRICE_YEARLY: 'price_y',
    };
    const { STRIPE_WEBHOOK_SECRET: _secret, STRIPE_PRICE_YEARLY: _yearly, ...half } = all;
    expect(() => parseConfig(half)).toThrow(
      /STRIPE_WEBHOOK_SECRET: Stripe billing needs[\s\S]*STRIPE_PRICE_YEARLY:/,
    );
    const local = parseConfig({ ...all, STRIPE_API_URL: 'http://127.0.0.1:12111' });
    expect(local.stripe?.endpoint).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(
      parseConfig({ ...all, STRIPE_API_URL: 'https://stripe.internal.example' }).stripe?.endpoint,
    ).toEqual({
      host: 'stripe.internal.example',
      port: 443,
      protocol: 'https',
    });
    // The secret key never travels unencrypted beyond this machine, and the URL is an origin.
    expect(() => parseConfig({ ...all, STRIPE_API_URL: 'http://stripe.example' })).toThrow(
      /only on loopback/,
    );
    expect(() => parseConfig({ ...all, STRIPE_API_URL: 'https://stripe.example/v1' })).toThrow(
      /without a path/,
    );
    expect(() => parseConfig({ GA_MEASUREMENT_ID: 'UA-1234' })).toThrow(/GA_MEASUREMENT_ID looks like/);
  });

  it('reads the blog from Contentful only with both its variables, naming the missing one otherwise', () => {
    expect(parseConfig({}).contentful).toBeNull();
    expect(parseConfig({}).blogDir).toBeNull();
    expect(parseConfig({ BLOG_DIR: 'posts' }).blogDir).toBe(path.resolve('posts'));
    expect(disabledIntegrations(parseConfig({})).map((i) => i.label)).toContain('Contentful');
    const both = { CONTENTFUL_SPACE_ID: 'space1', CONTENTFUL_ACCESS_TOKEN: 'token1' };
    expect(parseConfig(both).contentful).toEqual({
      spaceId: 'space1',
      accessToken: 'token1',
      environment: 'master',
      contentType: null,
      baseUrl: 'https://cdn.contentful.com',
    });
    expect(
      parseConfig({
        ...both,
        CONTENTFUL_ENVIRONMENT: 'staging',
        CONTENTFUL_CONTENT_TYPE: 'blogPost',
        CONTENTFUL_BASE_URL: 'http://127.0.0.1:4030/',
      }).contentful,
    ).toMatchObject({ environment: 'staging', contentType: 'blogPost', baseUrl: 'http://127.0.0.1:4030' });
    expect(() => parseConfig({ CONTENTFUL_SPACE_ID: 'space1' })).toThrow(
      /CONTENTFUL_ACCESS_TOKEN: Contentful needs CONTENTFUL_SPACE_ID and CONTENTFUL_ACCESS_TOKEN together/,
    );
    expect(() => parseConfig({ CONTENTFUL_ACCESS_TOKEN: 'token1' })).toThrow(
      /CONTENTFUL_SPACE_ID: Contentful needs/,
    );
    // Empty values are unset; a base URL alone turns nothing on.
    expect(parseConfig({ CONTENTFUL_SPACE_ID: '', CONTENTFUL_ACCESS_TOKEN: '' }).contentful).toBeNull();
    expect(parseConfig({ CONTENTFUL_BASE_URL: 'https://cdn.eu.contentful.com' }).contentful).toBeNull();
    // The token never travels unencrypted beyond this machine; ids cannot change the request's path.
    expect(() => parseConfig({ ...both, CONTENTFUL_BASE_URL: 'http://cdn.example' })).toThrow(
      /only on loopback/,
    );
    expect(() => parseConfig({ ...both, CONTENTFUL_BASE_URL: 'https://cdn.example/x' })).toThrow(
      /without a path/,
    );
    expect(() => parseConfig({ ...both, CONTENTFUL_SPACE_ID: '../other' })).toThrow(
      /CONTENTFUL_SPACE_ID is a space id/,
    );
    expect(() => parseConfig({ ...both, CONTENTFUL_ENVIRONMENT: 'a/b' })).toThrow(/CONTENTFUL_ENVIRONMENT/);
  });

  it('applies overrides, resolving a data folder', () => {
    const config = parseConfig({ DATA_DIR: '/elsewhere' }, { dataDir: 'relative/data', webRoot: '/web' });
    expect(config.dataDir).toBe(path.resolve('relative/data'));
    expect(config.webRoot).toBe('/web');
  });

  it('reports every invalid variable at once, by name', () => {
    const message = configError({
      PORT: 'x',
      DATABASE_URL: 'mysql://db',
      GOOGLE_BASE_URL: 'ftp://g',
      WORKER_NICE: '20',
    });
    expect(message).toMatch(/^Invalid configuration:\n/);
    expect(message).toContain('  PORT: ');
    expect(message).toContain('  WORKER_NICE: WORKER_NICE is a whole number from 0 to 19');
    expect(message).toContain(
      '  DATABASE_URL: DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)',
    );
    expect(message).toContain(
      '  GOOGLE_BASE_URL: GOOGLE_BASE_URL must be an http(s) URL (leave it unset for Google)',
    );
  });

  it('touches no file: neither the data folder nor the secret key is created', () => {
    const dataDir = path.join(tempDir(), 'not-yet');
    const config = parseConfig({ DATA_DIR: dataDir });
    expect(config.secretKey).toBeNull();
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('integrations: a client id and its secret go together', () => {
  it('refuses a client id without its secret, naming both and the missing one', () => {
    expect(configError({ GOOGLE_CLIENT_ID: 'gid' })).toBe(
      'Invalid configuration:\n  GOOGLE_CLIENT_SECRET: Google needs GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET together: GOOGLE_CLIENT_ID is set, GOOGLE_CLIENT_SECRET is not (set it, or unset both)',
    );
  });

  it('refuses a secret without its client id, and reports both providers', () => {
    const message = configError({
      MICROSOFT_CLIENT_SECRET: 's',
      GOOGLE_CLIENT_SECRET: 's',
      GOOGLE_CLIENT_ID: ' ',
    });
    expect(message).toContain(
      '  MICROSOFT_CLIENT_ID: Microsoft needs MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET',
    );
    expect(message).toContain('  GOOGLE_CLIENT_ID: Google needs GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET');
  });

  it('treats empty values (an uncommented `NAME=` line) as unset', () => {
    const config = parseConfig({ GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '' });
    expect(config.google).toBeNull();
  });

  it('signs mail with DKIM only with a key and its selector, refusing half a setting or a bad key', () => {
    expect(parseConfig({}).dkim).toBeNull();
    expect(parseConfig({ DKIM_PRIVATE_KEY: '', DKIM_SELECTOR: '', DKIM_DOMAIN: '' }).dkim).toBeNull();
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const oneLine = pem.trim().replaceAll('\n', '\\n');
    const config = parseConfig({
      DKIM_PRIVATE_KEY: oneLine,
      DKIM_SELECTOR: 'genie2026',
      MAIL_FROM: 'Inbox Genie <report@Genie.example>',
    });
    expect(config.dkim).toEqual({ privateKey: pem.trim(), selector: 'genie2026', domain: 'genie.example' });
    expect(
      parseConfig({ DKIM_PRIVATE_KEY: pem, DKIM_SELECTOR: 's', DKIM_DOMAIN: 'mail.example' }).dkim?.domain,
    ).toBe('mail.example');
    expect(configError({ DKIM_PRIVATE_KEY: pem })).toMatch(/DKIM_SELECTOR: DKIM signing needs both/);
    expect(configError({ DKIM_SELECTOR: 's' })).toMatch(/DKIM_PRIVATE_KEY: DKIM signing needs both/);
    expect(configError({ DKIM_PRIVATE_KEY: 'not a key', DKIM_SELECTOR: 's' })).toMatch(
      /DKIM_PRIVATE_KEY must be a PEM private key/,
    );
    expect(configError({ DKIM_PRIVATE_KEY: pem, DKIM_SELECTOR: 'a b' })).toMatch(
      /DKIM_SELECTOR is a DNS label/,
    );
    expect(
      configError({ DKIM_PRIVATE_KEY: pem, DKIM_SELECTOR: 's', MAIL_FROM: 'Genie <genie@localhost>' }),
    ).toMatch(/DKIM_DOMAIN is needed/);
  });

  it('a base URL alone does not turn a provider on', () => {
    const config = parseConfig({ MICROSOFT_BASE_URL: 'http://127.0.0.1:4020' });
    expect(config.microsoft).toBeNull();
    expect(config.microsoftBaseUrl).toBe('http://127.0.0.1:4020');
  });
});

describe('prepareDataDir (start-up)', () => {
  it('creates the data folder (0700) and a secret key (0600) once, then reads it back', () => {
    const dataDir = path.join(tempDir(), 'fresh');
    const first = prepareDataDir(parseConfig({ DATA_DIR: dataDir }));
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const file = path.join(dataDir, 'secret-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.secretKey).toBe(readFileSync(file, 'utf8').trim());
    expect(first.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(prepareDataDir(parseConfig({ DATA_DIR: dataDir })).secretKey).toBe(first.secretKey);
  });

  it('uses SECRET_KEY when set and writes no key file', () => {
    const dataDir = tempDir();
    const config = prepareDataDir(parseConfig({ DATA_DIR: dataDir, SECRET_KEY: 's'.repeat(40) }));
    expect(config.secretKey).toBe('s'.repeat(40));
    expect(existsSync(path.join(dataDir, 'secret-key'))).toBe(false);
  });
});

describe('loadDotEnv (start-up)', () => {
  it('reads a .env file when present, and variables already set win over it', () => {
    const file = path.join(tempDir(), '.env');
    writeFileSync(file, '# comment\nIG_DOTENV_FROM_FILE=file\nIG_DOTENV_SET="file"\n');
    process.env.IG_DOTENV_SET = 'environment';
    try {
      expect(loadDotEnv(file)).toBe(true);
      expect(process.env.IG_DOTENV_FROM_FILE).toBe('file');
      expect(process.env.IG_DOTENV_SET).toBe('environment');
    } finally {
      delete process.env.IG_DOTENV_FROM_FILE;
      delete process.env.IG_DOTENV_SET;
    }
  });

  it('does nothing without a file', () => {
    expect(loadDotEnv(path.join(tempDir(), '.env'))).toBe(false);
  });
});
