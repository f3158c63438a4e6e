// npm run bench:rules — 50 sender rules at the daily check of a 50,000-message mailbox on a real Dovecot.
// Two identical mailboxes (one seeded, the other a copy of its files) are connected to two apps of the
// product and fully scanned; one gets the 50 rules through the API (applied at once, as when saved), the
// other none. Then, run after run, the same day's new mail (200 messages, 100 of them from the ruled
// senders) is delivered to both and each app runs its check, in alternating order. The baseline is
// therefore the same check on the same mail without rules, measured in the same run; the only
// difference between the two is what the rules make the check do (the mail they moved at saving time
// included: that is the state a mailbox with rules is in). Prints medians, the ratio, the provider
// operations the rules caused (IMAP commands counted by a pass-through proxy, moves recorded) and
// where the rules' time goes (per MailProvider method and per IMAP command), checks the mail was filed,
// and times on the server two alternatives: batched searches, and the grouped moves of fixFloor.
import { execFileSync } from 'node:child_process';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { parseHostList } from '#server/lib/address-policy.js';
import { SecretBox } from '#server/lib/crypto.js';
import { createProviderFactory, type ProviderFactory } from '#server/mail/index.js';
import type { MailProvider } from '#server/mail/provider.js';
import { Client, createTestApp, type TestApp, uniqueEmail } from '#test/helpers/app.js';
import { type Dovecot, startDovecot } from '#test/helpers/dovecot.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';

