import { describe, expect, it } from 'vitest';
import type { GmailProvider } from '#server/mail/gmail/adapter.js';
import { QUOTA_UNITS } from '#server/mail/gmail/api.js';
import type { GmailClient } from '#server/mail/gmail/client.js';
import { googleEndpoints, refreshAccessToken } from '#server/mail/gmail/google-oauth.js';
import type { FoundMessage, MovedMessage, TrashedMessage } from '#server/mail/provider.js';
import { newGmailMailbox } from '#test/fixtures/gmail.js';
import { withGoogleEmulator } from '#test/fixtures/peers.js';
import type { MessageSpec, SeededMessage } from '#test/helpers/google-emulator.js';
import { describePortContract } from '../port-contract.js';
import { gmailContractHarness } from './contract-harness.js';

// Sender rules and the Screener on Gmail against @emulators/google: finding a sender's mail, moving it under
// a label, to the archive or the trash and back, labels made on demand, and filters filing future mail.

const emu = withGoogleEmulator();
describePortContract('Gmail', gmailContractHarness(emu));
const U = QUOTA_UNITS;

interface Mailbox {
  email: string;
  refreshToken: string;
  provider: GmailProvider;
  observer: GmailClient;
  calls: string[];
  insert(from: string, count: number, labels?: string[]): SeededMessage[];
  labels(ids: readonly string[]): Promise<string[][]>;
  /** Quota units the provider spends on `run`. */
  units(run: () => Promise<unknown>): Promise<number>;
}

let clock = Date.UTC(2025, 2, 1);

async function newMailbox(
  label: string,
  beforeCall?: (url: URL, init: RequestInit | undefined) => Promise<void>,
): Promise<Mailbox> {
  const calls: string[] = [];
  const counting: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    await beforeCall?.(url, init);
    return fetch(input, init);
  };
  const box = await newGmailMailbox(emu, label, counting);
  return {
    ...box,
    calls,
    insert(from, count, labels = ['INBOX', 'UNREAD']) {
      const specs: MessageSpec[] = Array.from({ length: count }, (_, n) => {
        clock += 3_600_000;
        return { from, subject: `Issue ${n + 1}`, date: new Date(clock), body: 'This week.', labels };
      });
      return emu.insert(box.email, specs);
    },
    async labels(ids) {
      const got = await box.observer.getMetadata(ids, ['From']);
      return ids.map((id) => [...(got.get(id)?.labelIds ?? [])].sort());
    },
    async units(run) {
      const before = box.provider.quotaUnitsSpent();
      await run();
      return box.provider.quotaUnitsSpent() - before;
    },
  };
}

const ids = (messages: readonly { id: string }[]) => messages.map((m) => m.id);
const found = (m: SeededMessage, folder = 'INBOX'): FoundMessage => ({
  id: m.id,
  folder,
  date: m.date.getTime(),
});

async function accessToken(box: Mailbox): Promise<string> {
  const access = await refreshAccessToken({
    endpoints: googleEndpoints(emu.baseUrl),
    clientId: emu.clientId,
    clientSecret: emu.clientSecret,
    refreshToken: box.refreshToken,
  });
  return access.token;
}

