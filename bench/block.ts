// npm run bench:block — blocking a sender with 5,000 messages (plus 1,000 from others) on a real Dovecot and
// on the Gmail emulator: createBlockRule + moveToTrash timed, the provider calls counted, and the mailbox
// checked afterwards. Gmail's bound: at most ⌈n/1000⌉ batchModify calls plus a constant.
import { ImapFlow } from 'imapflow';
import { createGmailProvider } from '#server/mail/gmail/adapter.js';
import { GmailClient } from '#server/mail/gmail/client.js';
import { createImapProvider } from '#server/mail/imap/adapter.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { type MessageSpec, startGoogleEmulator } from '#test/helpers/google-emulator.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';

const BLOCKED = Number(process.env.BENCH_BLOCKED ?? 5_000);
const OTHERS = 1_000;
const ADDRESS = 'news@blocked-sender.example';
const FROM = `Blocked News <${ADDRESS}>`;
const IMAP_USER = 'block-bench@example.com';
const IMAP_PASSWORD = 'bench app password';
const IMAP_FOLDERS = ['INBOX', 'Newsletters'];
const GMAIL_USER = 'block-bench@gmail.example';
const BOUND = Math.ceil(BLOCKED / 1000);

const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const other = (k: number) => `Friend ${k % 50} <friend${k % 50}@elsewhere${k % 50}.example>`;
let failed = false;

function check(ok: boolean, what: string): void {
  console.log(`check: ${what}  ${ok ? 'OK' : 'FAILED'}`);
  if (!ok) failed = true;
}

async function imapBench(): Promise<void> {
  const dovecot = await startDovecot([{ user: IMAP_USER, password: IMAP_PASSWORD }]);
  try {
    console.log(`IMAP (Dovecot): seeding ${BLOCKED} messages from ${ADDRESS} and ${OTHERS} from others…`);
    const expectedOthers = new Map<string, number>(IMAP_FOLDERS.map((f) => [f, 0]));
    for (let i = 0; i < BLOCKED + OTHERS; i++) {
      const folder = IMAP_FOLDERS[i % IMAP_FOLDERS.length]!;
      const blocked = i < BLOCKED;
      if (!blocked) expectedOthers.set(folder, (expectedOthers.get(folder) ?? 0) + 1);
      const raw = rawMessage({
        from: blocked ? FROM : other(i),
        subject: `Message ${i}`,
        date: daysAgo(i % 400),
      });
      await dovecot.deliver(IMAP_USER, folder, raw, 'S');
    }
    const provider = createImapProvider({
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      user: IMAP_USER,
      password: IMAP_PASSWORD,
      allowedHosts: new Set([dovecot.host]),
    });
    let rule: { ref: string } | null;
    let result: { moved: number; calls: number };
    let elapsed: number;
    try {
      await provider.verify();
      const started = performance.now();
      rule = await provider.createBlockRule(ADDRESS);
      result = await provider.moveToTrash({ from: ADDRESS });
      elapsed = performance.now() - started;
    } finally {
      await provider.close();
    }

    const client = new ImapFlow({
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      auth: { user: IMAP_USER, pass: IMAP_PASSWORD },
      logger: false,
    });
    await client.connect();
    const counts: Record<string, { total: number; blocked: number }> = {};
    try {
      for (const folder of [...IMAP_FOLDERS, 'Trash']) {
        const lock = await client.getMailboxLock(folder);
        try {
          const total = (await client.search({ all: true }, { uid: true })) || [];
          const blocked = (await client.search({ from: ADDRESS }, { uid: true })) || [];
          counts[folder] = { total: total.length, blocked: blocked.length };
        } finally {
          lock.release();
        }
      }
    } finally {
      await client.logout();
    }

    console.log('');
    console.log(`IMAP messages moved            ${result.moved}`);
    console.log(`IMAP time (rule + trash)       ${sec(elapsed)}`);
    console.log(
      `IMAP provider calls            ${result.calls} UID MOVE (one per folder holding the sender) + 0 for the rule (${rule === null ? 'null: app-side rule' : `provider rule ${rule.ref}`})`,
    );
    for (const [folder, c] of Object.entries(counts)) {
      console.log(`IMAP ${folder.padEnd(26)}${c.total} messages, ${c.blocked} from the blocked sender`);
    }
    check(result.moved === BLOCKED, `IMAP moved ${BLOCKED}`);
    check(rule === null, 'IMAP block rule is app-side (null)');
    check(
      counts.Trash?.total === BLOCKED && counts.Trash.blocked === BLOCKED,
      `IMAP Trash holds the ${BLOCKED} messages`,
    );
    for (const folder of IMAP_FOLDERS) {
      const c = counts[folder];
      check(
        c?.blocked === 0 && c.total === expectedOthers.get(folder),
        `IMAP ${folder} holds only the ${expectedOthers.get(folder)} others`,
      );
    }
    console.log('');
  } finally {
    await dovecot.stop();
  }
}