const TOTAL = Number(process.env.BENCH_MESSAGES ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SENDERS = 400;
const RULED = 50;
/** A day's new mail: two from each ruled sender, the rest from other senders. */
const NEW_MAIL = 200;
const FOLDERS = ['INBOX', 'Newsletters', 'Shopping', 'Work', 'Archive/2025'];
const PASSWORD = 'bench app password';
const USERS = { rules: 'rules-bench@yahoo.com', plain: 'plain-bench@yahoo.com' };
const AIM = 2;

const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const address = (s: number) => `sender${s}@domain${s}.example`;
/** 7 of 8 senders are newsletters; the ruled ones are the first 50 of those. */
const ruledSenders = Array.from({ length: SENDERS }, (_, s) => s)
  .filter((s) => s % 8 !== 0)
  .slice(0, RULED);

function message(i: number, sender: number, date: Date): string {
  const newsletter = sender % 8 !== 0;
  return rawMessage({
    from: `Sender ${sender} <${address(sender)}>`,
    subject: `Message ${i} from sender ${sender}`,
    date,
    dkim: false,
    ...(newsletter
      ? {
          listUnsubscribe: `<https://domain${sender}.example/unsub?u=${i}>, <mailto:leave-${sender}@domain${sender}.example>`,
          listUnsubscribePost: 'List-Unsubscribe=One-Click',
        }
      : {}),
  });
}

/** A mailbox's folders as people keep them: most mail in INBOX, the rest spread over four folders. */
function folderOf(i: number): string {
  const r = ((i * 2654435761) >>> 0) % 10;
  return r < 6 ? 'INBOX' : FOLDERS[1 + (r - 6)]!;
}

type Rule = {
  folder?: string;
  keepNewest?: number;
  expireAfterDays?: number;
  expireAction?: 'trash' | 'archive';
};

/** 20 with a folder (12 alone, 4 with keepNewest, 4 with an expiry), 15 keepNewest (5 with an expiry), 15 expiries. */
function ruleFor(k: number): Rule {
  const folders = ['Newsletters', 'Shopping', 'Reading', 'Receipts'];
  if (k < 12) return { folder: folders[k % 4]! };
  if (k < 16) return { folder: folders[k % 4]!, keepNewest: 20 };
  if (k < 20) return { folder: folders[k % 4]!, expireAfterDays: 90, expireAction: 'archive' };
  if (k < 30) return { keepNewest: [5, 10, 20][k % 3]! };
  if (k < 35) return { keepNewest: 10, expireAfterDays: 30, expireAction: 'trash' };
  if (k < 43) return { expireAfterDays: [30, 60, 90][k % 3]!, expireAction: 'trash' };
  return { expireAfterDays: [180, 365][k % 2]!, expireAction: 'archive' };
}

/**
 * A pass-through TCP proxy counting the IMAP commands clients send, by name. Both apps go through one of
 * their own, so its cost is in both sides of the ratio alike.
 */
async function countingProxy(upstreamPort: number): Promise<{
  port: number;
  counts: Map<string, number>;
  /** Per command name, ms from the command sent to its tagged answer (while `timing`). */
  times: Map<string, number>;
  timing: boolean;
  close(): Promise<void>;
}> {
  const counts = new Map<string, number>();
  const times = new Map<string, number>();
  const state = { timing: false };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect({ host: '127.0.0.1', port: upstreamPort });
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    let partial = '';
    let literal = 0;
    const pending = new Map<string, { command: string; at: number }>();
    let tail = '';
    // Tagged answers found by their line start; only looked for while commands are pending.
    upstream.on('data', (chunk: Buffer) => {
      if (pending.size === 0) return;
      const text = tail + chunk.toString('latin1');
      tail = text.slice(-200);
      for (const m of text.matchAll(/\r\n(\S+) (?:OK|NO|BAD)\b/g)) {
        const p = pending.get(m[1]!);
        if (!p) continue;
        pending.delete(m[1]!);
        times.set(p.command, (times.get(p.command) ?? 0) + performance.now() - p.at);
      }
    });
    client.on('data', (chunk: Buffer) => {
      let text = partial + chunk.toString('latin1');
      for (;;) {
        if (literal > 0) {
          const skip = Math.min(literal, text.length);
          literal -= skip;
          text = text.slice(skip);
          if (literal > 0) break;
        }
        const end = text.indexOf('\r\n');
        if (end < 0) break;
        const line = text.slice(0, end);
        text = text.slice(end + 2);
        const words = line.split(' ', 3);
        const name = (words[1] ?? '').toUpperCase();
        const command = name === 'UID' ? `UID ${(words[2] ?? '').toUpperCase()}` : name;
        if (command) counts.set(command, (counts.get(command) ?? 0) + 1);
        if (command && state.timing) pending.set(words[0]!, { command, at: performance.now() });
        const m = /\{(\d+)\+?\}$/.exec(line);
        if (m) literal = Number(m[1]);
      }
      partial = text.slice(-10_000);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    counts,
    times,
    get timing() {
      return state.timing;
    },
    set timing(on: boolean) {
      state.timing = on;
    },
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Time spent in each MailProvider method (awaited calls), by the product's own adapters. */
type Timings = Map<string, { calls: number; ms: number }>;

function timedFactory(inner: ProviderFactory, timings: Timings): ProviderFactory {
  return (mailbox) => {
    const provider = inner(mailbox);
    return new Proxy(provider, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        return (...args: unknown[]) => {
          const result = value.apply(target, args);
          if (!(result instanceof Promise)) return result;
          const started = performance.now();
          const wanted = prop === 'findSenderMessages' ? (args[0] as { scope: unknown }).scope : null;
          const scope = wanted === null ? '' : `(${typeof wanted === 'string' ? wanted : 'folder'})`;
          return result.finally(() => {
            const key = `${prop}${scope}`;
            const t = timings.get(key) ?? { calls: 0, ms: 0 };
            t.calls++;
            t.ms += performance.now() - started;
            timings.set(key, t);
          });
        };
      },
    }) as MailProvider;
  };
}

interface Side {
  t: TestApp;
  client: Client;
  mailboxId: string;
  proxy: Awaited<ReturnType<typeof countingProxy>>;
  timings: Timings;
  close(): Promise<void>;
}

async function connect(dovecot: Dovecot, user: string): Promise<Side> {
  const proxy = await countingProxy(dovecot.port);
  const timings: Timings = new Map();
  const t = await createTestApp(
    'sqlite',
    {
      MAIL_PROVIDER_OVERRIDES: JSON.stringify({
        yahoo: { imap: { host: '127.0.0.1', port: proxy.port, secure: false } },
      }),
      // Checks run only when the bench asks.
      SCAN_INTERVAL: '24h',
    },
    (config) => ({
      providers: timedFactory(
        createProviderFactory({
          secrets: new SecretBox(config.secretKey),
          overridesJson: config.mailProviderOverrides,
          batchSize: config.scanBatchSize,
          imapAllowedHosts: parseHostList(config.imapAllowedHosts),
        }),
        timings,
      ),
    }),
  );
  const client = new Client(t.app);
  await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
  const res = await client.post('/auth/yahoo', { email: user, appPassword: PASSWORD });
  if (res.statusCode !== 200) throw new Error(`connect failed: ${res.statusCode} ${res.body}`);
  await t.app.jobs.idle();
  const mailbox = await t.db.selectFrom('mailboxes').select('id').executeTakeFirstOrThrow();
  return {
    t,
    client,
    mailboxId: mailbox.id,
    proxy,
    timings,
    async close() {
      await t.close();
      await proxy.close();
    },
  };
}

/** One check as the scheduler runs it; its time, IMAP commands and the moves it recorded. */
async function check(side: Side): Promise<{ ms: number; commands: Map<string, number>; moves: number }> {
  const movesBefore = await countMoves(side);
  side.proxy.counts.clear();
  const started = performance.now();
  await side.t.app.jobs.enqueue(
    'scan-mailbox',
    { mailboxId: side.mailboxId },
    { key: `mailbox:${side.mailboxId}` },
  );
  await side.t.app.jobs.idle();
  const ms = performance.now() - started;
  const commands = new Map(side.proxy.counts);
  const status = await side.t.db
    .selectFrom('mailboxes')
    .select(['status', 'last_error'])
    .executeTakeFirstOrThrow();
  if (status.status !== 'active') throw new Error(`the check ended ${JSON.stringify(status)}`);
  return { ms, commands, moves: (await countMoves(side)) - movesBefore };
}

async function countMoves(side: Side): Promise<number> {
  const row = await side.t.db
    .selectFrom('moved_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const describe = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');

/** Per folder (Trash and Junk aside), how many messages of `from` it holds. */
async function holdings(
  port: number,
  user: string,
  from: string[],
): Promise<Map<string, Map<string, number>>> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port,
    secure: false,
    auth: { user, pass: PASSWORD },
    logger: false,
  });
  await client.connect();
  const out = new Map<string, Map<string, number>>();
  try {
    for (const f of await client.list()) {
      if (f.flags.has('\\Noselect') || ['\\Trash', '\\Junk'].includes(f.specialUse ?? '')) continue;
      const lock = await client.getMailboxLock(f.path, { readOnly: true });
      try {
        const byFrom = new Map<string, number>();
        for (const a of from) byFrom.set(a, ((await client.search({ from: a }, { uid: true })) || []).length);
        out.set(f.path, byFrom);
      } finally {
        lock.release();
      }
    }
  } finally {
    await client.logout();
  }
  return out;
}

