// npm run bench:scan — the first scan of a 50,000-message mailbox on a real Dovecot, measured in one run
// against two baselines: a bare socket sending the same UID FETCH and reading the answer without parsing
// it (the wire's floor), and ImapFlow alone fetching the same header fields. Prints both ratios, the
// first subscription's time, the product's peak RSS, its CPU time per 1,000 messages and the daily
// check's share of a full scan, beside the same check by ImapFlow alone. Aims (issue 12): <= 1.15x
// ImapFlow, <= 3x the socket floor, first subscription <= 0.5 s, peak RSS <= 250 MiB, daily check <= 5 %.
import { readFile } from 'node:fs/promises';
import { connect as tcpConnect } from 'node:net';
import { ImapFlow } from 'imapflow';
import { io as connect } from 'socket.io-client';
import { SCAN_HEADER_FIELDS } from '#server/mail/provider.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { HttpSession } from '#test/helpers/http.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { startProduct } from '../e2e/harness.js';

const TOTAL = Number(process.env.BENCH_MESSAGES ?? 50_000);
const SENDERS = 400;
const NEW_MAIL = 500;
const FOLDERS = ['INBOX', 'Newsletters', 'Shopping', 'Work', 'Archive/2025'];
const USER = 'bench@yahoo.com';
const PASSWORD = 'bench app password';

const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function message(i: number, sender: number, ageDays: number): string {
  // 7 of 8 senders are newsletters; the rest write personal mail.
  const newsletter = sender % 8 !== 0;
  return rawMessage({
    from: `Sender ${sender} <sender${sender}@domain${sender}.example>`,
    subject: `Message ${i} from sender ${sender}`,
    date: daysAgo(ageDays),
    ...(newsletter
      ? {
          listUnsubscribe: `<https://domain${sender}.example/unsub?u=${i}>, <mailto:leave-${sender}@domain${sender}.example>`,
          listUnsubscribePost: 'List-Unsubscribe=One-Click',
        }
      : {}),
  });
}

/** ImapFlow alone, logged in as the bench's user. */
async function connected(port: number): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port,
    secure: false,
    auth: { user: USER, pass: PASSWORD },
    logger: false,
  });
  await client.connect();
  return client;
}

async function imapFloor(port: number): Promise<number> {
  const client = await connected(port);
  const started = performance.now();
  let n = 0;
  for (const folder of FOLDERS) {
    const lock = await client.getMailboxLock(folder);
    try {
      for await (const _ of client.fetch('1:*', {
        uid: true,
        headers: [...SCAN_HEADER_FIELDS],
        internalDate: true,
      }))
        n++;
    } finally {
      lock.release();
    }
  }
  const elapsed = performance.now() - started;
  await client.logout();
  if (n !== TOTAL) throw new Error(`floor fetched ${n} of ${TOTAL}`);
  return elapsed;
}

const FETCHED = `(UID FLAGS INTERNALDATE BODY.PEEK[HEADER.FIELDS (${SCAN_HEADER_FIELDS.join(' ')})])`;

/**
 * The floor: one TCP connection that logs in, EXAMINEs each folder and sends the same UID FETCH the
 * product sends (the scan's header fields, INTERNALDATE and FLAGS), reading the answer until its tagged
 * OK without parsing anything but that line.
 */
function socketFloor(port: number): Promise<{ ms: number; bytes: number }> {
  return socketSession(
    port,
    FOLDERS.flatMap((folder) => [`EXAMINE "${folder}"`, `UID FETCH 1:* ${FETCHED}`]),
  );
}

/** The daily check's commands on a bare socket (see checkFloor), from the connection to the last answer. */
function socketCheckFloor(
  port: number,
  marks: Map<string, { uidNext: number; modseq: bigint }>,
): Promise<{ ms: number; bytes: number }> {
  return socketSession(port, [
    'LIST "" "*" RETURN (STATUS (MESSAGES UIDNEXT UIDVALIDITY))',
    ...FOLDERS.flatMap((folder) => {
      const mark = marks.get(folder)!;
      return [
        `EXAMINE "${folder}"`,
        `UID FETCH 1:${mark.uidNext - 1} (UID FLAGS) (CHANGEDSINCE ${mark.modseq})`,
        `UID FETCH ${mark.uidNext}:* ${FETCHED}`,
      ];
    }),
  ]);
}

