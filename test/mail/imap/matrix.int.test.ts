import { describe, expect, it } from 'vitest';
import { createImapProvider } from '#server/mail/imap/adapter.js';
import type { HeaderBatch, MessageHeaders, TrashedMessage } from '#server/mail/provider.js';
import {
  type ImapProfile,
  imapProfileRun,
  imapServersForThisFile,
  testAccount,
} from '#test/fixtures/imap-profiles.js';
import { HIDEABLE, startImapProxy } from '#test/helpers/imap-proxy.js';
import { seedMailbox } from '#test/helpers/imap-seed.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { describePortContract } from '../port-contract.js';
import { imapContractHarness } from './contract-harness.js';

// IMAP compatibility as a tested property (docs/decisions/064-imap-compatibility-as-a-tested-property.md): the same adapter-level
// scenarios (folders, scan with exact counts and read states, daily check with new mail and flag changes,
// block = move to the trash, undo = move back) against Dovecot, Courier IMAP 5 and Cyrus IMAP 3.6 as they
// are, and behind a proxy that hides one extension at a time, all of them at once, or UIDNEXT in SELECT
// answers (as Courier IMAP does). Every feature
// must work at the RFC 3501 baseline, and no command may need an extension the server did not announce
// (the proxy refuses those). Mail is put in and read back over IMAP on the real server, so each folder
// path is the server's own (imap-seed.ts). One Dovecot for the file, one proxy per profile, one user per test.

// Dovecot (Debian's dovecot-imapd), Courier IMAP 5 and Cyrus IMAP 3.6 (Debian's courier-imap and
// cyrus-imapd, unpacked by scripts/system-deps.mjs: helpers/courier.ts, helpers/cyrus.ts).
const { dovecot, courier, cyrus } = imapServersForThisFile();

const PROFILES: ImapProfile[] = [
  { name: 'Dovecot', server: () => dovecot, proxy: null },
  { name: 'Dovecot, SELECT without UIDNEXT', server: () => dovecot, proxy: { stripUidNext: true } },
  ...HIDEABLE.map((cap) => ({
    name: `Dovecot without ${cap}`,
    server: () => dovecot,
    proxy: { hide: [cap] },
  })),
  {
    name: 'Dovecot at the RFC 3501 baseline (all hidden, no UIDNEXT)',
    server: () => dovecot,
    proxy: { hide: HIDEABLE, stripUidNext: true },
  },
  // INBOX. prefix with . separator, no UIDNEXT on SELECT, no MOVE, SPECIAL-USE, CONDSTORE or ESEARCH.
  { name: 'Courier IMAP 5', server: () => courier, proxy: null },
  { name: 'Courier IMAP 5 without UIDPLUS', server: () => courier, proxy: { hide: ['UIDPLUS'] } },
  // INBOX. prefix with . separator too, but every extension here (CONDSTORE, QRESYNC, MOVE, SPECIAL-USE…),
  // and no trash until one is made; then the same server at the baseline.
  { name: 'Cyrus IMAP 3.6', server: () => cyrus, proxy: null },
  {
    name: 'Cyrus IMAP 3.6 at the RFC 3501 baseline (all hidden, no UIDNEXT)',
    server: () => cyrus,
    proxy: { hide: HIDEABLE, stripUidNext: true },
  },
];

const NEWS = 'Daily News <news@daily.example>';
const WEEKLY = 'The Weekly <hello@weekly.example>';
// RFC 2047 words, not raw UTF-8: Cyrus turns 8-bit header bytes into X on APPEND (munge8bit, its default).
const CAFE = '=?UTF-8?Q?Caf=C3=A9_Cr=C3=A8me?= <bonjour@cafe.example>';
const CAFE_1 = '=?UTF-8?Q?Caf=C3=A9_1?=';
const FRIEND = 'Friend <friend@example.org>';
const DEALS = 'deals@shop.example';

const message = (from: string, subject: string, days: number) =>
  rawMessage({ from, subject, date: daysAgo(days), listUnsubscribe: '<https://list.example/u>' });

async function collect(batches: AsyncIterable<HeaderBatch>): Promise<HeaderBatch[]> {
  const out: HeaderBatch[] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}
const all = (batches: HeaderBatch[]): MessageHeaders[] => batches.flatMap((b) => b.messages);
const bySubject = (messages: MessageHeaders[]) =>
  Object.fromEntries(messages.map((m) => [m.fields.subject, [m.folder, m.seen]]));