type Kind = 'batchModify' | 'messages.list' | 'filters' | 'token' | 'other';

function classify(input: string | URL | Request, init?: RequestInit): Kind {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  if (url.pathname.endsWith('/messages/batchModify')) return 'batchModify';
  if (url.pathname.endsWith('/messages') && method === 'GET') return 'messages.list';
  if (url.pathname.includes('/settings/filters')) return 'filters';
  if (url.pathname.includes('token')) return 'token';
  return 'other';
}

async function gmailBench(): Promise<void> {
  const emulator = await startGoogleEmulator();
  try {
    const { refreshToken } = await emulator.addUser(GMAIL_USER);
    console.log(`Gmail (emulator): seeding ${BLOCKED} messages from ${ADDRESS} and ${OTHERS} from others…`);
    const specs: MessageSpec[] = [];
    for (let i = 0; i < BLOCKED + OTHERS; i++) {
      specs.push({
        from: i < BLOCKED ? FROM : other(i),
        subject: `Message ${i}`,
        date: daysAgo(i % 400),
        body: 'Hello.',
      });
    }
    for (let i = 0; i < specs.length; i += 1000) emulator.insert(GMAIL_USER, specs.slice(i, i + 1000));

    const requests: Record<Kind, number> = {
      batchModify: 0,
      'messages.list': 0,
      filters: 0,
      token: 0,
      other: 0,
    };
    const counting: typeof fetch = (input, init) => {
      requests[classify(input, init)] += 1;
      return fetch(input, init);
    };
    const provider = createGmailProvider({
      email: GMAIL_USER,
      refreshToken,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      baseUrl: emulator.baseUrl,
      fetchImpl: counting,
    });
    const started = performance.now();
    const rule = await provider.createBlockRule(ADDRESS);
    const result = await provider.moveToTrash({ from: ADDRESS });
    const elapsed = performance.now() - started;
    const units = provider.quotaUnitsSpent();

    // Verification with a client of its own, so it does not add to the counts above.
    const verifier = new GmailClient({
      refreshToken,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      baseUrl: emulator.baseUrl,
      pace: false,
    });
    const countOf = async (q: string, includeSpamTrash: boolean): Promise<number> => {
      let n = 0;
      let pageToken: string | null = null;
      do {
        const page = await verifier.listMessages({ q, pageToken, includeSpamTrash });
        n += page.ids.length;
        pageToken = page.nextPageToken;
      } while (pageToken);
      return n;
    };
    const trashed = await countOf(`in:trash from:${ADDRESS}`, true);
    const inboxBlocked = await countOf(`in:inbox from:${ADDRESS}`, false);
    const inboxTotal = await countOf('in:inbox', false);
    const filters = await verifier.listFilters();

    const providerCalls =
      requests.batchModify + requests['messages.list'] + requests.filters + requests.other;
    console.log('');
    console.log(`Gmail messages moved           ${result.moved}`);
    console.log(`Gmail time (rule + trash)      ${sec(elapsed)}`);
    console.log(
      `Gmail provider calls           ${providerCalls}: ${requests.batchModify} batchModify, ${requests['messages.list']} messages.list, ${requests.filters} filters, ${requests.other} other (+ ${requests.token} token refresh)`,
    );
    console.log(`Gmail quota units              ${units}`);
    console.log(
      `Gmail bound                    ⌈${BLOCKED}/1000⌉ = ${BOUND} batchModify; used ${requests.batchModify} (TrashResult.calls ${result.calls}): ${requests.batchModify <= BOUND ? 'met' : 'NOT met'}`,
    );
    console.log(`Gmail in:trash from:${ADDRESS}  ${trashed}`);
    console.log(
      `Gmail INBOX afterwards         ${inboxTotal} messages, ${inboxBlocked} from the blocked sender`,
    );
    check(result.moved === BLOCKED, `Gmail moved ${BLOCKED}`);
    check(trashed === BLOCKED, `Gmail in:trash from:${ADDRESS} counts ${BLOCKED}`);
    check(inboxBlocked === 0 && inboxTotal === OTHERS, `Gmail INBOX holds only the ${OTHERS} others`);
    check(requests.batchModify <= BOUND && result.calls <= BOUND, `Gmail batchModify <= ${BOUND}`);
    check(
      rule !== null && filters.some((f) => f.id === rule.ref && f.criteria.from?.toLowerCase() === ADDRESS),
      'Gmail filter created',
    );
  } finally {
    await emulator.stop();
  }
}

async function main(): Promise<void> {
  await imapBench();
  await gmailBench();
  if (failed) {
    console.error('\nbench:block: a check failed');
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
