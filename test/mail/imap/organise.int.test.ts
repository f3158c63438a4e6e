import { describe, expect, it } from 'vitest';
import { uidSets } from '#server/mail/imap/move.js';
import type { FoundMessage, MovedMessage } from '#server/mail/provider.js';
import { type ImapProfile, imapProfileRun, imapServersForThisFile } from '#test/fixtures/imap-profiles.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { mailClient } from './mail-client.js';

// The sender rules' and the Screener's mail-port calls on IMAP (organise.ts): find a sender's mail by exact
// address, scope and date; move it to a folder made by createFolder, the archive or the trash with the new
// ids reported (COPYUID, else the Message-ID lookup); put it back. Against Dovecot as it is and without
// MOVE and/or UIDPLUS (the capability-stripping proxy), Courier IMAP 5 and Cyrus IMAP 3.6 (INBOX. prefix).
// One server of each for the file, one user per test.

const { dovecot, courier, cyrus } = imapServersForThisFile();

const PROFILES: ImapProfile[] = [
  { name: 'Dovecot', server: () => dovecot, proxy: null },
  { name: 'Dovecot without MOVE', server: () => dovecot, proxy: { hide: ['MOVE'] } },
  { name: 'Dovecot without UIDPLUS', server: () => dovecot, proxy: { hide: ['UIDPLUS'] } },
  { name: 'Dovecot without MOVE and UIDPLUS', server: () => dovecot, proxy: { hide: ['MOVE', 'UIDPLUS'] } },
  { name: 'Courier IMAP 5', server: () => courier, proxy: null },
  { name: 'Cyrus IMAP 3.6', server: () => cyrus, proxy: null, createSpecialUse: true },
];

const NEWS = 'news@x.com';
const DEALS = 'deals@shop.example';
const FRIEND = 'Friend <friend@example.org>';

const message = (from: string, subject: string, days: number) =>
  rawMessage({ from, subject, date: daysAgo(days), listUnsubscribe: '<https://list.example/u>' });