describe.each(PROFILES)('$name', (profile) => {
  const on = imapProfileRun(profile);

  async function newUser(label: string) {
    const { seed, provider } = await on.newAccount(label);
    return { seed, provider, paths: paths(seed) };
  }

  const paths = (seed: { path(...names: string[]): string }) => ({
    inbox: seed.path(),
    weekly: seed.path('Newsletters', 'Weekly'),
    cafe: seed.path('Café'),
    trash: seed.path('Trash'),
  });

  it('lists the folders: the trash found and skipped, nested and non-ASCII folders scanned', async () => {
    const { seed, provider, paths: p } = await newUser('folders');
    try {
      await seed.append(p.weekly, message(WEEKLY, 'Weekly 1', 3));
      await seed.append(p.cafe, message(CAFE, CAFE_1, 2));
      await seed.append(p.trash, message(NEWS, 'Old', 9));
      const folders = Object.fromEntries((await provider().listFolders()).map((f) => [f.path, f]));
      expect(folders[p.inbox]).toMatchObject({ scanned: true });
      expect(folders[p.weekly]).toMatchObject({ name: 'Weekly', scanned: true });
      expect(folders[p.cafe]).toMatchObject({ name: 'Café', scanned: true });
      expect(folders[p.trash]).toMatchObject({ specialUse: '\\Trash', scanned: false });
    } finally {
      await seed.close();
    }
    expect(on.proxy?.refused ?? []).toEqual([]);
  });

  it('scans every message once with its read state, and checks bring exactly the new mail and read states', async () => {
    const { seed, provider, paths: p } = await newUser('scan');
    try {
      await seed.append(p.inbox, message(NEWS, 'News 1', 5), { seen: true });
      await seed.append(p.inbox, message(NEWS, 'News 2', 4));
      await seed.append(p.inbox, message(FRIEND, 'Lunch?', 3));
      await seed.append(p.weekly, message(WEEKLY, 'Weekly 1', 6));
      await seed.append(p.weekly, message(NEWS, 'News 0', 7), { seen: true });
      await seed.append(p.cafe, message(CAFE, CAFE_1, 2));
      await seed.append(p.trash, message(NEWS, 'Old', 1));
      const imap = provider({ batchSize: 2 });

      const scan = await collect(imap.scan(null));
      const scanned = all(scan);
      expect(bySubject(scanned)).toEqual({
        'News 1': [p.inbox, true],
        'News 2': [p.inbox, false],
        'Lunch?': [p.inbox, false],
        'Weekly 1': [p.weekly, false],
        'News 0': [p.weekly, true],
        'Café 1': [p.cafe, false],
      });
      expect(new Set(scanned.map((m) => m.id)).size).toBe(6);
      const perSender: Record<string, number> = {};
      for (const m of scanned) perSender[m.fields.from ?? ''] = (perSender[m.fields.from ?? ''] ?? 0) + 1;
      expect(perSender).toEqual({ [NEWS]: 3, [FRIEND]: 1, [WEEKLY]: 1, [CAFE]: 1 });
      expect(scan.at(-1)!.progress).toEqual({ scanned: 6, total: 6 });

      const known = async () => scanned.map((m) => m.id);
      const idle = await collect(imap.changesSince(scan.at(-1)!.state, { knownMessages: known }));
      expect(all(idle)).toEqual([]);
      // Without CONDSTORE the check may repeat read states it knows; it never reports a wrong one.
      const seenNow = new Map(scanned.map((m) => [m.id, m.seen]));
      for (const f of idle.flatMap((b) => b.flags ?? [])) expect(f.seen).toBe(seenNow.get(f.id));

      await seed.markSeen(p.inbox, 'News 2');
      await seed.append(p.inbox, message(NEWS, 'News 3', 0));
      await seed.append(p.weekly, message(WEEKLY, 'Weekly 2', 0), { seen: true });
      const check = await collect(imap.changesSince(scan.at(-1)!.state, { knownMessages: known }));
      expect(bySubject(all(check))).toEqual({ 'News 3': [p.inbox, false], 'Weekly 2': [p.weekly, true] });
      const news2 = scanned.find((m) => m.fields.subject === 'News 2')!.id;
      const flags = new Map(check.flatMap((b) => b.flags ?? []).map((f) => [f.id, f.seen]));
      expect(flags.get(news2)).toBe(true);
      seenNow.set(news2, true);
      for (const [id, seen] of flags) expect(seen).toBe(seenNow.get(id));

      const after = await collect(imap.changesSince(check.at(-1)!.state, { knownMessages: known }));
      expect(all(after)).toEqual([]);
    } finally {
      await seed.close();
    }
    expect(on.proxy?.refused ?? []).toEqual([]);
    if (on.proxy && profile.server() === dovecot) {
      // The proxy's hiding is what the client saw: the fallbacks ran (and with nothing hidden, the extensions).
      const hides = (cap: string) => profile.proxy?.hide?.includes(cap as never) ?? false;
      const enables = !hides('ENABLE') && !hides('CONDSTORE');
      expect(on.proxy.commands.includes('ENABLE')).toBe(enables);
      expect(on.proxy.commands.includes('STATUS')).toBe(hides('LIST-STATUS'));
    }
  });

  it('blocks: moves exactly the sender’s mail to the trash, and the undo moves it back', async () => {
    const { seed, provider, paths: p } = await newUser('block');
    try {
      await seed.append(p.inbox, message(`Deals <${DEALS}>`, 'Deal 1', 3));
      await seed.append(p.inbox, message(DEALS.toUpperCase(), 'Deal 2', 2));
      await seed.append(p.inbox, message(FRIEND, 'Hi', 1));
      await seed.append(p.weekly, message(`Deals <${DEALS}>`, 'Deal 3', 4));
      await seed.append(p.cafe, message('Hot Deals <hotdeals@shop.example>', 'Look-alike', 4));
      await seed.append(p.trash, message(FRIEND, 'Deleted long ago', 20));
      const imap = provider();

      const moved: TrashedMessage[] = [];
      const result = await imap.moveToTrash({ from: DEALS }, async (m) => {
        moved.push(...m);
      });
      expect(result).toEqual({ moved: 3, calls: 2 });
      expect(moved.map((m) => m.origin).sort()).toEqual([p.inbox, p.inbox, p.weekly].sort());
      let senders = await seed.senders();
      expect(senders[p.trash]).toEqual([DEALS, DEALS, DEALS.toUpperCase(), FRIEND.slice(8, -1)].sort());
      expect(senders[p.inbox]).toEqual(['friend@example.org']);
      expect(senders[p.weekly]).toEqual([]);
      expect(senders[p.cafe]).toEqual(['hotdeals@shop.example']);

      expect(await imap.restoreFromTrash({ from: DEALS, messages: moved })).toEqual({
        restored: 3,
        missing: 0,
      });
      senders = await seed.senders();
      expect(senders[p.inbox]).toEqual([DEALS, DEALS.toUpperCase(), 'friend@example.org'].sort());
      expect(senders[p.weekly]).toEqual([DEALS]);
      expect(senders[p.trash]).toEqual(['friend@example.org']);
    } finally {
      await seed.close();
    }
    expect(on.proxy?.refused ?? []).toEqual([]);
    if (profile.proxy?.hide?.includes('MOVE')) {
      expect(on.proxy!.commands).not.toContain('UID MOVE');
      expect(on.proxy!.commands).toContain('UID COPY');
    }
  });

  it('says which moved messages an undo cannot bring back (no Message-ID to find them by without UIDPLUS)', async () => {
    const { seed, provider, paths: p } = await newUser('untracked');
    const bare = `From: ${DEALS}\r\nSubject: No id\r\nDate: ${daysAgo(1).toUTCString()}\r\n\r\nx\r\n`;
    try {
      await seed.append(p.inbox, message(DEALS, 'With id', 2));
      await seed.append(p.inbox, bare);
      const moved: TrashedMessage[] = [];
      const result = await provider().moveToTrash({ from: DEALS }, async (m) => {
        moved.push(...m);
      });
      const uidplus = !profile.proxy?.hide?.includes('UIDPLUS');
      expect(result).toEqual(uidplus ? { moved: 2, calls: 1 } : { moved: 2, calls: 1, untracked: 1 });
      expect(moved).toHaveLength(uidplus ? 2 : 1);
      expect(await provider().restoreFromTrash({ from: DEALS, messages: moved })).toEqual({
        restored: moved.length,
        missing: 0,
      });
      expect((await seed.senders())[p.trash]).toEqual(uidplus ? [] : [DEALS]);
    } finally {
      await seed.close();
    }
    expect(on.proxy?.refused ?? []).toEqual([]);
  });

  // After the scenarios above: some of them read every command the profile's proxy has seen.
  describePortContract('IMAP', imapContractHarness(on));
});