describe('findSenderMessages', () => {
  it('finds the sender’s exact address in the inbox or all mail, newest first, with where and when', async () => {
    const box = await newMailbox('find');
    const inbox = box.insert('News <news@x.com>', 3);
    const archived = box.insert('news@x.com', 2, []);
    box.insert('News <news@x.com>', 1, ['TRASH']);
    box.insert('News <news@x.com>', 1, ['SPAM']);
    const shouting = box.insert('NEWS <NEWS@X.COM>', 1);
    // Gmail's from: finds these too (the emulator: a substring of the From header); they are other senders.
    box.insert('Evil <news@x.com.evil>', 2);
    box.insert('"news@x.com" <phish@evil.example>', 2);
    box.insert('Friend <friend@example.org>', 1);

    let inInbox: FoundMessage[] = [];
    const spent = await box.units(async () => {
      inInbox = await box.provider.findSenderMessages({ from: ' News@X.com ', scope: 'inbox' });
    });
    expect(inInbox).toEqual([...inbox, ...shouting].reverse().map((m) => found(m)));
    // One listing page, then the From of the 8 it found (4 of them look-alikes), nothing else.
    expect(spent).toBe(U['messages.list'] + 8 * U['messages.get']);
    expect(box.calls.filter((c) => c === 'GET /gmail/v1/users/me/messages')).toHaveLength(1);

    const all = await box.provider.findSenderMessages({ from: 'news@x.com', scope: 'mail' });
    // Seeded oldest first: the inbox's, the archived (no INBOX label: folder ''), then the uppercase one.
    expect(all).toEqual([
      found(shouting[0]!),
      found(archived[1]!, ''),
      found(archived[0]!, ''),
      found(inbox[2]!),
      found(inbox[1]!),
      found(inbox[0]!),
    ]);
  });

  // A label gone, and `before` across all mail: the port contract.
  it('finds the sender’s mail under one label by its id, with one listing, and none under an unknown label', async () => {
    const box = await newMailbox('scope');
    const { path } = await box.provider.createFolder('Weekly');
    const { path: other } = await box.provider.createFolder('Other');
    const filed = box.insert('News <news@x.com>', 3, [path, 'UNREAD']);
    const [both] = box.insert('news@x.com', 1, ['INBOX', path]);
    box.insert('News <news@x.com>', 1, ['INBOX']);
    box.insert('News <news@x.com>', 1, [other]);
    box.insert('News <news@x.com>', 1, [path, 'TRASH']);
    box.insert('Evil <news@x.com.evil>', 1, [path]);
    box.insert('Friend <friend@example.org>', 1, [path]);

    box.calls.length = 0;
    const inLabel = await box.provider.findSenderMessages({ from: 'news@x.com', scope: { folder: path } });
    expect(inLabel).toEqual([found(both!), ...[...filed].reverse().map((m) => found(m, ''))]);
    expect(box.calls.filter((c) => c === 'GET /gmail/v1/users/me/messages')).toHaveLength(1);

    const cut = filed[1]!.date.getTime();
    const before = await box.provider.findSenderMessages({
      from: 'news@x.com',
      scope: { folder: path },
      before: cut,
    });
    expect(before).toEqual([found(filed[0]!, '')]);
    expect(
      await box.provider.findSenderMessages({ from: 'news@x.com', scope: { folder: 'Label_gone' } }),
    ).toEqual([]);
  });

  it('keeps only messages dated before `before`, to the millisecond', async () => {
    const box = await newMailbox('before');
    const mail = box.insert('Shop <deals@shop.example>', 4);
    const cut = mail[2]!.date.getTime();

    const older = await box.provider.findSenderMessages({
      from: 'deals@shop.example',
      scope: 'mail',
      before: cut,
    });
    expect(older).toEqual([mail[1]!, mail[0]!].map((m) => found(m)));
    const including = await box.provider.findSenderMessages({
      from: 'deals@shop.example',
      scope: 'inbox',
      before: cut + 1,
    });
    expect(ids(including)).toEqual(ids([mail[2]!, mail[1]!, mail[0]!]));
    // The listing is narrowed by Gmail's before: (epoch seconds) too, so the newest is not even fetched.
    expect(box.calls.filter((c) => c.startsWith('POST /batch/'))).toHaveLength(2);
    expect(
      await box.provider.findSenderMessages({ from: 'deals@shop.example', scope: 'mail', before: 0 }),
    ).toEqual([]);
  });

  it('finds nothing for a sender without mail, with a single listing', async () => {
    const box = await newMailbox('none');
    box.insert('Friend <friend@example.org>', 2);
    const spent = await box.units(async () => {
      expect(await box.provider.findSenderMessages({ from: 'nobody@x.example', scope: 'mail' })).toEqual([]);
    });
    expect(spent).toBe(U['messages.list']);
    await expect(box.provider.findSenderMessages({ from: '  ', scope: 'mail' })).rejects.toThrow();
  });
});