describe.each(PROFILES)('$name', (profile) => {
  const on = imapProfileRun(profile);
  const hides = (cap: 'MOVE' | 'UIDPLUS') => profile.proxy?.hide?.includes(cap) ?? false;

  async function newUser(label: string) {
    const { account, server, seed, provider } = await on.newAccount(label);
    const imap = provider();
    const user = await mailClient(server, account);
    return { seed, imap, user, inbox: seed.path(), close: () => Promise.all([seed.close(), user.close()]) };
  }

  /** Commands the proxy saw while `run` ran (none without a proxy). */
  async function commandsOf<T>(run: () => Promise<T>): Promise<{ value: T; commands: string[] }> {
    const start = on.proxy?.commands.length ?? 0;
    const value = await run();
    return { value, commands: on.proxy?.commands.slice(start) ?? [] };
  }

  const collector = () => {
    const moved: MovedMessage[] = [];
    return { moved, onMoved: async (m: MovedMessage[]) => void moved.push(...m) };
  };

  /** Every reported move: new id in `path`, origin the folder of the previous id, the previous ids those found. */
  function expectMoves(moved: MovedMessage[], found: FoundMessage[], path: string) {
    expect(moved.map((m) => m.previous).sort()).toEqual(found.map((f) => f.id).sort());
    for (const m of moved) {
      expect(m.id.startsWith(`${path}/`)).toBe(true);
      expect(m.previous.startsWith(`${m.origin}/`)).toBe(true);
      expect(found.find((f) => f.id === m.previous)?.folder).toBe(m.origin);
    }
    expect(new Set(moved.map((m) => m.id)).size).toBe(moved.length);
  }

  it('finds a sender’s mail by exact address, in the inbox or all scanned mail, before a date, newest first', async () => {
    const { seed, imap, user, close, inbox } = await newUser('find');
    const weekly = seed.path('Newsletters', 'Weekly');
    const trash = seed.path('Trash');
    try {
      await seed.append(inbox, message(`News <${NEWS}>`, 'A', 5));
      await seed.append(inbox, message(NEWS.toUpperCase(), 'Upper', 4));
      await seed.append(inbox, message(`News <${NEWS}>`, 'B', 2));
      await seed.append(inbox, message(`Evil <${NEWS}.evil>`, 'Look-alike', 1));
      await seed.append(inbox, message(`"${NEWS}" <other@y.example>`, 'Display name', 1));
      await seed.append(inbox, message(FRIEND, `About ${NEWS}`, 1));
      // No Date header: dated by INTERNALDATE.
      const undated = `From: ${NEWS}\r\nSubject: Undated\r\nMessage-ID: <undated@x.com>\r\n\r\nx\r\n`;
      await user.append(inbox, undated, daysAgo(0.5));
      await seed.append(weekly, message(`News <${NEWS}>`, 'C', 3));
      await seed.append(trash, message(`News <${NEWS}>`, 'Trashed', 1));
      const at = (days: number) => daysAgo(days).getTime();

      const inInbox = await imap.findSenderMessages({ from: ` ${NEWS.toUpperCase()} `, scope: 'inbox' });
      expect(inInbox.map((m) => m.folder)).toEqual([inbox, inbox, inbox, inbox]);
      expect(inInbox.map((m) => m.date)).toEqual([at(0.5), at(2), at(4), at(5)]);
      for (const m of inInbox) expect(m.id).toMatch(new RegExp(`^${inbox}/\\d+/\\d+$`));

      const { value: inMail, commands } = await commandsOf(() =>
        imap.findSenderMessages({ from: NEWS, scope: 'mail' }),
      );
      expect(inMail.map((m) => [m.folder, m.date])).toEqual([
        [inbox, at(0.5)],
        [inbox, at(2)],
        [weekly, at(3)],
        [inbox, at(4)],
        [inbox, at(5)],
      ]);
      expect(inMail.filter((m) => m.folder === inbox).map((m) => m.id)).toEqual(inInbox.map((m) => m.id));
      if (on.proxy) {
        // One SEARCH and one FETCH per folder holding mail (INBOX, Weekly); the empty ones are not searched.
        expect(commands.filter((c) => c === 'UID SEARCH')).toHaveLength(2);
        expect(commands.filter((c) => c === 'UID FETCH')).toHaveLength(2);
      }

      // `before` is exclusive, to the millisecond.
      const findBefore = (ms: number) => imap.findSenderMessages({ from: NEWS, scope: 'mail', before: ms });
      expect((await findBefore(at(3))).map((m) => m.date)).toEqual([at(4), at(5)]);
      expect((await findBefore(at(3) + 1)).map((m) => [m.folder, m.date])).toEqual([
        [weekly, at(3)],
        [inbox, at(4)],
        [inbox, at(5)],
      ]);
      const inboxBefore = await imap.findSenderMessages({ from: NEWS, scope: 'inbox', before: at(1) });
      expect(inboxBefore.map((m) => m.date)).toEqual([at(2), at(4), at(5)]);
      // The undated one by its INTERNALDATE (the Date header's SENTBEFORE does not match it).
      const justAfter = await imap.findSenderMessages({ from: NEWS, scope: 'inbox', before: at(0.5) + 1 });
      expect(justAfter.map((m) => m.date)).toEqual([at(0.5), at(2), at(4), at(5)]);
      expect(await imap.findSenderMessages({ from: 'nobody@x.com', scope: 'mail' })).toEqual([]);
      // A `before` past what a Date holds narrows nothing: everything is before it.
      expect(await findBefore(Number.MAX_SAFE_INTEGER)).toEqual(inMail);
    } finally {
      await close();
    }
    expect(on.proxy?.refused ?? []).toEqual([]);
  });

  // A folder gone, and INBOX_ORIGIN: the port contract (port-contract.ts, run by matrix.int.test.ts).
  it('finds a sender’s mail in one folder by its path, with one search', async () => {
    const { seed, imap, close, inbox } = await newUser('scope');
    const weekly = seed.path('Weekly');
    const other = seed.path('Other');
    try {
      await seed.append(weekly, message(`News <${NEWS}>`, 'W1', 4));
      await seed.append(weekly, message(NEWS, 'W2', 2));
      await seed.append(weekly, message(`Evil <${NEWS}.evil>`, 'Look-alike', 1));
      await seed.append(weekly, message(FRIEND, 'Hi', 1));
      await seed.append(inbox, message(NEWS, 'In inbox', 1));
      await seed.append(other, message(NEWS, 'Elsewhere', 3));
      const at = (days: number) => daysAgo(days).getTime();

      const { value: found, commands } = await commandsOf(() =>
        imap.findSenderMessages({ from: NEWS, scope: { folder: weekly } }),
      );
      expect(found.map((m) => [m.folder, m.date])).toEqual([
        [weekly, at(2)],
        [weekly, at(4)],
      ]);
      for (const m of found) expect(m.id.startsWith(`${weekly}/`)).toBe(true);
      if (on.proxy) expect(commands.filter((c) => c === 'UID SEARCH')).toHaveLength(1);
      const before = await imap.findSenderMessages({ from: NEWS, scope: { folder: weekly }, before: at(3) });
      expect(before.map((m) => m.date)).toEqual([at(4)]);
    } finally {
      await close();
    }
    expect(on.proxy?.refused ?? []).toEqual([]);
  });

  it('moves to a folder createFolder made, reports the new ids, and restoreMoved puts back what is still there', async () => {
    const { seed, imap, user, close, inbox } = await newUser('folder');
    const weekly = seed.path('Weekly');
    try {
      await seed.append(inbox, message(`Deals <${DEALS}>`, 'Deal 1', 3));
      await seed.append(inbox, message(DEALS, 'Deal 2', 2));
      await seed.append(inbox, message(FRIEND, 'Hi', 1));
      await seed.append(inbox, message(FRIEND, 'Pending delete', 1));
      await seed.append(weekly, message(DEALS, 'Deal 3', 4));
      // The user's client flagged a message for deletion without expunging it: a move must not expunge it.
      await user.flagDeleted(inbox, 'Pending delete');

      const folder = await imap.createFolder('Receipts');
      expect(folder).toEqual({
        path: seed.path('Receipts'),
        name: 'Receipts',
        specialUse: null,
        scanned: true,
      });
      expect(await imap.createFolder('Receipts')).toEqual(folder);
      expect((await imap.createFolder('inbox')).path).toBe('INBOX');
      expect((await imap.listFolders()).filter((f) => f.name === 'Receipts')).toHaveLength(1);
      await expect(imap.createFolder('Bad\r\nname')).rejects.toThrow(/control/);
      await expect(imap.createFolder('x'.repeat(201))).rejects.toThrow(/200/);
      await expect(imap.createFolder('All * mail')).rejects.toThrow(/\*/);
      await expect(imap.createFolder('  ')).rejects.toThrow(/name/);

      const found = await imap.findSenderMessages({ from: DEALS, scope: 'mail' });
      expect(found).toHaveLength(3);
      const destination = { kind: 'folder', path: folder.path } as const;
      const { moved, onMoved } = collector();
      const { value: result, commands } = await commandsOf(() =>
        imap.moveMessages(found, destination, onMoved),
      );
      expect(result).toEqual({ moved: 3, calls: 2 });
      expectMoves(moved, found, folder.path);
      const now = await imap.findSenderMessages({ from: DEALS, scope: 'mail' });
      expect(now.map((m) => m.id).sort()).toEqual(moved.map((m) => m.id).sort());
      expect(await user.subjects()).toMatchObject({
        [inbox]: ['Hi', 'Pending delete'],
        [folder.path]: ['Deal 1', 'Deal 2', 'Deal 3'],
      });
      expect(await user.deletedSubjects(inbox)).toEqual(['Pending delete']);
      if (hides('MOVE')) {
        expect(commands).not.toContain('UID MOVE');
        expect(commands).toContain('UID COPY');
      }

      // The old ids name nothing any more, and the new ones are already there: nothing moves. With MOVE
      // and UIDPLUS the old ids are not looked up first: one UID MOVE per folder finds nothing to move.
      const direct = (['MOVE', 'UIDPLUS'] as const).every((cap) => user.announces(cap) && !hides(cap));
      expect(await imap.moveMessages(found, destination)).toEqual({ moved: 0, calls: direct ? 2 : 0 });
      expect(await imap.moveMessages(now, destination)).toEqual({ moved: 0, calls: 0 });

      await user.remove(folder.path, 'Deal 1');
      expect(await imap.restoreMoved(moved, destination)).toEqual({ restored: 2, missing: 1 });
      const after = await user.subjects();
      expect(after[inbox]).toEqual(['Deal 2', 'Hi', 'Pending delete']);
      expect(after[weekly]).toEqual(['Deal 3']);
      expect(after[folder.path]).toBeUndefined();
      expect(await user.deletedSubjects(inbox)).toEqual(['Pending delete']);
      // Restored once: a second undo finds nothing where the ids point.
      expect(await imap.restoreMoved(moved, destination)).toEqual({ restored: 0, missing: 3 });
    } finally {
      await close();
    }
    expect(on.proxy?.refused ?? []).toEqual([]);
  });

  it('tracks each moved message to its new id (copies of one Message-ID in order), none without a Message-ID when no UIDPLUS', async () => {
    const { imap, user, close, inbox } = await newUser('track');
    const dated = (subject: string, days: number, id: string | null) =>
      [
        `From: ${DEALS}`,
        `Subject: ${subject}`,
        `Date: ${daysAgo(days).toUTCString()}`,
        ...(id ? [`Message-ID: ${id}`] : []),
        '',
        'x',
        '',
      ].join('\r\n');
    try {
      // The same Message-ID twice (a list's copy and a forward), and one message without any.
      await user.append(inbox, dated('Copy 1', 4, '<same@shop.example>'), daysAgo(4));
      await user.append(inbox, dated('Other', 3, '<other@shop.example>'), daysAgo(3));
      await user.append(inbox, dated('Copy 2', 2, '<same@shop.example>'), daysAgo(2));
      await user.append(inbox, dated('No id', 1, null), daysAgo(1));
      const folder = await imap.createFolder('Deals');
      const found = await imap.findSenderMessages({ from: DEALS, scope: 'inbox' });
      const subjectOf = async (id: string) =>
        /^Subject: (.*)$/m.exec((await imap.fetchMessage(id))?.toString('latin1') ?? '')?.[1];
      const before = new Map<string, string | undefined>();
      for (const f of found) before.set(f.id, await subjectOf(f.id));
      const { moved, onMoved } = collector();
      const uidplus = !hides('UIDPLUS');
      expect(await imap.moveMessages(found, { kind: 'folder', path: folder.path }, onMoved)).toEqual(
        uidplus ? { moved: 4, calls: 1 } : { moved: 4, calls: 1, untracked: 1 },
      );
      expect(moved).toHaveLength(uidplus ? 4 : 3);
      for (const m of moved) expect(await subjectOf(m.id)).toBe(before.get(m.previous));
      expect(await imap.restoreMoved(moved, { kind: 'folder', path: folder.path })).toEqual({
        restored: moved.length,
        missing: 0,
      });
      expect((await user.subjects())[folder.path]).toEqual(uidplus ? undefined : ['No id']);
    } finally {
      await close();
    }
    expect(on.proxy?.refused ?? []).toEqual([]);
  });

  it('archives to a folder named Archive, created when missing and found again after', async () => {
    const { seed, imap, user, close, inbox } = await newUser('archive');
    const archive = seed.path('Archive');
    try {
      await seed.append(inbox, message(`News <${NEWS}>`, 'Old 1', 9));
      await seed.append(inbox, message(`News <${NEWS}>`, 'Old 2', 8));
      await seed.append(inbox, message(`News <${NEWS}>`, 'Recent', 1));
      // Nothing to put back from an archive that does not exist yet (and asking does not create one).
      expect(await imap.restoreMoved([{ id: `${archive}/1/1`, origin: inbox }], { kind: 'archive' })).toEqual(
        {
          restored: 0,
          missing: 1,
        },
      );

      const old = await imap.findSenderMessages({ from: NEWS, scope: 'inbox', before: daysAgo(7).getTime() });
      expect(old).toHaveLength(2);
      const first = collector();
      expect(await imap.moveMessages(old, { kind: 'archive' }, first.onMoved)).toEqual({
        moved: 2,
        calls: 1,
      });
      expectMoves(first.moved, old, archive);
      const rest = await imap.findSenderMessages({ from: NEWS, scope: 'inbox' });
      const second = collector();
      expect(await imap.moveMessages(rest, { kind: 'archive' }, second.onMoved)).toEqual({
        moved: 1,
        calls: 1,
      });
      expectMoves(second.moved, rest, archive);
      const folders = await imap.listFolders();
      expect(folders.filter((f) => f.name.toLowerCase() === 'archive').map((f) => f.path)).toEqual([archive]);
      expect((await user.subjects())[archive]).toEqual(['Old 1', 'Old 2', 'Recent']);

      // The archive is scanned mail: a `mail` find sees the messages there, by the ids reported.
      const inArchive = await imap.findSenderMessages({ from: NEWS, scope: 'mail' });
      expect(inArchive.map((m) => m.id).sort()).toEqual(
        [...first.moved, ...second.moved].map((m) => m.id).sort(),
      );
      // Ids outside the destination's folder are not the archive's to give back.
      expect(await imap.restoreMoved(first.moved, { kind: 'trash' })).toEqual({ restored: 0, missing: 2 });
      expect(await imap.restoreMoved(first.moved, { kind: 'archive' })).toEqual({ restored: 2, missing: 0 });
      expect((await user.subjects())[inbox]).toEqual(['Old 1', 'Old 2']);
    } finally {
      await close();
    }
    expect(on.proxy?.refused ?? []).toEqual([]);
  });

  it('archives to a top-level Archives (as Thunderbird names it), never to a nested Archive', async () => {
    const { seed, imap, user, close, inbox } = await newUser('archives');
    const archives = seed.path('Archives');
    const nested = seed.path('Projects', 'Archive');
    try {
      await seed.append(nested, message(FRIEND, 'Project notes', 6));
      await seed.append(archives, message(FRIEND, 'Archived before', 6));
      await seed.append(inbox, message(DEALS, 'Deal', 2));
      const found = await imap.findSenderMessages({ from: DEALS, scope: 'inbox' });
      const { moved, onMoved } = collector();
      expect(await imap.moveMessages(found, { kind: 'archive' }, onMoved)).toEqual({ moved: 1, calls: 1 });
      expectMoves(moved, found, archives);
      const subjects = await user.subjects();
      expect(subjects[archives]).toEqual(['Archived before', 'Deal']);
      expect(subjects[nested]).toEqual(['Project notes']);
      expect((await imap.listFolders()).some((f) => f.path === seed.path('Archive'))).toBe(false);
    } finally {
      await close();
    }
    expect(on.proxy?.refused ?? []).toEqual([]);
  });

  // Only Cyrus takes CREATE … (USE (\\Archive)) here; Dovecot's test config flags no archive (helpers/dovecot.ts).
  it.runIf(profile.createSpecialUse)(
    'archives to the folder the server flags \\Archive, over one named Archive',
    async () => {
      const { seed, imap, user, close, inbox } = await newUser('flagged');
      const saved = seed.path('Saved');
      try {
        await seed.append(seed.path('Archive'), message(FRIEND, 'Kept by name', 5));
        await user.createSpecial(saved, '\\Archive');
        await seed.append(inbox, message(DEALS, 'Deal', 2));
        expect((await imap.listFolders()).find((f) => f.path === saved)?.specialUse).toBe('\\Archive');
        const found = await imap.findSenderMessages({ from: DEALS, scope: 'inbox' });
        const { moved, onMoved } = collector();
        expect(await imap.moveMessages(found, { kind: 'archive' }, onMoved)).toEqual({ moved: 1, calls: 1 });
        expectMoves(moved, found, saved);
        const subjects = await user.subjects();
        expect(subjects[saved]).toEqual(['Deal']);
        expect(subjects[seed.path('Archive')]).toEqual(['Kept by name']);
        expect(await imap.restoreMoved(moved, { kind: 'archive' })).toEqual({ restored: 1, missing: 0 });
      } finally {
        await close();
      }
    },
  );

  // Trash and back, to INBOX when the folder of origin is gone, and the block's records: the port contract.
  it('moves to the server’s Trash with one command per folder of origin, and back', async () => {
    const { seed, imap, user, close, inbox } = await newUser('trash');
    const promos = seed.path('Promos');
    try {
      await seed.append(inbox, message(DEALS, 'Deal 1', 2));
      await seed.append(promos, message(DEALS, 'Deal 2', 3));
      await seed.append(inbox, message(FRIEND, 'Hi', 1));
      const found = await imap.findSenderMessages({ from: DEALS, scope: 'mail' });
      const { moved, onMoved } = collector();
      expect(await imap.moveMessages(found, { kind: 'trash' }, onMoved)).toEqual({ moved: 2, calls: 2 });
      const trash = (await imap.listFolders()).find((f) => f.specialUse === '\\Trash')!;
      expect(trash.path).toBe(seed.path('Trash'));
      expectMoves(moved, found, trash.path);
      expect((await user.subjects())[trash.path]).toEqual(['Deal 1', 'Deal 2']);
      expect(await imap.restoreMoved(moved, { kind: 'trash' })).toEqual({ restored: 2, missing: 0 });
      expect((await user.subjects())[promos]).toEqual(['Deal 2']);
    } finally {
      await close();
    }
    expect(on.proxy?.refused ?? []).toEqual([]);
  });
});

describe('UID sets per command', () => {
  it('cuts scattered UIDs into sets of at most 500 ranges, every UID once, ascending', () => {
    const scattered = Array.from({ length: 1203 }, (_, i) => 3 * i + 1).reverse();
    const sets = uidSets([...scattered, 2, 3]);
    expect(sets.map((s) => s.split(',').length)).toEqual([500, 500, 202]);
    expect(sets[0]!.startsWith('1:4,7,10,')).toBe(true);
    const back = sets
      .flatMap((s) => s.split(','))
      .flatMap((r) => {
        const [lo, hi = lo] = r.split(':').map(Number);
        return Array.from({ length: hi! - lo! + 1 }, (_, i) => lo! + i);
      });
    expect(back).toEqual([...new Set([...scattered, 2, 3])].sort((a, b) => a - b));
  });
});