describe('the proxy itself', () => {
  it('never rewrites message content: lines that look like the answers it edits pass through a literal untouched', async () => {
    const proxy = await startImapProxy({ upstream: dovecot, hide: HIDEABLE, stripUidNext: true });
    const account = testAccount('proxy');
    await dovecot.addUser(account);
    const seed = await seedMailbox(dovecot, account);
    const raw = [
      'From: tricky@example.org',
      'Subject: looks like IMAP',
      '',
      '* OK [UIDNEXT 7] Predicted next UID',
      '* CAPABILITY IMAP4rev1 MOVE UIDPLUS CONDSTORE',
      '* OK [COPYUID 1 1 1] Moved',
      '* LIST (\\Trash) "/" Trash',
      '',
    ].join('\r\n');
    try {
      await seed.append('INBOX', raw);
      const imap = createImapProvider({
        host: '127.0.0.1',
        port: proxy.port,
        secure: false,
        user: account.user,
        password: account.password,
        allowedHosts: new Set(['127.0.0.1']),
      });
      try {
        const [message] = all(await collect(imap.scan(null)));
        expect(message?.fields.subject).toBe('looks like IMAP');
        expect((await imap.fetchMessage(message!.id))?.toString('latin1')).toBe(raw);
      } finally {
        await imap.close();
      }
    } finally {
      await seed.close();
      await proxy.close();
    }
  });
});
