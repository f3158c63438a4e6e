// npm run bench:fleet — a fleet on PostgreSQL: 1,000 mailboxes on a loopback Dovecot (200–2,000 messages
// each, sizes and senders pseudo-random but the same every run, 7 of 8 senders newsletters), served by the
// product split by role as a hosted deployment runs it: one `--roles=api,live,scheduler` process and two
// `--roles=worker` processes sharing work through pg-boss, in a PostgreSQL database created here and
// dropped at the end (BENCH_DATABASE_URL names the server, 127.0.0.1:5432 by default).
//
// Seeding: each message file is written once and hard-linked into the maildirs that hold it
// (bench/fleet/mailboxes.ts). Users and mailboxes are made through the product's HTTP API, as a user makes
// them: sign-up, then `POST /auth/yahoo` with Dovecot standing in for Yahoo (MAIL_PROVIDER_OVERRIDES), which
// queues each mailbox's first scan; those scans run on the workers and their time is printed.
//
// Then new mail is delivered to a tenth of the mailboxes, and the check of all of them is queued at once by
// inserting the product's own `scan-mailbox` jobs (same name, payload and singleton key as
// server/services.ts `requestScan`) into pg-boss in one statement, so the figure does not depend on how the
// scheduler spreads checks (SCAN_INTERVAL is 24 h: the product's scheduler queues nothing during the run).
// It runs until every mailbox's last_scanned_at is past the moment they were queued.
//
// Prints: mailboxes checked per minute (wall clock, and per worker core from the workers' CPU time), the
// check's CPU time per mailbox (/proc/<pid>/stat of the worker processes, both threads; beside it that of
// the database's PostgreSQL backends and of Dovecot, and the same for the first scans), PostgreSQL's bytes
// per mailbox and per 1,000 messages after VACUUM, and the p99 of one user's list first page
// (GET /get-unsubscribe-emails?limit=50, BENCH_RATE requests a second) during the checks beside its idle
// p99 in the same run. Aims: 1,000 mailboxes checked in under 2 minutes; the list's p99 during the checks
// within 2× its idle p99. Checks (exit 1 on a mismatch): every mailbox's senders counted exactly after the
// first scan and after the check (new mail counted once, no more), no job failed or retried, no mailbox
// with an error.
//
// Variables: BENCH_MAILBOXES (1000), BENCH_MIN_MESSAGES / BENCH_MAX_MESSAGES (200 / 2000), BENCH_WORKERS (2),
// BENCH_SECONDS (60: the idle list; its p99 is the ratio's base, so enough requests for a steady one), BENCH_RATE (20), BENCH_DATABASE_URL, BENCH_PROFILE=<dir>,
// BENCH_DOVECOT_NICE (19: Dovecot stands in for mail servers that run elsewhere; 0 puts it level with the
// API). The workers run at the product's own WORKER_NICE (19 unless set). At 1,000 the
// seeding took 7 minutes and the whole run 9 on the 2-core test machine (docs/benchmarks.md, Fleet).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { Pool } from 'undici';
import type { JobPayloads } from '#server/jobs/queue.js';
import { ensureTestDkimKey } from '#test/helpers/dkim.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { HttpSession } from '#test/helpers/http.js';
import { freePort } from '#test/helpers/net.js';
import { untilHealthy } from '#test/helpers/product-process.js';
import { cpuTimes, postgresDelta, postgresMs } from './cpu.js';
import { addressOf, type MailboxPlan, MaildirWriter, planMailbox, planNewMail } from './fleet/mailboxes.js';
import { random } from './random.js';