describe('createFolder', () => {
  it('creates a label shown in Gmail, or answers the existing one whatever its case', async () => {
    const box = await newMailbox('folder');

    let folder = await box.provider.createFolder('Newsletters');
    expect(folder).toEqual({
      path: expect.stringMatching(/^Label_/),
      name: 'Newsletters',
      specialUse: null,
      scanned: true,
    });
    expect(await box.provider.listFolders()).toContainEqual(folder);
    const labels = await box.observer.listLabels();
    expect(labels.filter((l) => l.name === 'Newsletters')).toEqual([
      expect.objectContaining({
        id: folder.path,
        type: 'user',
        labelListVisibility: 'labelShow',
        messageListVisibility: 'show',
      }),
    ]);

    const spent = await box.units(async () => {
      folder = await box.provider.createFolder(' newsLETTERS ');
    });
    expect(folder.path).toBe(labels.find((l) => l.name === 'Newsletters')!.id);
    expect(folder.name).toBe('Newsletters');
    expect(spent).toBe(U['labels.list']);
    expect(box.calls.filter((c) => c === 'POST /gmail/v1/users/me/labels')).toHaveLength(1);
  });

  it('answers the label made meanwhile when the create meets a conflict', async () => {
    let made = false;
    const box: Mailbox = await newMailbox('race', async (url, init) => {
      // Another client makes the label between the adapter's look-up and its create.
      if (made || init?.method !== 'POST' || url.pathname !== '/gmail/v1/users/me/labels') return;
      made = true;
      await fetch(url, { ...init, body: JSON.stringify({ name: 'SCREENED' }) });
    });

    const folder = await box.provider.createFolder('Screened');

    expect(folder.name).toBe('SCREENED');
    expect((await box.observer.listLabels()).filter((l) => l.name.toLowerCase() === 'screened')).toEqual([
      expect.objectContaining({ id: folder.path }),
    ]);
  });

  it('refuses names Gmail would not take as a new label of the user’s', async () => {
    const box = await newMailbox('badname');
    for (const name of ['', '   ', 'a\nb', 'tab\there', `x${'\u0085'}`, 'y'.repeat(201), 'Inbox', 'trash']) {
      await expect(box.provider.createFolder(name), JSON.stringify(name)).rejects.toThrow();
    }
    expect(box.calls.filter((c) => c === 'POST /gmail/v1/users/me/labels')).toEqual([]);
    expect((await box.provider.createFolder('z'.repeat(200))).name).toHaveLength(200);
  });
});

