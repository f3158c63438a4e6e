// npm run bench:scan — the first scan of a 50,000-message mailbox on a real Dovecot, measured against
// ImapFlow alone fetching the same header fields (the floor on this machine), in one run.
import { readFile } from 'node:fs/promises';
import { ImapFlow } from 'imapflow';
import { io as connect } from 'socket.io-client';
import { startProduct } from '../e2e/harness.js';
import { SCAN_HEADER_FIELDS } from '../server/mail/provider.js';
import { startDovecot } from '../test/helpers/dovecot.js';
import { HttpSession } from '../test/helpers/http.js';
import { daysAgo, rawMessage } from '../test/helpers/mail.js';

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

async function imapFloor(port: number): Promise<number> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port,
    secure: false,
    auth: { user: USER, pass: PASSWORD },
    logger: false,
  });
  await client.connect();
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

      const started = performance.now();
      const res = await http.call('/auth/yahoo', 'POST', { email: USER, appPassword: PASSWORD });
      if (!res.ok) throw new Error(`connect failed: ${res.status} ${await res.text()}`);
      while (cycles.length === 0) await new Promise((r) => setTimeout(r, 20));
      const full = cycles[0]!.end - started;
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

      console.log('');
      console.log(`messages                      ${TOTAL} in ${FOLDERS.length} folders, ${SENDERS} senders`);
      console.log(`ImapFlow floor (same fields)  ${sec(floor)}`);
      console.log(
        `product: connect -> all sent  ${sec(full)}   ratio ${(full / floor).toFixed(2)} (aim <= 1.25)`,
      );
      console.log(`first new-subscription after  ${sec(toFirst)}   (aim <= 1 s)`);
      console.log(
        `subscriptions pushed          ${subscriptions} (new senders in the check: ${check.found})`,
      );
      console.log(`peak RSS of the product       ${(rss / 1024 / 1024).toFixed(0)} MiB`);
      console.log(
        `daily check, ${NEW_MAIL} new messages  ${sec(daily)}   ${((daily / full) * 100).toFixed(1)}% of the full scan (aim <= 5%)`,
      );
      console.log(`(delivering the new mail took ${sec(ready - delivered)}, not counted)`);
    } finally {
      await product.stop();
    }
  } finally {
    await dovecot.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