/**
 * What the batched alternatives would cost on the server, by ImapFlow alone on the mailbox with rules:
 * one SEARCH per folder for all 50 senders at once (OR of FROM), and the same in INBOX limited to the
 * last day's UIDs (what filing new mail needs).
 */
async function batchedSearch(
  port: number,
  user: string,
  from: string[],
): Promise<{ all: number; recent: number }> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port,
    secure: false,
    auth: { user, pass: PASSWORD },
    logger: false,
  });
  await client.connect();
  try {
    const or = from.map((a) => ({ from: a }));
    let started = performance.now();
    for (const f of await client.list()) {
      if (f.flags.has('\\Noselect') || ['\\Trash', '\\Junk'].includes(f.specialUse ?? '')) continue;
      const lock = await client.getMailboxLock(f.path, { readOnly: true });
      try {
        await client.search({ or }, { uid: true });
      } finally {
        lock.release();
      }
    }
    const all = performance.now() - started;
    started = performance.now();
    const lock = await client.getMailboxLock('INBOX', { readOnly: true });
    try {
      const next = client.mailbox ? Number(client.mailbox.uidNext) : 1;
      await client.search({ uid: `${Math.max(1, next - NEW_MAIL)}:*`, or }, { uid: true });
    } finally {
      lock.release();
    }
    return { all, recent: performance.now() - started };
  } finally {
    await client.logout();
  }
}

/**
 * The server's side of the fix the report proposes, emulated by ImapFlow alone after the measured checks:
 * the rules pick their messages from what the check and the product's database already know (the new
 * mail's UIDs, each sender's references with their dates) instead of searching the server, and the
 * check's moves go out grouped, one SELECT + UID FETCH + UID MOVE per source folder and destination, on
 * one connection with one LIST. Expiry-only rules do nothing for new mail (it cannot have aged). Timed
 * from the first pick to the last move; reading the new mail's UIDs is not timed (the check has them).
 * Leaves the product's references stale: it runs last.
 */
