import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterEach, expect } from 'vitest';
import { peersForThisFile, withDovecot } from '#test/fixtures/peers.js';
import { type DnsServer, ensureTestDkimKey, startDnsServer } from '#test/helpers/dkim.js';
import type { DovecotUser } from '#test/helpers/dovecot.js';
import { freePort } from '#test/helpers/net.js';
import { untilHealthy } from '#test/helpers/product-process.js';

// The product as a user starts it (the built dist/, one process, embedded defaults), and Debian
// Chromium driven by playwright-core. Screenshots land in e2e/screenshots/.

const root = path.resolve(import.meta.dirname, '..');
export const SCREENSHOTS = path.join(root, 'e2e', 'screenshots');

export interface Product {
  url: string;
  pid: number;
  dataDir: string;
  logs: string[];
  stop(): Promise<void>;
}

let dnsServer: Promise<DnsServer> | null = null;
/**
 * The senders' DNS (their DKIM keys, test/helpers/dkim.ts) for every product this test process starts:
 * one server, stopped with the process.
 */
function sendersDns(): Promise<DnsServer> {
  if (!dnsServer) {
    const keyFile = ensureTestDkimKey();
    process.once('exit', () => rmSync(keyFile, { force: true }));
    dnsServer = startDnsServer();
  }
  return dnsServer;
}

export interface ProductOptions {
  /**
   * The name the browser reaches the product by (its PUBLIC_URL's host); 127.0.0.1 by default. Passkeys
   * need `localhost`: WebAuthn takes a domain, never an IP address, as the site's id.
   */
  hostname?: '127.0.0.1' | 'localhost';
}