/** Logs in and sends the commands one after another, timed from the greeting to the last tagged answer. */
async function socketSession(port: number, commands: string[]): Promise<{ ms: number; bytes: number }> {
  const socket = tcpConnect({ host: '127.0.0.1', port });
  socket.setNoDelay(true);
  let tail = '\r\n';
  let bytes = 0;
  let waiting: { tag: string; resolve: () => void; reject: (e: Error) => void } | null = null;
  let greeted: () => void = () => {};
  const greeting = new Promise<void>((resolve) => {
    greeted = resolve;
  });
  socket.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    // Only the end of the stream is looked at: the last 4 KB of this chunk and of the one before.
    const end = tail + chunk.toString('latin1', Math.max(0, chunk.length - 4096));
    tail = end.slice(-4096);
    if (end.includes('* OK')) greeted();
    if (waiting && end.includes(`\r\n${waiting.tag} `)) {
      const line = end.slice(end.lastIndexOf(`\r\n${waiting.tag} `) + 2);
      if (!line.includes('\r\n')) return;
      const w = waiting;
      waiting = null;
      tail = '\r\n';
      if (line.startsWith(`${w.tag} OK`)) w.resolve();
      else w.reject(new Error(line.trim()));
    }
  });
  let n = 0;
  const command = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const tag = `f${++n}`;
      waiting = { tag, resolve, reject };
      socket.write(`${tag} ${text}\r\n`);
    });
  await greeting;
  const started = performance.now();
  bytes = 0;
  await command(`LOGIN "${USER}" "${PASSWORD}"`);
  for (const text of commands) await command(text);
  const ms = performance.now() - started;
  socket.end(`f${++n} LOGOUT\r\n`);
  return { ms, bytes };
}

/** Each folder's UIDNEXT and HIGHESTMODSEQ: where a daily check starts from. */
async function checkpoints(port: number): Promise<Map<string, { uidNext: number; modseq: bigint }>> {
  const client = await connected(port);
  const marks = new Map<string, { uidNext: number; modseq: bigint }>();
  for (const folder of FOLDERS) {
    const status = await client.status(folder, { uidNext: true, highestModseq: true });
    const { uidNext, highestModseq } = status || {};
    if (!uidNext || !highestModseq) throw new Error(`no UIDNEXT or HIGHESTMODSEQ for ${folder}`);
    marks.set(folder, { uidNext, modseq: highestModseq });
  }
  await client.logout();
  return marks;
}

/**
 * The daily check's floor: ImapFlow alone sending what the product's check sends (log in, LIST with
 * STATUS, then per folder EXAMINE, the flags changed since the last check and the new mail's header
 * fields), from the connection to the last answer.
 */
async function checkFloor(
  port: number,
  marks: Map<string, { uidNext: number; modseq: bigint }>,
): Promise<{ ms: number; fetched: number }> {
  const started = performance.now();
  const client = await connected(port);
  await client.list({ statusQuery: { messages: true, uidNext: true, uidValidity: true } });
  let fetched = 0;
  for (const folder of FOLDERS) {
    const mark = marks.get(folder)!;
    const lock = await client.getMailboxLock(folder, { readOnly: true });
    try {
      const changed = { uid: true, changedSince: mark.modseq };
      for await (const _ of client.fetch(`1:${mark.uidNext - 1}`, { uid: true, flags: true }, changed)) {
      }
      const fields = { uid: true, flags: true, headers: [...SCAN_HEADER_FIELDS], internalDate: true };
      for await (const _ of client.fetch(`${mark.uidNext}:*`, fields, { uid: true })) fetched++;
    } finally {
      lock.release();
    }
  }
  const ms = performance.now() - started;
  await client.logout();
  return { ms, fetched };
}