const MAILBOXES = Number(process.env.BENCH_MAILBOXES ?? 1_000);
const MIN_MESSAGES = Number(process.env.BENCH_MIN_MESSAGES ?? 200);
const MAX_MESSAGES = Number(process.env.BENCH_MAX_MESSAGES ?? 2_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const DOVECOT_NICE = Number(process.env.BENCH_DOVECOT_NICE ?? 19);
/** The idle measurement of the list, in seconds. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
/** The list's requests a second, idle and during the checks (one user clicking around, and then some). */
const RATE = Number(process.env.BENCH_RATE ?? 20);
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Sign-ups and connections under way at once. */
const SIGNUPS_AT_ONCE = 4;
const AIM_SECONDS_PER_1000 = 120;
const AIM_P99_RATIO = 2;
const PASSWORD = 'fleet app password';
const JOB_SCHEMA = 'pgboss';
const MAIN = path.resolve(import.meta.dirname, '../dist/server/main.js');

let failed = false;
function check(ok: boolean, what: string): void {
  console.log(`check: ${what}  ${ok ? 'OK' : 'FAILED'}`);
  if (!ok) failed = true;
}

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const load = () => `load average ${loadavg()[0]!.toFixed(2)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU time (user + system, every thread) a process has used so far, in ms (clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resolves once each process has used less than 50 ms of CPU in the last second (its start is over). */
async function settled(children: ChildProcess[]): Promise<void> {
  const deadline = performance.now() + 60_000;
  let before = await Promise.all(children.map((c) => cpuMs(c.pid!)));
  for (;;) {
    await sleep(1_000);
    const now = await Promise.all(children.map((c) => cpuMs(c.pid!)));
    if (now.every((ms, i) => ms - before[i]! < 50) || performance.now() > deadline) return;
    before = now;
  }
}

/** Dovecot's master (found by the configuration file it runs) and every process under it now. */
async function dovecotTree(base: string): Promise<{ master: number; tree: Set<number> }> {
  const parents = new Map<number, number>();
  let master = 0;
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (!master && (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes(`${base}/dovecot.conf`)) {
        master = pid;
      }
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Set(master ? [master] : []);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return { master, tree };
}

/**
 * Dovecot's CPU so far (ms): its master process and every process under it, plus the IMAP sessions that
 * have ended (the master reaped them: its children's times).
 */
async function dovecotMs(base: string): Promise<number> {
  const { master, tree } = await dovecotTree(base);
  if (!master) return 0;
  let ms = (await cpuTimes(master)).children;
  for (const pid of tree) ms += (await cpuTimes(pid)).own;
  return ms;
}

/**
 * Dovecot stands in for the users' mail servers, which run on machines of their own: at nice
 * DOVECOT_NICE it takes the cores the fleet leaves, not the API's (its sessions, forked later, inherit it).
 */
async function reniceDovecot(base: string): Promise<void> {
  for (const pid of (await dovecotTree(base)).tree) setPriority(pid, DOVECOT_NICE);
}

/** The nice value of a process's main thread (field 19 of /proc/<pid>/stat). */
async function niceOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

interface Reading {
  at: number;
  workers: number;
  api: number;
  dovecot: number;
  postgres: Map<number, number>;
  machine: number;
}

/** CPU used so far (ms) by the workers, the API process, Dovecot, the database's backends and the machine. */
async function reading(
  workers: ChildProcess[],
  api: ChildProcess,
  dovecotBase: string,
  db: pg.Pool,
): Promise<Reading> {
  let workersMs = 0;
  for (const w of workers) workersMs += await cpuMs(w.pid!);
  return {
    at: performance.now(),
    workers: workersMs,
    api: await cpuMs(api.pid!),
    dovecot: await dovecotMs(dovecotBase),
    postgres: await postgresMs(db),
    machine: (await machineMs()).busy,
  };
}

/** CPU (ms) each used between two readings, and the machine's busy cores on average. */
function used(a: Reading, b: Reading) {
  return {
    workers: b.workers - a.workers,
    api: b.api - a.api,
    dovecot: b.dovecot - a.dovecot,
    postgres: postgresDelta(a.postgres, b.postgres),
    busyCores: (b.machine - a.machine) / (b.at - a.at),
  };
}

/** The machine's busy and total CPU time so far, in ms, from /proc/stat. */
async function machineMs(): Promise<{ busy: number; total: number }> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!;
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = ticks[3]! + ticks[4]!;
  return { busy: (total - idle) * 10, total: total * 10 };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Latencies {
  latencies: number[];
  errors: number;
}

/**
 * `GET requestPath` at RATE requests a second (each sent on time whether or not the one before has
 * answered, on up to 8 keep-alive connections) until `done()`.
 */
async function paced(origin: string, requestPath: string, cookie: string, done: () => boolean) {
  const pool = new Pool(origin, { connections: 8, pipelining: 1, keepAliveTimeout: 60_000 });
  const result: Latencies = { latencies: [], errors: 0 };
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  for (let n = 0; !done(); n++) {
    const wait = started + (n * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    const t = performance.now();
    const request = pool
      .request({ path: requestPath, method: 'GET', headers: { cookie } })
      .then(async (res) => {
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) result.errors++;
        result.latencies.push(performance.now() - t);
      })
      .catch(() => {
        result.errors++;
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  }
  await Promise.all(inFlight);
  await pool.close();
  return result;
}

function summary(label: string, r: Latencies): number {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  const p99 = percentile(sorted, 99);
  console.log(
    `${label.padEnd(34)} p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms   p99 ${p99.toFixed(1).padStart(6)} ms   max ${(sorted.at(-1) ?? Number.NaN).toFixed(1).padStart(6)} ms   (${sorted.length} requests, ${r.errors} errors)`,
  );
  return p99;
}

/** The product's `node dist/server/main.js --roles=…`, its output on ours. */
function startRole(roles: string, env: Record<string, string>, cwd: string): ChildProcess {
  // BENCH_PROFILE=<dir> writes a CPU profile of each process there (at its exit).
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`]
    : [];
  return spawn(process.execPath, [...profile, MAIN, `--roles=${roles}`], {
    // The product reads a .env of its working folder; a developer's own must not reach the bench.
    cwd,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stopRole(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Each sender's message count in each mailbox, keyed `<mailbox address> <sender address>`. */
async function senderCounts(db: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await db.query<{ email: string; address: string; message_count: number }>(
    `SELECT m.email, s.address, s.message_count FROM senders s JOIN mailboxes m ON m.id = s.mailbox_id`,
  );
  return new Map(rows.map((r) => [`${r.email} ${r.address}`, Number(r.message_count)]));
}

/** Which keys of `expected` and `actual` differ (at most `max` of them, for the message). */
function differences(expected: Map<string, number>, actual: Map<string, number>, max = 5): string[] {
  const out: string[] = [];
  for (const key of new Set([...expected.keys(), ...actual.keys()])) {
    if ((expected.get(key) ?? 0) !== (actual.get(key) ?? 0)) {
      out.push(`${key}: expected ${expected.get(key) ?? 0}, found ${actual.get(key) ?? 0}`);
      if (out.length >= max) break;
    }
  }
  return out;
}

/** Polls `count` until it reaches `target`, printing progress every 15 s; throws after `timeoutMs`. */
async function until(
  what: string,
  count: () => Promise<number>,
  target: number,
  timeoutMs: number,
): Promise<void> {
  const started = performance.now();
  let reported = started;
  for (;;) {
    const n = await count();
    if (n >= target) return;
    if (performance.now() - started > timeoutMs) {
      throw new Error(`${what}: ${n} of ${target} after ${sec(timeoutMs)}`);
    }
    if (performance.now() - reported > 15_000) {
      reported = performance.now();
      console.log(`  ${what}: ${n} of ${target} after ${sec(reported - started)} (${load()})`);
    }
    await sleep(200);
  }
}

async function main(): Promise<void> {
  const totalStarted = performance.now();
  const plans: MailboxPlan[] = Array.from({ length: MAILBOXES }, (_, i) =>
    planMailbox(i, MIN_MESSAGES, MAX_MESSAGES),
  );
  const messages = plans.reduce((n, p) => n + p.size, 0);
  // A tenth of the mailboxes, picked pseudo-randomly, get new mail before the check.
  const order = random(7);
  const withNewMail = plans
    .map((p) => ({ p, key: order() }))
    .sort((a, b) => a.key - b.key)
    .slice(0, Math.ceil(MAILBOXES / 10))
    .map(({ p }) => p);
  const newMail = new Map(withNewMail.map((p) => [p, planNewMail(p)]));
  const delivered = [...newMail.values()].reduce((n, m) => n + [...m.values()].reduce((a, b) => a + b, 0), 0);
  // The list is one user's with new mail (its list changes under the checks): the largest such mailbox.
  const listUser = withNewMail.reduce((a, b) => (b.size > a.size ? b : a));
  console.log(
    `fleet: ${MAILBOXES} mailboxes, ${messages} messages (${MIN_MESSAGES}–${MAX_MESSAGES} each), ${WORKERS} worker processes; ${cpus().length} CPUs, ${load()}`,
  );

  // The senders' DKIM key (test/helpers/dkim.ts writes it to a temporary file): removed at exit.
  const keyFileWas = process.env.TEST_DKIM_KEY_FILE;
  const keyFile = ensureTestDkimKey();
  if (!keyFileWas) process.once('exit', () => rmSync(keyFile, { force: true }));

  const dovecot = await startDovecot();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ig-bench-fleet-'));
  const databaseName = `ig_bench_fleet_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  const url = new URL(SERVER);
  url.pathname = `/${databaseName}`;
  const databaseUrl = url.href;
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const roles: ChildProcess[] = [];
  let boss: PgBoss | null = null;
  let cleaning: Promise<void> | null = null;
  /** Stops what the bench started and drops its database: at the end, or at Ctrl-C / SIGTERM mid-way. */
  const cleanUp = () => {
    cleaning ??= (async () => {
      await boss?.stop({ graceful: false, wait: true }).catch(() => {});
      for (const role of roles.reverse()) await stopRole(role);
      await db.end();
      await dovecot.stop();
      await rm(dataDir, { recursive: true, force: true });
      const server = new pg.Client({ connectionString: SERVER });
      await server.connect();
      await server.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await server.end();
    })();
    return cleaning;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\nbench:fleet: ${signal}, stopping`);
      void cleanUp().finally(() => process.exit(1));
    });
  }
  try {
    // 1. The maildirs and Dovecot's users.
    let t = performance.now();
    const writer = new MaildirWriter(dovecot.base);
    for (const plan of plans) writer.layOut(plan);
    for (const plan of plans) await dovecot.addUser({ user: plan.email, password: PASSWORD });
    console.log(
      `maildirs laid out in ${sec(performance.now() - t)}: ${writer.files} message files written, ${writer.links} links`,
    );

    // 2. The product: the API first (it migrates the database and creates pg-boss's schema), then the workers.
    t = performance.now();
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      // Shared by every process: the workers open the secrets the API sealed.
      SECRET_KEY: randomBytes(32).toString('hex'),
      JOB_SCHEMA,
      LOG_LEVEL: 'warn',
      MAIL_PROVIDER_OVERRIDES: dovecot.yahooOverrides(),
      SCAN_INTERVAL: '24h',
      AUTH_RATE_LIMIT: '1000000/1m',
      USER_RATE_LIMIT: '1000000/1m',
      LOGO_BASE_URL: '',
      // The product's default unless the bench is run with WORKER_NICE=… (0: workers level with the API).
      ...(process.env.WORKER_NICE ? { WORKER_NICE: process.env.WORKER_NICE } : {}),
    };
    const api = startRole(
      'api,live,scheduler',
      { ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin },
      dataDir,
    );
    roles.push(api);
    await untilHealthy(port, api);
    const workers = Array.from({ length: WORKERS }, () => startRole('worker', env, dataDir));
    roles.push(...workers);
    // Their CPU is counted from when they have started (loaded their modules and gone quiet).
    await settled(workers);
    await reniceDovecot(dovecot.base);
    console.log(
      `priorities (nice): API ${await niceOf(api.pid ?? 0)}, workers ${(await Promise.all(workers.map((w) => niceOf(w.pid ?? 0)))).join(' and ')} (the product's WORKER_NICE), Dovecot ${DOVECOT_NICE} (BENCH_DOVECOT_NICE: the users' mail servers, elsewhere in production), PostgreSQL as started`,
    );
    const read = () => reading(workers, api, dovecot.base, db);

    // 3. Users and mailboxes through the product; each connection queues the mailbox's first scan.
    const beforeScans = await read();
    const firstConnect = performance.now();
    let listSession: HttpSession | null = null;
    let next = 0;
    const signUp = async () => {
      for (let i = next++; i < plans.length; i = next++) {
        const plan = plans[i]!;
        const http = new HttpSession(origin);
        const signup = await http.call('/auth/signup', 'POST', {
          email: `fleet${plan.index}@example.com`,
          password: 'fleet bench password',
        });
        if (!signup.ok) throw new Error(`sign-up ${plan.index} answered ${signup.status}`);
        const connect = await http.call('/auth/yahoo', 'POST', { email: plan.email, appPassword: PASSWORD });
        if (!connect.ok)
          throw new Error(`connecting ${plan.email} answered ${connect.status}: ${await connect.text()}`);
        if (plan === listUser) listSession = http;
      }
    };
    await Promise.all(Array.from({ length: SIGNUPS_AT_ONCE }, signUp));
    const connected = performance.now() - firstConnect;
    console.log(
      `${MAILBOXES} users signed up and their mailboxes connected in ${sec(connected)} (${load()})`,
    );
    const scanned = async () =>
      Number((await db.query(`SELECT count(*) AS n FROM mailboxes WHERE scan_complete = 1`)).rows[0].n);
    const jobsLeft = async () =>
      Number(
        (
          await db.query(
            `SELECT count(*) AS n FROM ${JOB_SCHEMA}.job WHERE name = 'scan-mailbox' AND state < 'completed'`,
          )
        ).rows[0].n,
      );
    await until('first scans', scanned, MAILBOXES, 30 * 60_000);
    const firstScans = performance.now() - firstConnect;
    const scans = used(beforeScans, await read());
    // A scan queued again meanwhile (the scheduler's start, say) ends before the measurement starts.
    await until('jobs ended', async () => MAILBOXES - (await jobsLeft()), MAILBOXES, 10 * 60_000);
    console.log(
      `first scans: ${sec(firstScans)} from the first sign-up to the last scan's end (${((messages / firstScans) * 1000).toFixed(0)} messages/s, ${load()}); CPU per 1,000 messages: workers ${((scans.workers / messages) * 1000).toFixed(0)} ms, PostgreSQL ${((scans.postgres / messages) * 1000).toFixed(0)} ms, Dovecot ${((scans.dovecot / messages) * 1000).toFixed(0)} ms, the API (sign-ups, connections) ${((scans.api / messages) * 1000).toFixed(0)} ms; the machine ${scans.busyCores.toFixed(2)} of ${cpus().length} cores busy`,
    );
    const expected = new Map<string, number>();
    for (const plan of plans) {
      for (const [sender, count] of plan.senders) expected.set(`${plan.email} ${addressOf(sender)}`, count);
    }
    const afterScan = await senderCounts(db);
    const wrongScan = differences(expected, afterScan);
    check(
      wrongScan.length === 0,
      `first scans: each of the ${expected.size} senders of the ${MAILBOXES} mailboxes counted exactly (${messages} messages)${wrongScan.length ? `\n  ${wrongScan.join('\n  ')}` : ''}`,
    );
    // The steady state a day later: autovacuum would have vacuumed and analyzed the new rows by then.
    await db.query('VACUUM ANALYZE');
    // The first scans left gigabytes of dirty pages: written out now, so no checkpoint or writeback of the
    // seeding lands in the idle window that the ratio is measured against.
    await db.query('CHECKPOINT');
    spawnSync('sync');
    console.log(`seeding took ${sec(performance.now() - totalStarted)} in all`);

    // 4. The list, idle.
    if (!listSession) throw new Error('the list user has no session');
    const session: HttpSession = listSession;
    const cookie = session.cookieHeader();
    const firstPage = '/get-unsubscribe-emails?limit=50';
    const probe = await session.call(firstPage);
    check(probe.ok, `the list of ${listUser.email}'s user answers ${probe.status}`);
    await probe.arrayBuffer();
    const warm = performance.now();
    await paced(origin, firstPage, cookie, () => performance.now() - warm > 2_000);
    console.log(`\nthe list's first page of one user (${listUser.size} messages), ${RATE} requests/s:`);
    const idleStarted = performance.now();
    const idle = await paced(
      origin,
      firstPage,
      cookie,
      () => performance.now() - idleStarted > SECONDS * 1000,
    );
    const idleP99 = summary(`idle, ${SECONDS} s (${load()})`, idle);

    // 5. New mail for a tenth of the fleet, then the check of every mailbox at once.
    for (const [plan, mail] of newMail) writer.deliver(plan, mail);
    for (const [plan, mail] of newMail) {
      for (const [sender, count] of mail) {
        const key = `${plan.email} ${addressOf(sender)}`;
        expected.set(key, (expected.get(key) ?? 0) + count);
      }
    }
    const ids = (await db.query<{ id: string }>('SELECT id FROM mailboxes')).rows.map((r) => r.id);
    boss = new PgBoss({
      connectionString: databaseUrl,
      schema: JOB_SCHEMA,
      max: 1,
      migrate: false,
      supervise: false,
      schedule: false,
    });
    boss.on('error', (error) => console.error(error));
    await boss.start();
    const jobs = ids.map((mailboxId) => {
      const data: JobPayloads['scan-mailbox'] = { mailboxId };
      // server/services.ts requestScan: the same name, payload and singleton key.
      return { name: 'scan-mailbox', data, singletonKey: `mailbox:${mailboxId}` };
    });
    const loadBefore = loadavg()[0]!;
    const beforeChecks = await read();
    const trigger = Date.now();
    const checkStarted = performance.now();
    await boss.insert(jobs);
    let checked = false;
    const during = paced(origin, firstPage, cookie, () => checked);
    const checkedCount = async () =>
      Number(
        (await db.query(`SELECT count(*) AS n FROM mailboxes WHERE last_scanned_at > $1`, [trigger])).rows[0]
          .n,
      );
    try {
      await until('checks', checkedCount, MAILBOXES, 30 * 60_000);
    } finally {
      checked = true;
    }
    const wall = performance.now() - checkStarted;
    const checks = used(beforeChecks, await read());
    const cpu = checks.workers;
    const loadAfter = loadavg()[0]!;
    const lastEnd = Number((await db.query(`SELECT max(last_scanned_at) AS t FROM mailboxes`)).rows[0].t);
    const duringP99 = summary(`during the checks (${sec(wall)})`, await during);
    const checkMs = lastEnd - trigger;

    // 6. What the checks did.
    const afterCheck = await senderCounts(db);
    const wrongCheck = differences(expected, afterCheck);
    check(
      wrongCheck.length === 0,
      `checks: the ${delivered} new messages of ${withNewMail.length} mailboxes counted once each, every other count unchanged${wrongCheck.length ? `\n  ${wrongCheck.join('\n  ')}` : ''}`,
    );
    const jobRows = (
      await db.query<{ state: string; retried: string; n: string }>(
        `SELECT state, (retry_count > 0)::text AS retried, count(*) AS n FROM ${JOB_SCHEMA}.job
         WHERE name = 'scan-mailbox' GROUP BY 1, 2`,
      )
    ).rows;
    const bad = jobRows.filter((r) => r.state !== 'completed' || r.retried === 'true');
    check(
      bad.length === 0,
      `no scan or check job failed, retried or left over${bad.length ? ` (${bad.map((r) => `${r.n} ${r.state}${r.retried === 'true' ? ' retried' : ''}`).join(', ')})` : ''}`,
    );
    const checkJobs = Number(
      (
        await db.query(
          `SELECT count(*) AS n FROM ${JOB_SCHEMA}.job WHERE name = 'scan-mailbox' AND created_on >= to_timestamp($1 / 1000.0)`,
          [trigger],
        )
      ).rows[0].n,
    );
    check(checkJobs === MAILBOXES, `one check job per mailbox (${checkJobs})`);
    const errors = Number(
      (
        await db.query(
          `SELECT count(*) AS n FROM mailboxes WHERE last_error IS NOT NULL OR status <> 'active' OR scan_complete <> 1`,
        )
      ).rows[0].n,
    );
    check(errors === 0, `every mailbox active, scanned, without an error (${errors} not)`);
    check(idle.errors === 0 && (await during).errors === 0, 'every list request answered 200');

    // 7. PostgreSQL's size, vacuumed.
    await db.query('VACUUM ANALYZE');
    const sizes = (
      await db.query<{ schema: string; name: string; bytes: string }>(
        `SELECT n.nspname AS schema, c.relname AS name, pg_total_relation_size(c.oid) AS bytes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')
         ORDER BY 3 DESC`,
      )
    ).rows.map((r) => ({ ...r, bytes: Number(r.bytes) }));
    const database = Number((await db.query(`SELECT pg_database_size(current_database()) AS b`)).rows[0].b);
    const product = sizes.filter((s) => s.schema !== JOB_SCHEMA).reduce((n, s) => n + s.bytes, 0);
    const queue = sizes.filter((s) => s.schema === JOB_SCHEMA).reduce((n, s) => n + s.bytes, 0);
    const table = (name: string) => sizes.find((s) => s.schema !== JOB_SCHEMA && s.name === name)?.bytes ?? 0;
    const stored = messages + delivered;

    const perMailboxCpu = cpu / MAILBOXES;
    const rate = (MAILBOXES / checkMs) * 60_000;
    console.log(
      `\nchecks of ${MAILBOXES} mailboxes (${withNewMail.length} with ${delivered} new messages), ${WORKERS} worker processes:`,
    );
    console.log(`  all checked in                    ${sec(checkMs)} from queueing to the last check's end`);
    console.log(
      `  mailboxes checked per minute      ${rate.toFixed(0)} (${(rate / WORKERS).toFixed(0)} per worker process, on ${cpus().length} cores shared with PostgreSQL, Dovecot and the API)`,
    );
    console.log(
      `  per worker core                   ${(60_000 / perMailboxCpu).toFixed(0)} mailboxes a minute (a core's minute / the check's CPU time)`,
    );
    console.log(
      `  check's CPU time per mailbox      ${perMailboxCpu.toFixed(1)} ms (worker processes, every thread)`,
    );
    console.log(
      `  and per mailbox elsewhere         PostgreSQL ${(checks.postgres / MAILBOXES).toFixed(1)} ms (its backends of this database, the list's queries with them), Dovecot ${(checks.dovecot / MAILBOXES).toFixed(1)} ms`,
    );
    console.log(
      `  meanwhile                         API process ${sec(checks.api)} CPU; the machine ${checks.busyCores.toFixed(2)} of ${cpus().length} cores busy; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
    );
    console.log(`\nPostgreSQL after VACUUM (${MAILBOXES} mailboxes, ${stored} message references):`);
    console.log(
      `  database                          ${mib(database)} (product tables ${mib(product)}, pg-boss ${mib(queue)})`,
    );
    for (const s of sizes.filter((x) => x.schema !== JOB_SCHEMA).slice(0, 4)) {
      console.log(`    ${s.name.padEnd(32)}${mib(s.bytes)}`);
    }
    console.log(
      `  per mailbox                       ${kib(database / MAILBOXES)} (product tables ${kib(product / MAILBOXES)})`,
    );
    console.log(
      `  per 1,000 messages                ${kib((database / stored) * 1000)} (product tables ${kib((product / stored) * 1000)}; messages table with its indexes ${kib((table('messages') / stored) * 1000)})`,
    );
    const projected = (checkMs * 1000) / MAILBOXES;
    console.log(
      `\naim: 1,000 mailboxes checked in under ${AIM_SECONDS_PER_1000 / 60} minutes: ${projected < AIM_SECONDS_PER_1000 * 1000 ? 'met' : 'NOT met'} (${sec(checkMs)} for ${MAILBOXES}${MAILBOXES === 1000 ? '' : `; ${sec(projected)} for 1,000 at this rate`})`,
    );
    console.log(
      `aim: the list's p99 during the checks within ${AIM_P99_RATIO}× its idle p99: ${duringP99 <= AIM_P99_RATIO * idleP99 ? 'met' : 'NOT met'} (${duringP99.toFixed(1)} ms against ${idleP99.toFixed(1)} ms, ${(duringP99 / idleP99).toFixed(2)}×)`,
    );
  } finally {
    await cleanUp();
  }
  if (failed) {
    console.error('\nbench:fleet: a check failed');
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
