// npm run bench:list — the subscription list of a user with 5,000 subscription senders, on the product
// (its own process; on SQLite, then on PostgreSQL too with BENCH_DATABASE_URL, side by side at the end) at 50 concurrent keep-alive
// connections: the first page (GET /get-unsubscribe-emails?limit=50) against GET /csrf-token (the same
// stack answering a route that reads nothing) in the same run, p50, p99 and requests/s of each; then the
// whole list once (no limit) and a walk of every page in each order, checked to list each sender exactly
// once and in its order. Then the list grouped by brand (group=brand) and GET /insights at the same
// load (both within 2× the first page's p99), and both worked out afresh (a sender's updated_at moved
// before each call, so neither is answered from what the product keeps per user). The user's
// 5,000 subscription senders (4,000 to review, 500 kept, 500 unsubscribed, about 8 to a brand) have
// 50,000 message references over two years. Target: first page p99 <= 50 ms; /insights under 100 ms.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { type Insertable, sql } from 'kysely';
import pg from 'pg';
import { Pool } from 'undici';
import type {
  BrandsResponse,
  InsightsResponse,
  Subscription,
  SubscriptionCategory,
  SubscriptionSort,
  SubscriptionsResponse,
} from '#contract/api.js';
import { openDatabase } from '#server/db/index.js';
import type { SendersTable } from '#server/db/schema.js';
import { weekStart } from '#server/features/insights/service.js';
import { HttpSession } from '#test/helpers/http.js';
import { freePort } from '#test/helpers/net.js';
import { untilHealthy } from '#test/helpers/product-process.js';
import { cpuTimes, postgresDelta, postgresMs } from './cpu.js';
import { random } from './random.js';

const SENDERS = Number(process.env.BENCH_SENDERS ?? 5_000);
const PERSONAL = 1_500; // senders of personal mail: rows of the same user that are not subscriptions
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const PAGE = 50;
const TARGET_P99_MS = 50;
const TARGET_INSIGHTS_MS = 100;
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 50_000);
/** Senders kept and unsubscribed: the first tenth and the second; the rest are to review. */
const categoryOf = (i: number) =>
  i < SENDERS / 10 ? 'kept' : i < SENDERS / 5 ? 'unsubscribed' : 'uncategorized';
const REVIEW = SENDERS - Math.floor(SENDERS / 5);
const DAY = 86_400_000;

let failed = false;
function check(ok: boolean, what: string): void {
  console.log(`check: ${what}  ${ok ? 'OK' : 'FAILED'}`);
  if (!ok) failed = true;
}

const BRANDS = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Hooli',
  'Stark',
  'Wayne',
  'Wonka',
  'Tyrell',
  'Soylent',
];
const KINDS = ['Weekly', 'Daily Deals', 'News', 'Digest', 'Updates', 'Offers', 'Newsletter', 'Insider'];
const LOCALS = ['news', 'newsletter', 'hello', 'deals', 'noreply', 'digest', 'updates', 'team'];