describe('moveMessages and restoreMoved', () => {
  it('files the sender’s mail under a label and out of the inbox, and puts back only what is still there', async () => {
    const box = await newMailbox('label');
    const inbox = box.insert('Deals <deals@shop.example>', 3);
    const [archived] = box.insert('Deals <deals@shop.example>', 1, ['CATEGORY_PROMOTIONS']);
    const [other] = box.insert('Friend <friend@example.org>', 1);
    const { path } = await box.provider.createFolder('Deals');
    const mail = await box.provider.findSenderMessages({ from: 'deals@shop.example', scope: 'mail' });
    expect(mail).toHaveLength(4);

    const moved: MovedMessage[] = [];
    let result: Awaited<ReturnType<GmailProvider['moveMessages']>> | undefined;
    const spent = await box.units(async () => {
      result = await box.provider.moveMessages(mail, { kind: 'folder', path }, async (m) => {
        moved.push(...m);
      });
    });

    expect(result).toEqual({ moved: 4, calls: 1 });
    expect(spent).toBe(U['messages.batchModify']);
    expect(moved.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        ...inbox.map((m) => ({ id: m.id, origin: 'INBOX', previous: m.id })),
        { id: archived!.id, origin: '', previous: archived!.id },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(await box.labels(ids(inbox))).toEqual(inbox.map(() => [path, 'UNREAD'].sort()));
    expect(await box.labels([archived!.id])).toEqual([['CATEGORY_PROMOTIONS', path].sort()]);
    expect(await box.labels([other!.id])).toEqual([['INBOX', 'UNREAD']]);
    // As Gmail shows them: under the label, not in the inbox.
    expect((await box.observer.listAllIds(`label:${path}`)).sort()).toEqual(
      ids([...inbox, archived!]).sort(),
    );
    expect(await box.provider.findSenderMessages({ from: 'deals@shop.example', scope: 'inbox' })).toEqual([]);

    // Moving again what is already under the label costs nothing.
    const again = await box.provider.findSenderMessages({ from: 'deals@shop.example', scope: 'mail' });
    expect(await box.provider.moveMessages(again, { kind: 'folder', path })).toEqual({ moved: 0, calls: 0 });

    // The user takes the label off one: it is no longer the rule's to put back.
    await box.observer.batchModify([inbox[0]!.id], [], [path]);
    let restored: Awaited<ReturnType<GmailProvider['restoreMoved']>> | undefined;
    const undoSpent = await box.units(async () => {
      restored = await box.provider.restoreMoved(moved, { kind: 'folder', path });
    });

    expect(restored).toEqual({ restored: 3, missing: 1 });
    // What is under the label (its size, then one listing page: cheaper than 4 gets), then back to the
    // inbox and back to the archive (one call each).
    expect(undoSpent).toBe(U['labels.get'] + U['messages.list'] + 2 * U['messages.batchModify']);
    expect(await box.labels(ids(inbox.slice(1)))).toEqual([
      ['INBOX', 'UNREAD'],
      ['INBOX', 'UNREAD'],
    ]);
    expect(await box.labels([archived!.id])).toEqual([['CATEGORY_PROMOTIONS']]);
    expect(await box.labels([inbox[0]!.id])).toEqual([['UNREAD']]);
  });

  it('looks at a single message rather than list a big label, and finds nothing under a deleted label', async () => {
    const box = await newMailbox('biglabel');
    const { path } = await box.provider.createFolder('Receipts');
    box.insert('Shop <receipts@shop.example>', 501, [path]);
    const [one, two] = box.insert('Store <orders@store.example>', 2);
    const moved: MovedMessage[] = [];
    await box.provider.moveMessages([found(one!), found(two!)], { kind: 'folder', path }, async (m) => {
      moved.push(...m);
    });

    let restored: Awaited<ReturnType<GmailProvider['restoreMoved']>> | undefined;
    const spent = await box.units(async () => {
      restored = await box.provider.restoreMoved(moved.slice(0, 1), { kind: 'folder', path });
    });
    expect(restored).toEqual({ restored: 1, missing: 0 });
    // Two pages of the 502 under the label would cost 10 units; one get costs 5.
    expect(spent).toBe(U['labels.get'] + U['messages.get'] + U['messages.batchModify']);
    expect(await box.labels([one!.id, two!.id])).toEqual([['INBOX', 'UNREAD'], [path, 'UNREAD'].sort()]);

    // The user deleted the label: Gmail takes it off every message, and nothing is left to put back.
    const token = await accessToken(box);
    const deleted = await fetch(`${emu.baseUrl}/gmail/v1/users/me/labels/${path}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(deleted.status).toBe(204);
    expect(await box.provider.restoreMoved(moved.slice(1), { kind: 'folder', path })).toEqual({
      restored: 0,
      missing: 1,
    });
  });

  it('archives only what is in the inbox and brings back what is still archived', async () => {
    const box = await newMailbox('archive');
    const inbox = box.insert('Digest <digest@list.example>', 3);
    const [before] = box.insert('Digest <digest@list.example>', 1, []);
    const mail = await box.provider.findSenderMessages({ from: 'digest@list.example', scope: 'mail' });

    const moved: MovedMessage[] = [];
    const result = await box.provider.moveMessages(mail, { kind: 'archive' }, async (m) => {
      moved.push(...m);
    });

    expect(result).toEqual({ moved: 3, calls: 1 });
    expect(moved.map((m) => m.origin)).toEqual(['INBOX', 'INBOX', 'INBOX']);
    expect(moved.map((m) => m.id).sort()).toEqual(ids(inbox).sort());
    expect(await box.labels(ids(inbox))).toEqual(inbox.map(() => ['UNREAD']));
    expect(await box.labels([before!.id])).toEqual([[]]);

    // One the user trashed since and one deleted for good stay where they are.
    await box.observer.batchModify([inbox[0]!.id], ['TRASH'], []);
    const token = await accessToken(box);
    const gone = await fetch(`${emu.baseUrl}/gmail/v1/users/me/messages/${inbox[1]!.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(gone.status).toBe(204);

    expect(await box.provider.restoreMoved(moved, { kind: 'archive' })).toEqual({ restored: 1, missing: 2 });
    expect(await box.labels([inbox[2]!.id, inbox[0]!.id, before!.id])).toEqual([
      ['INBOX', 'UNREAD'],
      ['TRASH', 'UNREAD'],
      [],
    ]);
  });

  it('moves to the trash and back, as the block does', async () => {
    const box = await newMailbox('trash');
    const inbox = box.insert('Promo <promo@shop.example>', 2);
    const [archived] = box.insert('Promo <promo@shop.example>', 1, ['CATEGORY_PROMOTIONS']);
    const mail = await box.provider.findSenderMessages({ from: 'promo@shop.example', scope: 'mail' });

    const moved: MovedMessage[] = [];
    expect(
      await box.provider.moveMessages(mail, { kind: 'trash' }, async (m) => {
        moved.push(...m);
      }),
    ).toEqual({ moved: 3, calls: 1 });
    expect(await box.labels(ids([...inbox, archived!]))).toEqual([
      ['TRASH', 'UNREAD'],
      ['TRASH', 'UNREAD'],
      ['CATEGORY_PROMOTIONS', 'TRASH'],
    ]);
    expect(await box.provider.findSenderMessages({ from: 'promo@shop.example', scope: 'mail' })).toEqual([]);

    // The user took one out of the trash already.
    await box.observer.batchModify([inbox[0]!.id], ['INBOX'], ['TRASH']);
    let restored: Awaited<ReturnType<GmailProvider['restoreMoved']>> | undefined;
    const spent = await box.units(async () => {
      restored = await box.provider.restoreMoved(moved, { kind: 'trash' });
    });
    expect(restored).toEqual({ restored: 2, missing: 1 });
    // The trash's listing; then to the inbox, and the archived one out of the trash only.
    expect(spent).toBe(U['labels.get'] + U['messages.list'] + 2 * U['messages.batchModify']);
    expect(await box.labels(ids([...inbox, archived!]))).toEqual([
      ['INBOX', 'UNREAD'],
      ['INBOX', 'UNREAD'],
      ['CATEGORY_PROMOTIONS'],
    ]);
  });

  // INBOX_ORIGIN, a label gone, trash and back, createFolder in any case: the port contract (port-contract.ts).
  it('takes the trashed mail out of the user’s labels, and the undo puts back those that still exist', async () => {
    const box = await newMailbox('trashlabels');
    const { path: five } = await box.provider.createFolder('Five');
    const { path: six } = await box.provider.createFolder('Six');
    const [both] = box.insert('Promo <promo@shop.example>', 1, ['INBOX', five, 'UNREAD', 'STARRED']);
    const [labelled] = box.insert('Promo <promo@shop.example>', 1, [five, six, 'CATEGORY_PROMOTIONS']);
    const [inbox] = box.insert('Promo <promo@shop.example>', 1, ['INBOX']);
    const [archived] = box.insert('Promo <promo@shop.example>', 1, []);
    const mail = await box.provider.findSenderMessages({ from: 'promo@shop.example', scope: 'mail' });

    const moved: MovedMessage[] = [];
    expect(
      await box.provider.moveMessages(mail, { kind: 'trash' }, async (m) => {
        moved.push(...m);
      }),
    ).toEqual({ moved: 4, calls: 1 });
    const originOf = (id: string) => moved.find((m) => m.id === id)?.origin;
    expect(originOf(both!.id)).toBe(`INBOX,${five}`);
    expect(originOf(labelled!.id)).toBe([five, six].sort().join(','));
    expect(originOf(inbox!.id)).toBe('INBOX');
    expect(originOf(archived!.id)).toBe('');
    expect(await box.labels(ids([both!, labelled!, inbox!, archived!]))).toEqual([
      ['STARRED', 'TRASH', 'UNREAD'],
      ['CATEGORY_PROMOTIONS', 'TRASH'],
      ['TRASH'],
      ['TRASH'],
    ]);
    // Gone from the labels as from the inbox.
    expect(
      await box.provider.findSenderMessages({ from: 'promo@shop.example', scope: { folder: five } }),
    ).toEqual([]);

    // The user deleted one of the labels meanwhile: the others come back.
    const token = await accessToken(box);
    const deleted = await fetch(`${emu.baseUrl}/gmail/v1/users/me/labels/${six}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(deleted.status).toBe(204);
    expect(await box.provider.restoreMoved(moved, { kind: 'trash' })).toEqual({ restored: 4, missing: 0 });
    expect(await box.labels(ids([both!, labelled!, inbox!, archived!]))).toEqual([
      ['INBOX', five, 'STARRED', 'UNREAD'].sort(),
      ['CATEGORY_PROMOTIONS', five].sort(),
      ['INBOX'],
      [],
    ]);

    // The block moves through the same code, and its undo gives the labels back too.
    const blocked: TrashedMessage[] = [];
    expect(
      await box.provider.moveToTrash({ from: 'promo@shop.example' }, async (m) => void blocked.push(...m)),
    ).toEqual({
      moved: 4,
      calls: 1,
    });
    expect(blocked.find((m) => m.id === both!.id)?.origin).toBe(`INBOX,${five}`);
    expect(await box.labels([both!.id])).toEqual([['STARRED', 'TRASH', 'UNREAD']]);
    expect(await box.provider.restoreFromTrash({ from: 'promo@shop.example', messages: blocked })).toEqual({
      restored: 4,
      missing: 0,
    });
    expect(await box.labels(ids([both!, labelled!, inbox!, archived!]))).toEqual([
      ['INBOX', five, 'STARRED', 'UNREAD'].sort(),
      ['CATEGORY_PROMOTIONS', five].sort(),
      ['INBOX'],
      [],
    ]);
    // Records of earlier versions: `INBOX` or '' only.
    await box.observer.batchModify([inbox!.id, archived!.id], ['TRASH'], ['INBOX']);
    expect(
      await box.provider.restoreMoved(
        [
          { id: inbox!.id, origin: 'INBOX' },
          { id: archived!.id, origin: '' },
        ],
        { kind: 'trash' },
      ),
    ).toEqual({ restored: 2, missing: 0 });
    expect(await box.labels([inbox!.id, archived!.id])).toEqual([['INBOX'], []]);
  });

  it('a message a rule filed under its label, then trashed, comes back to the inbox alone when the undo names INBOX', async () => {
    const box = await newMailbox('chain');
    const { path } = await box.provider.createFolder('Deals');
    const mail = box.insert('Deals <deals@shop.example>', 3);
    const address = 'deals@shop.example';

    // The rule files the inbox's mail under Deals…
    const filed: MovedMessage[] = [];
    const inInbox = await box.provider.findSenderMessages({ from: address, scope: 'inbox' });
    await box.provider.moveMessages(inInbox, { kind: 'folder', path }, async (m) => void filed.push(...m));
    expect(filed.map((m) => m.origin)).toEqual(['INBOX', 'INBOX', 'INBOX']);

    // …then keeps the newest 2 there: the oldest goes to the trash, the label coming off with it.
    const inLabel = await box.provider.findSenderMessages({ from: address, scope: { folder: path } });
    expect(ids(inLabel)).toEqual(ids([...mail].reverse()));
    const trashed: MovedMessage[] = [];
    await box.provider.moveMessages(
      inLabel.slice(2),
      { kind: 'trash' },
      async (m) => void trashed.push(...m),
    );
    expect(trashed).toEqual([{ id: mail[0]!.id, origin: path, previous: mail[0]!.id }]);
    expect(await box.labels([mail[0]!.id])).toEqual([['TRASH', 'UNREAD']]);

    // The product folds the two moves into one record: first origin (INBOX), last destination (trash).
    expect(
      await box.provider.restoreMoved([{ id: mail[0]!.id, origin: 'INBOX' }], { kind: 'trash' }),
    ).toEqual({ restored: 1, missing: 0 });
    expect(await box.labels([mail[0]!.id])).toEqual([['INBOX', 'UNREAD']]);
    expect(await box.labels(ids(mail.slice(1)))).toEqual([[path, 'UNREAD'].sort(), [path, 'UNREAD'].sort()]);
  });

  it('moves more than 1,000 messages in calls of at most 1,000, telling each group as it lands', async () => {
    const box = await newMailbox('chunks');
    const mail = box.insert('Bulk <bulk@x.example>', 1001);
    const groups: number[] = [];

    const result = await box.provider.moveMessages(
      mail.map((m) => found(m)),
      { kind: 'archive' },
      async (m) => {
        groups.push(m.length);
      },
    );

    expect(result).toEqual({ moved: 1001, calls: 2 });
    expect(groups).toEqual([1000, 1]);
    expect(await box.observer.listAllIds('from:bulk@x.example in:inbox')).toEqual([]);
  });

  it('refuses the inbox or the trash as a label to file in', async () => {
    const box = await newMailbox('badpath');
    const [m] = box.insert('A <a@x.example>', 1);
    for (const path of ['INBOX', 'TRASH', 'SPAM', '']) {
      await expect(box.provider.moveMessages([found(m!)], { kind: 'folder', path })).rejects.toThrow();
      await expect(box.provider.createFolderRule('a@x.example', path)).rejects.toThrow();
    }
    expect(await box.labels([m!.id])).toEqual([['INBOX', 'UNREAD']]);
  });
});

describe('createFolderRule', () => {
  it('files the sender’s next mail under the label and out of the inbox, once, until removed', async () => {
    const box = await newMailbox('rule');
    const { path } = await box.provider.createFolder('Screened');

    let rule: { ref: string } | null = null;
    const spent = await box.units(async () => {
      rule = await box.provider.createFolderRule('News@X.com', path);
    });
    expect(spent).toBe(U['settings.filters.create']);
    expect(await box.observer.listFilters()).toEqual([
      {
        id: rule!.ref,
        criteria: { from: 'news@x.com' },
        action: { addLabelIds: [path], removeLabelIds: ['INBOX'] },
      },
    ]);
    // Made again (a retry): the same filter, not a second one.
    expect(await box.provider.createFolderRule('news@x.com', path)).toEqual(rule);
    expect(await box.observer.listFilters()).toHaveLength(1);
    // A block of the same sender is another filter, not this one.
    const block = await box.provider.createBlockRule('news@x.com');
    expect(block?.ref).not.toBe(rule!.ref);
    await box.provider.removeBlockRule(block!.ref);

    const [next] = box.insert('News <news@x.com>', 1);
    expect(await box.labels([next!.id])).toEqual([[path, 'UNREAD'].sort()]);

    await box.provider.removeBlockRule(rule!.ref);
    expect(await box.observer.listFilters()).toEqual([]);
    const [after] = box.insert('News <news@x.com>', 1);
    expect(await box.labels([after!.id])).toEqual([['INBOX', 'UNREAD']]);
    // Already gone (the user deleted it in Gmail's settings): removed all the same.
    await expect(box.provider.removeBlockRule(rule!.ref)).resolves.toBeUndefined();
  });
});