/** CPU time (user + system) the process has used so far, in ms (Linux clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line; here they follow the 11 after the name.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

async function main(): Promise<void> {
  const dovecot = await startDovecot([{ user: USER, password: PASSWORD }]);
  try {
    console.log(`seeding ${TOTAL} messages from ${SENDERS} senders over ${FOLDERS.length} folders…`);
    for (let i = 0; i < TOTAL; i++) {
      await dovecot.deliver(
        USER,
        FOLDERS[i % FOLDERS.length]!,
        message(i, (i * 7919) % SENDERS, i % 700),
        'S',
      );
    }
    await imapFloor(dovecot.port); // warms Dovecot's indexes and the page cache
    const floor = Math.min(await imapFloor(dovecot.port), await imapFloor(dovecot.port));
    const sockets = [await socketFloor(dovecot.port), await socketFloor(dovecot.port)];
    const wire = Math.min(...sockets.map((r) => r.ms));

    let checkShare: { daily: number; full: number } | null = null;
    const product = await startProduct(
      {
        MAIL_PROVIDER_OVERRIDES: JSON.stringify({
          yahoo: { imap: { host: '127.0.0.1', port: dovecot.port, secure: false } },
        }),
        // Checks run every 3 s: long enough to deliver the new mail between two of them.
        SCAN_INTERVAL: '3s',
        LOG_LEVEL: 'error',
      },
      // BENCH_PROFILE=<dir> writes a CPU profile of the product process there.
      process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
    );
    try {
      const http = new HttpSession(product.url);
      await http.call('/auth/signup', 'POST', { email: 'bench@example.com', password: 'bench password' });
      const socket = connect(product.url, {
        transports: ['websocket'],
        extraHeaders: { cookie: http.cookieHeader() },
      });
      await new Promise((r) => socket.on('connect', () => r(null)));

      let firstItem = 0;
      let subscriptions = 0;
      const cycles: Array<{ start: number; end: number; found: number }> = [];
      let current: { start: number; end: number; found: number } | null = null;
      socket.on('loading-new-subscriptions', () => {
        current = { start: performance.now(), end: 0, found: 0 };
      });
      socket.on('new-subscription', () => {
        subscriptions++;
        if (current) current.found++;
        if (!firstItem) firstItem = performance.now();
      });
      socket.on('all-subscriptions-sent', () => {
        if (current) {
          current.end = performance.now();
          cycles.push(current);
          current = null;
        }
      });

      const rssBefore = await peakRss(product.pid);
      const cpuBefore = await cpuMs(product.pid);
      const started = performance.now();
      const res = await http.call('/auth/yahoo', 'POST', { email: USER, appPassword: PASSWORD });
      if (!res.ok) throw new Error(`connect failed: ${res.status} ${await res.text()}`);
      while (cycles.length === 0) await new Promise((r) => setTimeout(r, 20));
      const full = cycles[0]!.end - started;
      const cpu = (await cpuMs(product.pid)) - cpuBefore;
      const toFirst = firstItem - started;
      const rss = await peakRss(product.pid);

      // The daily check: 500 new messages, 20 of them from 10 senders never seen before, delivered
      // right after a check ended so that the next check sees all of them.
      const seen = cycles.length;
      while (cycles.length === seen) await new Promise((r) => setTimeout(r, 10));
      const delivered = performance.now();
      for (let i = 0; i < NEW_MAIL; i++) {
        const sender = i < 20 ? SENDERS + (i % 10) + 1 : (i * 13) % SENDERS;
        await dovecot.deliver(USER, FOLDERS[i % FOLDERS.length]!, message(TOTAL + i, sender, 0), '');
      }
      const ready = performance.now();
      let check: { start: number; end: number; found: number } | undefined;
      while (!check) {
        check = cycles.find((c) => c.start > ready);
        await new Promise((r) => setTimeout(r, 20));
      }
      if (check.found !== 9) throw new Error(`the check found ${check.found} new senders, expected 9`);
      const daily = check.end - check.start;
      socket.close();

      const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
      console.log('');
      console.log(`messages                      ${TOTAL} in ${FOLDERS.length} folders, ${SENDERS} senders`);
      console.log(
        `bare socket (the floor)       ${sec(wire)}   (${mib(sockets[0]!.bytes)} read; runs ${sockets.map((r) => sec(r.ms)).join(', ')})`,
      );
      console.log(`bare ImapFlow, same fields    ${sec(floor)}   ${(floor / wire).toFixed(2)}x the socket`);
      console.log(`product: connect -> all sent  ${sec(full)}`);
      console.log(`  / bare ImapFlow             ${(full / floor).toFixed(2)}x   (aim <= 1.15)`);
      console.log(`  / bare socket               ${(full / wire).toFixed(2)}x   (aim <= 3, moonshot 2)`);
      console.log(`first new-subscription after  ${sec(toFirst)}   (aim <= 0.5 s)`);
      console.log(
        `subscriptions pushed          ${subscriptions} (new senders in the check: ${check.found})`,
      );
      console.log(
        `peak RSS of the product       ${mib(rss)}   (aim <= 250 MiB; ${mib(rssBefore)} before the scan)`,
      );
      console.log(
        `product CPU for the scan      ${sec(cpu)}, ${(cpu / (TOTAL / 1000)).toFixed(1)} ms per 1,000 messages`,
      );
      console.log(
        `daily check, ${NEW_MAIL} new messages  ${sec(daily)}   ${((daily / full) * 100).toFixed(1)}% of the full scan (aim <= 5%)`,
      );
      console.log(`(delivering the new mail took ${sec(ready - delivered)}, not counted)`);
      checkShare = { daily, full };
    } finally {
      await product.stop();
    }
    // The same check on a bare socket and by ImapFlow alone, each on as many new messages delivered the
    // same way once the product has stopped (it would fetch them too): what the mail server takes, and the
    // client library with it.
    let delivery = 1;
    const deliverNew = async () => {
      const marks = await checkpoints(dovecot.port);
      for (let i = 0; i < NEW_MAIL; i++) {
        const n = TOTAL + delivery * NEW_MAIL + i;
        await dovecot.deliver(USER, FOLDERS[i % FOLDERS.length]!, message(n, (i * 13) % SENDERS, 0), '');
      }
      delivery++;
      return marks;
    };
    const wireCheck = await socketCheckFloor(dovecot.port, await deliverNew());
    const bare = await checkFloor(dovecot.port, await deliverNew());
    if (bare.fetched !== NEW_MAIL) throw new Error(`the bare check fetched ${bare.fetched} of ${NEW_MAIL}`);
    if (checkShare) {
      const { daily, full } = checkShare;
      const share = (ms: number) => `${((ms / full) * 100).toFixed(1)}% of the full scan`;
      console.log(`  same check, bare socket     ${sec(wireCheck.ms)}   ${share(wireCheck.ms)}`);
      console.log(
        `  same check, bare ImapFlow   ${sec(bare.ms)}   ${share(bare.ms)}; the product ${(daily / bare.ms).toFixed(2)}x it`,
      );
    }
  } finally {
    await dovecot.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