/** The user's mailbox and senders, written straight into the product's database. */
async function seed(
  databaseUrl: string | null,
  dataDir: string,
  userId: string,
): Promise<{ ids: Set<string>; dated: Map<string, number> }> {
  const handle = await openDatabase({ databaseUrl, dataDir });
  const { db } = handle;
  const now = Date.now();
  const rnd = random(42);
  const mailboxId = randomUUID();
  await db
    .insertInto('mailboxes')
    .values({
      id: mailboxId,
      user_id: userId,
      email: 'bench@yahoo.com',
      provider: 'yahoo',
      secret: null,
      created_at: now,
    })
    .execute();
  const ids = new Set<string>();
  const weights: Array<[string, number]> = [];
  const rows: Insertable<SendersTable>[] = [];
  for (let i = 0; i < SENDERS + PERSONAL; i++) {
    const subscription = i < SENDERS;
    // About eight senders to a brand (group=brand), each from a subdomain of its own.
    const brand = `${BRANDS[i % BRANDS.length]}${Math.floor(i / (BRANDS.length * 8))}`;
    // Heavy-tailed counts: most lists sent a few dozen messages, some thousands.
    const count = Math.max(1, Math.floor(1 / (rnd() * rnd() + 0.001)));
    const known = rnd() < 0.9 ? count : 0;
    const read = Math.floor(known * rnd());
    const id: string = randomUUID();
    if (subscription && categoryOf(i) === 'uncategorized') ids.add(id);
    if (subscription) weights.push([id, count]);
    rows.push({
      id,
      user_id: userId,
      mailbox_id: mailboxId,
      address: subscription
        ? `${LOCALS[i % LOCALS.length]}@mail${i}.${brand.toLowerCase()}.example`
        : `person${i}@mail${i % 40}.example`,
      brand: subscription ? `${brand.toLowerCase()}.example` : `mail${i % 40}.example`,
      category: subscription ? categoryOf(i) : ('uncategorized' as const),
      unsubscribed_at:
        subscription && categoryOf(i) === 'unsubscribed' ? now - Math.floor(rnd() * 365 * DAY) : null,
      sender_name: subscription ? `${brand} ${KINDS[i % KINDS.length]}` : `Person ${i}`,
      message_count: count,
      list_message_count: subscription ? count : 0,
      // One in fifty without a date (headers without a usable Date).
      last_message_at: rnd() < 0.02 ? null : now - Math.floor(rnd() * 730 * DAY),
      is_subscription: subscription ? 1 : 0,
      read_count: read,
      read_known: known,
      read_rank: known > 0 ? Math.floor((1000 * read) / known) : 1001,
      recent_count: Math.floor(count * rnd() * 0.3),
      via: subscription && i % 40 === 0 ? `list-${i}@lists.example` : null,
      one_click: 1,
      unsubscribe_http: JSON.stringify([`https://${brand.toLowerCase()}.example/unsubscribe?u=${i}`]),
      unsubscribe_mailto: JSON.stringify([`unsubscribe-${i}@${brand.toLowerCase()}.example`]),
      created_at: now,
      updated_at: now,
    });
  }
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('senders')
      .values(rows.slice(i, i + 500))
      .execute();
  }
  // Message references, each of a sender drawn by its weight (the heavy tail above), dated over two
  // years, one in fifty undated; the insights' weekly figures are checked against them.
  const total = weights.reduce((sum, [, w]) => sum + w, 0);
  const cumulative: number[] = [];
  let acc = 0;
  for (const [, w] of weights) {
    acc += w;
    cumulative.push(acc);
  }
  const categoryOfId = new Map<string, SubscriptionCategory>(
    rows.map((r) => [r.id, r.category ?? 'uncategorized']),
  );
  const dated = new Map<string, number>();
  const refs = [];
  for (let n = 0; n < MESSAGES; n++) {
    const target = rnd() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    const senderId = weights[lo]![0];
    const date = rnd() < 0.02 ? null : now - Math.floor(rnd() * 730 * DAY);
    if (date !== null && date >= insightsWindowStart(now)) {
      const key = categoryOfId.get(senderId)!;
      dated.set(key, (dated.get(key) ?? 0) + 1);
    }
    refs.push({
      mailbox_id: mailboxId,
      provider_id: `INBOX/1/${n + 1}`,
      sender_id: senderId,
      folder: 'INBOX',
      subject: `Issue ${n}`,
      date,
      seen: rnd() < 0.5 ? 1 : 0,
    });
  }
  for (let i = 0; i < refs.length; i += 500) {
    await db
      .insertInto('messages')
      .values(refs.slice(i, i + 500))
      .execute();
  }
  // PostgreSQL's autovacuum would vacuum and analyze the new rows within a minute or so (statistics,
  // and the visibility map that index-only counts need): the measurement is of that steady state.
  if (databaseUrl) {
    await sql`VACUUM ANALYZE senders`.execute(db);
    await sql`VACUUM ANALYZE messages`.execute(db);
  }
  await handle.close();
  return { ids, dated };
}

/** Monday 00:00 UTC of the week 25 weeks before the current one: the insights' first week. */
function insightsWindowStart(now: number): number {
  return weekStart(now) - 25 * 7 * DAY;
}

interface Result {
  latencies: number[];
  requests: number;
  errors: number;
  seconds: number;
}

/** `connections` loops, each on its own keep-alive connection, calling `path` for `seconds`. */
async function load(origin: string, requestPath: string, cookie: string, seconds: number): Promise<Result> {
  const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 60_000 });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        const res = await pool.request({ path: requestPath, method: 'GET', headers: { cookie } });
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return { latencies, requests: latencies.length, errors, seconds: elapsed };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(label: string, r: Result): { p50: number; p99: number; rps: number } {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  const rps = r.requests / r.seconds;
  console.log(
    `${label.padEnd(42)} p50 ${p50.toFixed(1).padStart(6)} ms   p99 ${p99.toFixed(1).padStart(6)} ms   ${rps.toFixed(0).padStart(6)} req/s   (${r.requests} requests, ${r.errors} errors)`,
  );
  return { p50, p99, rps };
}