async function fixFloor(
  dovecot: Dovecot,
  side: Side,
  raws: string[],
): Promise<{ ms: number; commands: number; moved: number }> {
  for (const raw of raws) await dovecot.deliver(USERS.rules, 'INBOX', raw, '');
  const client = new ImapFlow({
    host: '127.0.0.1',
    port: dovecot.port,
    secure: false,
    auth: { user: USERS.rules, pass: PASSWORD },
    logger: false,
  });
  await client.connect();
  try {
    const newMail = new Map<string, number[]>();
    const inbox = await client.getMailboxLock('INBOX', { readOnly: true });
    try {
      const next = client.mailbox ? Number(client.mailbox.uidNext) : 1;
      const range = `${Math.max(1, next - raws.length)}:*`;
      for await (const m of client.fetch(range, { uid: true, envelope: true }, { uid: true })) {
        const from = m.envelope?.from?.[0]?.address?.toLowerCase() ?? '';
        newMail.set(from, [...(newMail.get(from) ?? []), m.uid]);
      }
    } finally {
      inbox.release();
    }
    const ids = new Map(
      (await side.t.db.selectFrom('senders').select(['id', 'address']).execute()).map((r) => [
        r.address,
        r.id,
      ]),
    );
    let commands = 0;
    let moved = 0;
    const started = performance.now();
    await client.list();
    commands++;
    // source folder -> destination -> UIDs
    const groups = new Map<string, Map<string, number[]>>();
    const add = (source: string, destination: string, uid: number) => {
      const bySource = groups.get(source) ?? new Map<string, number[]>();
      groups.set(source, bySource);
      bySource.set(destination, [...(bySource.get(destination) ?? []), uid]);
    };
    for (const [k, s] of ruledSenders.entries()) {
      const rule = ruleFor(k);
      const fresh = newMail.get(address(s)) ?? [];
      if (rule.folder) for (const uid of fresh) add('INBOX', rule.folder, uid);
      if (rule.keepNewest !== undefined && fresh.length > 0) {
        // The new mail pushes as many of the kept newest out: the oldest of them, from the references.
        const rows = await side.t.db
          .selectFrom('messages')
          .select(['provider_id'])
          .where('sender_id', '=', ids.get(address(s))!)
          .orderBy('date', 'desc')
          .limit(fresh.length)
          .offset(Math.max(0, rule.keepNewest - fresh.length))
          .execute();
        for (const r of rows) {
          const m = /^(.+)\/(\d+)\/(\d+)$/.exec(r.provider_id);
          if (m) add(m[1]!, 'Trash', Number(m[3]));
        }
      }
    }
    for (const [source, byDestination] of groups) {
      const lock = await client.getMailboxLock(source);
      commands++;
      try {
        for (const [destination, uids] of byDestination) {
          for await (const _ of client.fetch(uids.join(','), { uid: true }, { uid: true })) {
          }
          const result = await client.messageMove(uids.join(','), destination, { uid: true });
          commands += 2;
          if (result) moved += uids.length;
        }
      } finally {
        lock.release();
      }
    }
    return { ms: performance.now() - started, commands, moved };
  } finally {
    await client.logout();
  }
}