/** `nodeArgs`: extra options for node itself (a CPU profile for a benchmark, say). */
export async function startProduct(
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  { hostname = '127.0.0.1' }: ProductOptions = {},
): Promise<Product> {
  const main = path.join(root, 'dist/server/main.js');
  if (!existsSync(main) || !existsSync(path.join(root, 'dist/web/index.html'))) {
    throw new Error('The product is not built: run `npm run build` first (npm test does).');
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ig-e2e-'));
  const dns = await sendersDns();
  const port = await freePort();
  const url = `http://${hostname}:${port}`;
  const logs: string[] = [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, main], {
    // The product reads a .env of its working folder; a developer's own .env must not reach the tests.
    cwd: dataDir,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000/1m',
      USER_RATE_LIMIT: '1000/1m',
      DNS_SERVERS: dns.address,
      LOGO_BASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => logs.push(String(d)));
  child.stderr?.on('data', (d) => logs.push(String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  await untilHealthy(port, child, () => logs.join(''));
  return {
    url,
    pid: child.pid!,
    dataDir,
    logs,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Chromium puts sandboxed frames (the message preview) in a process of their own, whose
      // requests playwright-core neither sees nor routes: they would slip past the outbound guard.
      '--disable-features=IsolateSandboxedIframes',
    ],
  });
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** console.error messages and uncaught page errors; a test fails when any appear. */
  errors: string[];
  /** Aborted requests to the hosts of `expectOutbound` (full URLs), in order. */
  blocked: string[];
}

export interface OpenPageOptions {
  /**
   * Hosts the test expects the page to try to reach (e.g. a newsletter's remote images once the
   * user asks for them): their requests are aborted like any other outbound request, but recorded
   * in `blocked` instead of `errors`, for the test to assert on.
   */
  expectOutbound?: string[];
  /** 5xx answers of the API the test provokes on purpose (e.g. 502 of a mail that cannot be sent). */
  expectServerErrors?: number[];
}

/**
 * A fresh browser context (its own cookies) on the product. Requests to any host other than the
 * product are aborted and recorded as errors: tests never reach the internet.
 */
export async function openPage(
  browser: Browser,
  product: Product,
  width = 1280,
  options: OpenPageOptions = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: { width, height: width <= 480 ? 812 : 900 } });
  const errors: string[] = [];
  const blocked: string[] = [];
  const expected = new Set((options.expectOutbound ?? []).map((host) => host.toLowerCase()));
  const isExpected = (url: string) => URL.canParse(url) && expected.has(new URL(url).hostname);
  const origin = new URL(product.url).origin;
  const expectedStatus = new RegExp(
    `Failed to load resource: the server responded with a status of (4\\d\\d${(options.expectServerErrors ?? []).map((s) => `|${s}`).join('')})\\b`,
  );
  await context.route('**/*', (route) => {
    const target = new URL(route.request().url());
    if (target.origin === origin || target.protocol === 'data:' || target.protocol === 'blob:')
      return route.continue();
    if (isExpected(target.href)) blocked.push(target.href);
    else errors.push(`unexpected outbound request: ${target.href}`);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (msg) => {
    // Chromium logs every 4xx answer as "Failed to load resource"; those are the API's expected
    // answers (a wrong password, a signed-out check), not errors of the page. Nor are the 5xx answers
    // and the aborted requests the test expects (`expectServerErrors`, `expectOutbound`).
    if (
      msg.type() === 'error' &&
      !expectedStatus.test(msg.text()) &&
      !(/Failed to load resource/.test(msg.text()) && isExpected(msg.location().url))
    ) {
      errors.push(`console.error: ${msg.text()}`);
    }
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  return { context, page, errors, blocked };
}

/**
 * The pages a test file opens (`open`, on the file's browser and product as they are when called): after
 * each test they are closed, and an error any of them recorded fails that test.
 */
export function pagesOfEachTest(session: () => { browser: Browser; product: Product }) {
  const opened: OpenedPage[] = [];
  afterEach(async () => {
    const errors = opened.flatMap((o) => o.errors);
    await Promise.all(opened.splice(0).map((o) => o.context.close()));
    expect(errors).toEqual([]);
  });
  return async function open(width = 1280, options: OpenPageOptions = {}): Promise<OpenedPage> {
    const { browser, product } = session();
    const o = await openPage(browser, product, width, options);
    opened.push(o);
    return o;
  };
}

/**
 * The file's product and browser, started together in a beforeAll and stopped after the file's last
 * test. `env` is read when the product starts, after the peers the file started before it (a Dovecot's
 * overrides, a fake's keys). `open` opens a page of the current test (`pagesOfEachTest`); `newPage` does
 * the same and answers the page alone.
 */
export function productForThisFile(
  env: () => Record<string, string> | Promise<Record<string, string>> = () => ({}),
  options: ProductOptions = {},
) {
  const { product, browser } = peersForThisFile({
    product: async () => startProduct(await env(), [], options),
    browser: launchBrowser,
  });
  const open = pagesOfEachTest(() => ({ browser, product }));
  /** A page of the current test, for a test that needs only the page. */
  const newPage = async (width = 1280): Promise<Page> => (await open(width)).page;
  return { product, browser, open, newPage };
}

export interface DovecotProductOptions {
  /** Accounts on the Dovecot from the start. */
  users?: DovecotUser[];
  /** Yahoo's SMTP is down (nothing listens there): an unsubscribe email cannot be sent. */
  smtpDown?: boolean;
  /** More settings of the product, read when it starts. */
  env?: () => Record<string, string>;
}

/**
 * The file's Dovecot playing Yahoo's servers, and the file's product and browser using it
 * (`productForThisFile`).
 */
export function withDovecotProduct(options: DovecotProductOptions = {}) {
  const dovecot = withDovecot(options.users);
  const session = productForThisFile(async () => ({
    MAIL_PROVIDER_OVERRIDES: dovecot.yahooOverrides(options.smtpDown ? await freePort() : undefined),
    ...options.env?.(),
  }));

  /**
   * A new account, signed up on a page of the current test, whose new Yahoo mailbox on the file's
   * Dovecot (`<prefix>-e2e-…@yahoo.com`, app password YAHOO_APP_PASSWORD) holds `messages` in its
   * INBOX and has just been added: the page is on the subscription list.
   */
  async function userWithYahooMailbox(
    prefix: string,
    messages: string[],
    { width = 1280, owner = 'owner', page: pageOptions = {} }: YahooMailboxUserOptions = {},
  ): Promise<OpenedPage & { yahoo: string }> {
    yahooSeq += 1;
    const yahoo = `${prefix}-e2e-${Date.now()}-${yahooSeq}@yahoo.com`;
    await dovecot.addUser({ user: yahoo, password: YAHOO_APP_PASSWORD });
    for (const m of messages) await dovecot.deliver(yahoo, 'INBOX', m);
    const opened = await session.open(width, pageOptions);
    // Dialogs appear without their fade, so screenshots show them, not a frame of the transition.
    await opened.page.emulateMedia({ reducedMotion: 'reduce' });
    await signUpWithPassword(opened.page, session.product, uniqueEmail(owner));
    await addYahooMailbox(opened.page, session.product, yahoo, YAHOO_APP_PASSWORD);
    return { ...opened, yahoo };
  }

  return { dovecot, ...session, userWithYahooMailbox };
}

/** The app password of the Yahoo mailboxes `userWithYahooMailbox` makes. */
export const YAHOO_APP_PASSWORD = 'app password 1';
let yahooSeq = 0;

export interface YahooMailboxUserOptions {
  width?: number;
  /** Prefix of the account's own address (`uniqueEmail`). */
  owner?: string;
  page?: OpenPageOptions;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * The viewport only (a virtualised list renders just the rows near the screen, so a full-page shot of
 * a long list would be mostly blank).
 */
export async function screenshotViewport(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Pixels the page is wider than the viewport (0 when nothing overflows sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
}

let emailSeq = 0;

/** An address no other account of this run has (`prefix-<time>-<n>@example.com`). */
export function uniqueEmail(prefix = 'e2e'): string {
  emailSeq += 1;
  return `${prefix}-${Date.now().toString(36)}-${emailSeq}@example.com`;
}

/** Fills the create-account form the page shows and sends it (where it leads is the caller's to wait for). */
export async function submitCreateAccount(page: Page, email: string, password = 'long enough password') {
  // Exact: right after client-side navigation from /signup its "Email provider" select can still be on
  // the page while this screen's chunk loads, and a loose match would fill that select (seen in CI).
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
}

/** A new account with a password, as a visitor makes one: /create-account to the connect-mailbox screen. */
export async function signUpWithPassword(
  page: Page,
  product: Product,
  email = uniqueEmail(),
  password = 'long enough password',
): Promise<string> {
  await page.goto(`${product.url}/create-account`);
  await submitCreateAccount(page, email, password);
  await page.waitForURL('**/connect-mailbox');
  return email;
}

/** Adds a Yahoo mailbox (app password) from the add-mailbox screen and waits for the subscription list. */
export async function addYahooMailbox(page: Page, product: Product, address: string, appPassword: string) {
  await page.goto(`${product.url}/add-mailbox?provider=yahoo`);
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('App-Specific Password').fill(appPassword);
  await page.getByRole('button', { name: 'Add Account' }).click();
  await page.waitForURL('**/genie/subscriptions');
}