/** Whether the rows follow the order (its sort value only; ties are the server's business). */
function inOrder(sort: SubscriptionSort, rows: Subscription[]): boolean {
  const key = (s: Subscription): number => {
    switch (sort) {
      case 'newest':
        // Undated last.
        return s.lastMessageAt === null ? Number.POSITIVE_INFINITY : -Date.parse(s.lastMessageAt);
      case 'messages':
        return -s.messageCount;
      case 'readRate':
        // The order's key is the rate per mille (read_rank), unknown last.
        return s.readRate === null || s.readRate === undefined
          ? Number.POSITIVE_INFINITY
          : Math.floor(1000 * s.readRate + 1e-9);
      case 'perMonth':
        return -(s.messagesPerMonth ?? 0);
    }
  };
  const keys = rows.map(key);
  return keys.every((k, i) => i === 0 || keys[i - 1]! <= k);
}

interface Figures {
  list: { p99: number; rps: number };
  /** The rest; none under BENCH_LIST_ONLY. */
  others?: {
    brands: { p99: number; rps: number };
    insights: { p99: number; rps: number };
    insightsAfresh: number;
    brandsAfresh: number;
  };
}

/** One run on SQLite (`server` undefined) or on a new database of the PostgreSQL server `server`. */
async function runOn(server: string | undefined): Promise<Figures> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ig-bench-list-'));
  const databaseName = `ig_bench_list_${randomUUID().slice(0, 8)}`;
  let databaseUrl: string | null = null;
  if (server) {
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${databaseName}`);
    await admin.end();
    const url = new URL(server);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.href;
  }
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // The product as `npm start` runs it (dist/server/main.js, built by the npm script), SQLite in its own
  // data folder.
  const product = spawn(
    process.execPath,
    [
      // BENCH_PROFILE=<dir> writes a CPU profile of the product process there.
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
      'dist/server/main.js',
    ],
    {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: origin,
        DATA_DIR: dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT: '1000/1m',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  await untilHealthy(port, product);
  try {
    const http = new HttpSession(origin);
    const email = 'bench@example.com';
    const signup = await http.call('/auth/signup', 'POST', { email, password: 'bench password' });
    if (!signup.ok) throw new Error(`sign-up answered ${signup.status}`);
    const handle = await openDatabase({ databaseUrl, dataDir });
    const user = await handle.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    await handle.close();
    console.log(`database: ${databaseUrl ? 'PostgreSQL' : 'SQLite'}`);
    console.log(
      `seeding ${SENDERS} subscription senders (${REVIEW} to review), ${PERSONAL} personal ones and ${MESSAGES} message references for one user…`,
    );
    const { ids, dated } = await seed(databaseUrl, dataDir, user.id);
    const cookie = http.cookieHeader();
    const firstPage = `/get-unsubscribe-emails?limit=${PAGE}`;

    // The answer is checked before it is timed.
    const first = (await (await http.call(firstPage)).json()) as SubscriptionsResponse;
    check(first.data.length === PAGE && first.total === REVIEW, `first page: ${PAGE} rows, total ${REVIEW}`);

    console.log(`warming up ${WARMUP_SECONDS} s…`);
    await load(origin, firstPage, cookie, WARMUP_SECONDS);
    // BENCH_LIST_ONLY=1 times the first page alone and stops there (a CPU profile of the list alone).
    const listOnly = process.env.BENCH_LIST_ONLY === '1';
    if (!listOnly) await load(origin, '/csrf-token', cookie, WARMUP_SECONDS);
    // The figures depend on what else the machine runs: say how busy it was.
    console.log(
      `${CONNECTIONS} connections, ${SECONDS} s each (${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)}):`,
    );
    // Where a request's CPU goes: the product's process, the database's backends, this load generator.
    const backends = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 1 }) : null;
    const cpuBefore = {
      product: (await cpuTimes(product.pid ?? 0)).own,
      postgres: backends ? await postgresMs(backends) : new Map<number, number>(),
      bench: process.cpuUsage(),
    };
    const listResult = await load(origin, firstPage, cookie, SECONDS);
    const list = summary(`GET ${firstPage}`, listResult);
    {
      const requests = listResult.requests;
      const per = (ms: number) => `${((ms * 1000) / requests).toFixed(0)} µs`;
      const bench = process.cpuUsage(cpuBefore.bench);
      const postgres = backends ? postgresDelta(cpuBefore.postgres, await postgresMs(backends)) : 0;
      await backends?.end();
      console.log(
        `CPU per first page: the product ${per((await cpuTimes(product.pid ?? 0)).own - cpuBefore.product)}${backends ? `, PostgreSQL's backends ${per(postgres)}` : ''}, the load generator ${per((bench.user + bench.system) / 1000)}`,
      );
    }
    if (listOnly) return { list };
    const csrf = summary('GET /csrf-token', await load(origin, '/csrf-token', cookie, SECONDS));
    console.log(
      `first page / csrf-token: ${(list.rps / csrf.rps).toFixed(2)}× the requests/s, p99 ${(list.p99 / csrf.p99).toFixed(2)}×`,
    );

    const t = performance.now();
    const whole = await http.call('/get-unsubscribe-emails');
    const body = await whole.text();
    const wholeMs = performance.now() - t;
    const all = (JSON.parse(body) as SubscriptionsResponse).data;
    console.log(
      `whole list (no limit), one call: ${wholeMs.toFixed(0)} ms, ${(body.length / 1024).toFixed(0)} KB, ${all.length} rows`,
    );
    check(all.length === REVIEW, `whole list holds the ${REVIEW} senders to review`);

    for (const sort of ['newest', 'messages', 'readRate', 'perMonth'] as const) {
      const walked: Subscription[] = [];
      let pages = 0;
      let cursor: string | null | undefined = null;
      const walkStarted = performance.now();
      do {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const res = (await (
          await http.call(`${firstPage}&sort=${sort}${query}`)
        ).json()) as SubscriptionsResponse;
        pages++;
        walked.push(...res.data);
        cursor = res.nextCursor;
      } while (cursor);
      const walkMs = performance.now() - walkStarted;
      const seen = new Set(walked.map((s) => s.id));
      console.log(
        `walk sort=${sort}, ${PAGE} a page: ${pages} pages, ${walked.length} rows in ${walkMs.toFixed(0)} ms (${(walkMs / pages).toFixed(1)} ms a page, one at a time)`,
      );
      check(
        walked.length === ids.size && seen.size === ids.size && [...ids].every((id) => seen.has(id)),
        `the walk by ${sort} lists each of the ${REVIEW} senders exactly once`,
      );
      check(inOrder(sort, walked), `the walk by ${sort} is in its order`);
    }
    // The list grouped by brand and the insights, checked, then at the same load as the first page.
    const brandPage = `/get-unsubscribe-emails?group=brand&limit=${PAGE}`;
    const brands = (await (await http.call(brandPage)).json()) as BrandsResponse;
    const sendersOf = (page: BrandsResponse) => page.data.reduce((n, b) => n + b.senders.length, 0);
    check(
      brands.data.length > 1 && sendersOf(brands) <= PAGE && brands.data.every((b) => b.senders.length >= 1),
      `group=brand first page: whole brands, at most ${PAGE} senders (${brands.data.length} brands, ${sendersOf(brands)} senders; ${brands.total} brands in all)`,
    );
    // Every page of brands once: each brand once, the review list's senders each once.
    const walkedBrands = new Set<string>();
    const walkedSenders = new Set<string>();
    const repeated: string[] = [];
    let brandPages = 0;
    for (let cursor: string | null | undefined, page = brands; ; ) {
      brandPages++;
      for (const b of page.data) {
        if (walkedBrands.has(b.brand)) repeated.push(b.brand);
        walkedBrands.add(b.brand);
        for (const sender of b.senders) walkedSenders.add(sender.id);
      }
      cursor = page.nextCursor;
      if (!cursor) break;
      page = (await (
        await http.call(`${brandPage}&cursor=${encodeURIComponent(cursor)}`)
      ).json()) as BrandsResponse;
    }
    check(
      repeated.length === 0 && walkedBrands.size === brands.total && walkedSenders.size === ids.size,
      `group=brand walk: ${brandPages} pages, ${walkedBrands.size} brands of ${brands.total}, each once (${repeated.length} repeated), ${walkedSenders.size} senders of ${ids.size}`,
    );
    const insights = (await (await http.call('/insights')).json()) as InsightsResponse;
    const sum = (k: 'toReview' | 'kept' | 'unsubscribed') => insights.weeks.reduce((n, w) => n + w[k], 0);
    check(
      sum('toReview') === (dated.get('uncategorized') ?? 0) &&
        sum('kept') === (dated.get('kept') ?? 0) &&
        sum('unsubscribed') === (dated.get('unsubscribed') ?? 0),
      `insights: the 26 weeks hold the ${[...dated.values()].reduce((a, b) => a + b, 0)} references dated in them, by category`,
    );
    check(
      insights.quieter.total === SENDERS / 10 && insights.topSenders.length === 10,
      `insights: ${SENDERS / 10} senders quieter since, 10 top senders`,
    );
    await load(origin, brandPage, cookie, WARMUP_SECONDS);
    const brandLoad = summary(`GET ${brandPage}`, await load(origin, brandPage, cookie, SECONDS));
    const insightsLoad = summary('GET /insights', await load(origin, '/insights', cookie, SECONDS));
    console.log(
      `group=brand / first page: p99 ${(brandLoad.p99 / list.p99).toFixed(2)}×; /insights / first page: p99 ${(insightsLoad.p99 / list.p99).toFixed(2)}×`,
    );
    // Worked out afresh: a sender's updated_at moves before each call, as a check or an action would.
    const afresh = async (route: string): Promise<number> => {
      const times: number[] = [];
      const writer = await openDatabase({ databaseUrl, dataDir });
      try {
        for (let n = 0; n < 7; n++) {
          await writer.db
            .updateTable('senders')
            .set({ updated_at: Date.now() + 1_000 + n })
            .where('id', '=', [...ids][n]!)
            .execute();
          const started = performance.now();
          const res = await http.call(route);
          await res.arrayBuffer();
          times.push(performance.now() - started);
        }
      } finally {
        await writer.close();
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)]!;
      console.log(
        `GET ${route} worked out afresh, one at a time: median ${median.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms (${times.length} calls)`,
      );
      return median;
    };
    const brandsAfresh = await afresh(brandPage);
    const coldMedian = await afresh('/insights');
    console.log(
      `target first page p99 <= ${TARGET_P99_MS} ms at ${CONNECTIONS} connections: ${list.p99 <= TARGET_P99_MS ? 'met' : 'NOT met'} (${list.p99.toFixed(1)} ms)`,
    );
    console.log(
      `target /insights under ${TARGET_INSIGHTS_MS} ms (p99 at ${CONNECTIONS} connections, and afresh): ${insightsLoad.p99 < TARGET_INSIGHTS_MS && coldMedian < TARGET_INSIGHTS_MS ? 'met' : 'NOT met'} (${insightsLoad.p99.toFixed(1)} ms, ${coldMedian.toFixed(1)} ms)`,
    );
    const within = (f: { p99: number }) => (f.p99 <= 2 * list.p99 ? 'met' : 'NOT met');
    console.log(
      `target group=brand and /insights p99 within 2× the first page's: ${within(brandLoad)} and ${within(insightsLoad)} (${(brandLoad.p99 / list.p99).toFixed(2)}×, ${(insightsLoad.p99 / list.p99).toFixed(2)}×)`,
    );
    return {
      list,
      others: { brands: brandLoad, insights: insightsLoad, insightsAfresh: coldMedian, brandsAfresh },
    };
  } finally {
    // SIGTERM: the product closes and exits, writing its CPU profile when BENCH_PROFILE asked for one.
    const exited = new Promise((resolve) => product.once('exit', resolve));
    product.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
    if (server) {
      const admin = new pg.Client({ connectionString: server });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName}`);
      await admin.end();
    }
  }
}

// SQLite, then (with BENCH_DATABASE_URL=postgres://…) PostgreSQL in a database of its own, created and
// dropped here, the two side by side at the end. BENCH_ONLY=sqlite or postgres runs one of them.
async function main(): Promise<void> {
  const server = process.env.BENCH_DATABASE_URL;
  const only = process.env.BENCH_ONLY;
  const runs: Array<[string, Figures]> = [];
  if (only !== 'postgres') {
    console.log('\n=== SQLite');
    runs.push(['SQLite', await runOn(undefined)]);
  }
  if (server && only !== 'sqlite') {
    console.log('\n=== PostgreSQL');
    runs.push(['PostgreSQL', await runOn(server)]);
  }
  if (runs.length > 1) {
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    const cell = (f: { p99: number; rps: number }, base: { p99: number }) =>
      `p99 ${ms(f.p99).padStart(9)} (${(f.p99 / base.p99).toFixed(2)}×) ${f.rps.toFixed(0).padStart(5)} req/s`;
    console.log(
      `\nside by side, ${CONNECTIONS} connections (× = p99 against the same database's first page):`,
    );
    console.log(
      `${''.padEnd(12)}${'first page'.padEnd(36)}${'group=brand'.padEnd(36)}${'/insights'.padEnd(36)}afresh: group=brand, /insights`,
    );
    for (const [name, { list, others }] of runs) {
      console.log(
        `${name.padEnd(12)}${cell(list, list).padEnd(36)}${
          others
            ? `${cell(others.brands, list).padEnd(36)}${cell(others.insights, list).padEnd(36)}${ms(others.brandsAfresh)}, ${ms(others.insightsAfresh)}`
            : ''
        }`,
      );
    }
  }
  if (failed) {
    console.error('\nbench:list: a check failed');
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