async function main(): Promise<void> {
  const dovecot = await startDovecot([
    { user: USERS.rules, password: PASSWORD },
    { user: USERS.plain, password: PASSWORD },
  ]);
  const sides: Side[] = [];
  let failed = false;
  const verdict = (ok: boolean, what: string) => {
    console.log(`check: ${what}  ${ok ? 'OK' : 'FAILED'}`);
    if (!ok) failed = true;
  };
  try {
    console.log(`seeding ${TOTAL} messages from ${SENDERS} senders over ${FOLDERS.length} folders…`);
    const seeding = performance.now();
    // Files written straight into the Maildir, many at a time; the second mailbox is a copy of the first.
    for (let i = 0; i < TOTAL; i += 256) {
      const batch = [];
      for (let j = i; j < Math.min(TOTAL, i + 256); j++) {
        const sender = (j * 7919) % SENDERS;
        batch.push(dovecot.deliver(USERS.rules, folderOf(j), message(j, sender, daysAgo(j % 700)), 'S'));
      }
      await Promise.all(batch);
    }
    const mail = path.join(dovecot.base, 'mail');
    // -a keeps the owner Dovecot's mail processes run as.
    execFileSync('cp', ['-a', path.join(mail, USERS.rules), path.join(mail, USERS.plain)]);
    console.log(`  seeded in ${sec(performance.now() - seeding)}`);

    const scanning = performance.now();
    const rules = await connect(dovecot, USERS.rules);
    sides.push(rules);
    const plain = await connect(dovecot, USERS.plain);
    sides.push(plain);
    console.log(`first scans of both mailboxes: ${sec(performance.now() - scanning)}`);

    const ids = new Map(
      (await rules.t.db.selectFrom('senders').select(['id', 'address']).execute()).map((r) => [
        r.address,
        r.id,
      ]),
    );
    const putting = performance.now();
    const putMoves = { moved: 0, trashed: 0, archived: 0 };
    for (const [k, s] of ruledSenders.entries()) {
      const id = ids.get(address(s));
      if (!id) throw new Error(`${address(s)} was not found by the scan`);
      const res = await rules.client.put(`/sender-rules/${id}`, { rule: ruleFor(k) });
      if (res.statusCode !== 200) throw new Error(`PUT rule ${k}: ${res.statusCode} ${res.body}`);
      const applied = res.json().applied as typeof putMoves;
      putMoves.moved += applied.moved;
      putMoves.trashed += applied.trashed;
      putMoves.archived += applied.archived;
    }
    console.log(
      `50 rules saved and applied in ${sec(performance.now() - putting)}: ${putMoves.moved} filed, ${putMoves.trashed} trashed, ${putMoves.archived} archived`,
    );
    // A check with no new mail on both: the rules side reads the mail the rules moved, as it would the
    // night after saving them; the daily checks measured below start from there.
    await check(rules);
    await check(plain);

    const withRules: Array<Awaited<ReturnType<typeof check>>> = [];
    const without: Array<Awaited<ReturnType<typeof check>>> = [];
    for (const side of sides) {
      side.timings.clear();
      side.proxy.times.clear();
      side.proxy.timing = true;
    }
    const others = Array.from({ length: SENDERS }, (_, s) => s).filter((s) => !ruledSenders.includes(s));
    const dayOfMail = (run: number) => {
      const raws: string[] = [];
      for (let i = 0; i < NEW_MAIL; i++) {
        const n = TOTAL + 1 + run * NEW_MAIL + i;
        const sender =
          i < 2 * RULED ? ruledSenders[i % RULED]! : others[(run * 37 + i * 13) % others.length]!;
        raws.push(message(n, sender, new Date()));
      }
      return raws;
    };
    for (let run = 0; run < RUNS; run++) {
      const raws = dayOfMail(run);
      for (const user of [USERS.rules, USERS.plain]) {
        for (const raw of raws) await dovecot.deliver(user, 'INBOX', raw, '');
      }
      // Alternating order, so that neither side always runs on a warmer Dovecot.
      if (run % 2 === 0) {
        withRules.push(await check(rules));
        without.push(await check(plain));
      } else {
        without.push(await check(plain));
        withRules.push(await check(rules));
      }
      const w = withRules.at(-1)!;
      const b = without.at(-1)!;
      console.log(
        `  run ${run + 1}: with rules ${sec(w.ms)} (${total(w.commands)} IMAP commands, ${w.moves} moves), without ${sec(b.ms)} (${total(b.commands)} commands)`,
      );
    }

    const medW = median(withRules.map((r) => r.ms));
    const medB = median(without.map((r) => r.ms));
    const ratio = medW / medB;
    const last = withRules.at(-1)!;
    const lastB = without.at(-1)!;
    console.log('');
    console.log(
      `mailbox                        ${TOTAL} messages, ${SENDERS} senders, ${FOLDERS.length} folders`,
    );
    const kinds = ruledSenders.map((_, k) => ruleFor(k));
    console.log(
      `rules                          ${RULED}: ${kinds.filter((r) => r.folder).length} with a folder, ${kinds.filter((r) => r.keepNewest).length} keepNewest, ${kinds.filter((r) => r.expireAfterDays).length} expiries (combinations: see ruleFor)`,
    );
    console.log(`new mail per check             ${NEW_MAIL} (${2 * RULED} from ruled senders)`);
    console.log(
      `check WITHOUT rules (median)   ${sec(medB)}   runs ${without.map((r) => sec(r.ms)).join(', ')}`,
    );
    console.log(
      `check WITH rules (median)      ${sec(medW)}   runs ${withRules.map((r) => sec(r.ms)).join(', ')}`,
    );
    console.log(`ratio                          ${ratio.toFixed(2)}x`);
    console.log(
      `IMAP commands, last check      with rules ${total(last.commands)}, without ${total(lastB.commands)}`,
    );
    console.log(`  with rules:    ${describe(last.commands)}`);
    console.log(`  without rules: ${describe(lastB.commands)}`);
    console.log(
      `moves recorded per check       ${withRules.map((r) => r.moves).join(', ')} (new mail the rules filed, trashed or archived)`,
    );
    console.log(
      `time in MailProvider methods over the ${RUNS} checks with rules (the rules' part is all but changesSince):`,
    );
    for (const [k, v] of [...rules.timings].sort((a, b) => b[1].ms - a[1].ms)) {
      console.log(
        `  ${k.padEnd(28)} ${String(v.calls).padStart(5)} calls  ${sec(v.ms)}  ${(v.ms / v.calls).toFixed(1)} ms each`,
      );
    }
    const serverTimes = (side: Side) =>
      [...side.proxy.times]
        .sort((a, b) => b[1] - a[1])
        .map(([k, ms]) => `${k} ${sec(ms / RUNS)}`)
        .join(', ');
    console.log(`IMAP command to answer, per check (with rules):    ${serverTimes(rules)}`);
    console.log(`IMAP command to answer, per check (without rules): ${serverTimes(plain)}`);
    const batched = await batchedSearch(dovecot.port, USERS.rules, ruledSenders.map(address));
    console.log(
      `batched alternative (ImapFlow alone): one SEARCH OR-ing the 50 senders per folder ${sec(batched.all)}; in INBOX's last ${NEW_MAIL} UIDs only ${sec(batched.recent)}`,
    );

    // Filed correctly: no mail of a folder-ruled sender left in the INBOX (the baseline still has theirs),
    // and no keepNewest sender with more than N messages in the folders the product scans.
    const folderRuled = ruledSenders.filter((_, k) => ruleFor(k).folder);
    const keep = ruledSenders
      .map((s, k) => ({ s, n: ruleFor(k).keepNewest }))
      .filter((x): x is { s: number; n: number } => x.n !== undefined);
    const held = await holdings(dovecot.port, USERS.rules, ruledSenders.map(address));
    const heldPlain = await holdings(dovecot.port, USERS.plain, folderRuled.map(address));
    const inboxLeft = folderRuled.reduce((n, s) => n + (held.get('INBOX')?.get(address(s)) ?? 0), 0);
    const inboxPlain = folderRuled.reduce((n, s) => n + (heldPlain.get('INBOX')?.get(address(s)) ?? 0), 0);
    verdict(
      inboxLeft === 0,
      `INBOX holds none of the 20 folder-ruled senders' mail (baseline INBOX: ${inboxPlain})`,
    );
    const over = keep.filter(
      ({ s, n }) => [...held.values()].reduce((a, m) => a + (m.get(address(s)) ?? 0), 0) > n,
    );
    verdict(over.length === 0, `no keepNewest sender holds more than its N (${keep.length} senders)`);
    verdict(
      withRules.every((r) => r.moves > 0),
      'every check with rules moved new mail',
    );
    // Last: it moves mail behind the product's back.
    const floors = [];
    for (let i = 0; i < 3; i++) floors.push(await fixFloor(dovecot, rules, dayOfMail(RUNS + i)));
    const floor = median(floors.map((f) => f.ms));
    console.log(
      `proposed fix, server side (ImapFlow alone, see fixFloor): ${sec(floor)} for ${floors.map((f) => f.moved).join('/')} moves in ${floors.map((f) => f.commands).join('/')} commands; runs ${floors.map((f) => sec(f.ms)).join(', ')}; projected ratio ${((medB + floor) / medB).toFixed(2)}x`,
    );
    const ok = ratio <= AIM;
    console.log(`aim: check with rules ≤ ${AIM}× check without: ${ok ? 'OK' : 'FAILED'}`);
    if (!ok) failed = true;
  } finally {
    for (const s of sides) await s.close();
    await dovecot.stop();
  }
  if (failed) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
