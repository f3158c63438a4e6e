import { describe, expect, it } from 'vitest';
import { GraphClient, GraphError, microsoftBaseUrls } from '#server/mail/graph/client.js';
import { INBOX_ORIGIN, type MovedMessage } from '#server/mail/provider.js';
import { withGraphFake } from '#test/fixtures/peers.js';
import type { FakeMailbox, FakeMessageInput } from '#test/helpers/graph-fake.js';
import { type GraphTestMailbox, newGraphMailbox } from '#test/helpers/graph-user.js';
import { describePortContract } from '../port-contract.js';
import { graphContractHarness } from './contract-harness.js';

// The sender rules' and the Screener's mailbox actions for Outlook (server/mail/graph/organise.ts) against
// the Graph fake written from Microsoft's documentation: find a sender's mail, move it to a folder, the
// archive or the trash and back, make a folder, and file future mail with an Inbox rule.

const fake = withGraphFake();
const RETRY = { retry: { attempts: 3, backoffMs: 10, maxWaitMs: 50 } };
describePortContract('Outlook', graphContractHarness(fake, RETRY));

const newMailbox = (label: string, overrides: Parameters<typeof newGraphMailbox>[2] = {}) =>
  newGraphMailbox(fake, label, { ...RETRY, ...overrides });

/** Minute `n` of 1 July 2025, as Graph writes receivedDateTime. */
const at = (n: number) => new Date(Date.UTC(2025, 6, 1) + n * 60_000).toISOString().replace('.000Z', 'Z');

function mail(address: string, n: number, name = address.split('@')[0]!): FakeMessageInput {
  return {
    subject: `Mail ${n}`,
    from: { name, address },
    receivedDateTime: at(n),
    headers: [{ name: 'From', value: `${name} <${address}>` }],
  };
}

const userRequests = (box: FakeMailbox, since: number) =>
  fake.requests
    .filter((r) => r.userId === box.id && r.at >= since)
    .map((r) => `${r.method} ${decodeURIComponent(r.url)} ${r.status}`);

/** Subjects of a folder, sorted. */
const subjects = (t: GraphTestMailbox, folder: string) =>
  t.box
    .messagesIn(folder)
    .map((m) => m.subject)
    .sort();

describe('findSenderMessages', () => {
  it('finds the exact address, newest first: the Inbox, or every scanned folder, and before a time', async () => {
    const t = newMailbox('find');
    const inbox = t.box.wellKnown('inbox');
    const archive = t.box.wellKnown('archive');
    const news = t.box.addFolder('Newsletters', 'inbox');
    const deals = [
      t.box.addMessage('inbox', mail('deals@shop.example', 1)),
      t.box.addMessage('inbox', mail('Deals@Shop.Example', 5)),
      t.box.addMessage(news, mail('deals@shop.example', 3)),
      t.box.addMessage('archive', mail('deals@shop.example', 4)),
      t.box.addMessage('inbox', mail('deals@shop.example', 2)),
    ];
    // Look-alikes: a longer address, another domain, the address as the display name only.
    t.box.addMessage('inbox', mail('hotdeals@shop.example', 6));
    t.box.addMessage('inbox', mail('deals@shop.example.evil', 7));
    t.box.addMessage('inbox', mail('phish@evil.example', 8, 'deals@shop.example'));
    // Junk and Deleted Items are not scanned.
    t.box.addMessage('junkemail', mail('deals@shop.example', 9));
    t.box.addMessage('deleteditems', mail('deals@shop.example', 10));
    const provider = t.provider();

    const inInbox = await provider.findSenderMessages({ from: 'DEALS@shop.example', scope: 'inbox' });
    expect(inInbox).toEqual([
      { id: deals[1], folder: inbox, date: Date.parse(at(5)) },
      { id: deals[4], folder: inbox, date: Date.parse(at(2)) },
      { id: deals[0], folder: inbox, date: Date.parse(at(1)) },
    ]);

    const everywhere = await provider.findSenderMessages({ from: 'deals@shop.example', scope: 'mail' });
    expect(everywhere).toEqual([
      { id: deals[1], folder: inbox, date: Date.parse(at(5)) },
      { id: deals[3], folder: archive, date: Date.parse(at(4)) },
      { id: deals[2], folder: news, date: Date.parse(at(3)) },
      { id: deals[4], folder: inbox, date: Date.parse(at(2)) },
      { id: deals[0], folder: inbox, date: Date.parse(at(1)) },
    ]);

    const since = Date.now();
    const older = await provider.findSenderMessages({
      from: 'deals@shop.example',
      scope: 'mail',
      before: Date.parse(at(3)),
    });
    expect(older.map((m) => m.id)).toEqual([deals[4], deals[0]]);
    // The bound is Graph's own filter, next to the address.
    expect(
      userRequests(t.box, since).some((r) =>
        r.includes(
          `$filter=from/emailAddress/address eq 'deals@shop.example' and receivedDateTime lt ${new Date(Date.parse(at(3))).toISOString()}`,
        ),
      ),
    ).toBe(true);

    expect(await provider.findSenderMessages({ from: 'nobody@shop.example', scope: 'mail' })).toEqual([]);
    await expect(provider.findSenderMessages({ from: '  ', scope: 'inbox' })).rejects.toThrow(/address/);
  });

  // A folder gone, and the exact address in the Inbox or all mail before a time: the port contract.
  it('finds the sender’s mail in one folder by its path, with one listing, child folders by their full path', async () => {
    const t = newMailbox('scope');
    const top = t.box.addFolder('Newsletters');
    const news = t.box.addFolder('News', 'inbox');
    const inTop = [
      t.box.addMessage(top, mail('deals@shop.example', 1)),
      t.box.addMessage(top, mail('Deals@Shop.Example', 3)),
    ];
    t.box.addMessage(top, mail('hotdeals@shop.example', 4));
    t.box.addMessage(top, mail('friend@example.org', 5));
    const inNews = t.box.addMessage(news, mail('deals@shop.example', 2));
    t.box.addMessage('inbox', mail('deals@shop.example', 6));
    const provider = t.provider();

    const since = Date.now();
    const found = await provider.findSenderMessages({
      from: 'deals@shop.example',
      scope: { folder: 'Newsletters' },
    });
    expect(found).toEqual([
      { id: inTop[1], folder: top, date: Date.parse(at(3)) },
      { id: inTop[0], folder: top, date: Date.parse(at(1)) },
    ]);
    const listings = userRequests(t.box, since).filter((r) => /\/messages\?/.test(r));
    expect(listings).toHaveLength(1);
    expect(listings[0]).toContain(`/mailFolders/${top}/messages`);

    expect(
      await provider.findSenderMessages({ from: 'deals@shop.example', scope: { folder: 'Inbox/News' } }),
    ).toEqual([{ id: inNews, folder: news, date: Date.parse(at(2)) }]);
    const older = await provider.findSenderMessages({
      from: 'deals@shop.example',
      scope: { folder: 'Newsletters' },
      before: Date.parse(at(3)),
    });
    expect(older.map((m) => m.id)).toEqual([inTop[0]]);
  });

  it('matches an address with a quote in it, escaped in the filter', async () => {
    const t = newMailbox('quote');
    const id = t.box.addMessage('inbox', mail("o'brien@shop.example", 1));
    t.box.addMessage('inbox', mail('obrien@shop.example', 2));

    const found = await t.provider().findSenderMessages({ from: "O'Brien@shop.example", scope: 'inbox' });

    expect(found.map((m) => m.id)).toEqual([id]);
  });
});

describe('createFolder', () => {
  it('creates a top-level folder, and answers the existing one of that name (any case) after', async () => {
    const t = newMailbox('folder');
    // A child of the same name is not a top-level folder.
    t.box.addFolder('Receipts', 'inbox');
    const provider = t.provider();

    const made = await provider.createFolder(' Receipts ');

    expect(made).toEqual({ path: 'Receipts', name: 'Receipts', specialUse: null, scanned: true });
    const folders = await provider.listFolders();
    expect(folders.filter((f) => f.name === 'Receipts').map((f) => f.path)).toEqual([
      'Inbox/Receipts',
      'Receipts',
    ]);
    expect(folders).toContainEqual(made);

    const since = Date.now();
    expect(await provider.createFolder('receipts')).toEqual(made);
    expect(userRequests(t.box, since).filter((r) => r.startsWith('POST /v1.0/'))).toEqual([]);
    // A well-known folder by its display name is that folder, as listFolders gives it.
    expect(await provider.createFolder('archive')).toEqual({
      path: 'Archive',
      name: 'Archive',
      specialUse: '\\Archive',
      scanned: true,
    });
  });

  it('refuses names with control characters or "/", empty ones and ones over 200 characters', async () => {
    const t = newMailbox('badname');
    const provider = t.provider();
    const since = Date.now();

    for (const name of ['News/Daily', 'Bell\u0007', 'Line\nbreak', '   ', 'x'.repeat(201)]) {
      await expect(provider.createFolder(name)).rejects.toThrow(/folder name/);
    }
    expect(userRequests(t.box, since)).toEqual([]);
    expect((await provider.createFolder('x'.repeat(200))).path).toBe('x'.repeat(200));
  });

  it('looks the folder up when Graph answers 409 ErrorFolderExists (made meanwhile by another client)', async () => {
    let raced = false;
    const t: GraphTestMailbox = newMailbox('race', {
      // Another Outlook client makes the folder between the adapter's look-up and its create.
      fetchImpl: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (!raced && init?.method === 'POST' && url.pathname === '/v1.0/me/mailFolders') {
          raced = true;
          t.box.addFolder('Travel');
        }
        return fetch(input, init);
      },
    });
    const since = Date.now();

    const folder = await t.provider().createFolder('travel');

    expect(folder).toEqual({ path: 'Travel', name: 'Travel', specialUse: null, scanned: true });
    expect(userRequests(t.box, since).filter((r) => r.startsWith('POST /v1.0/'))).toEqual([
      'POST /v1.0/me/mailFolders 409',
    ]);
    expect((await t.provider().listFolders()).filter((f) => f.path.toLowerCase() === 'travel')).toHaveLength(
      1,
    );
  });

  it('says so when a hidden folder holds the name', async () => {
    const t = newMailbox('hidden');
    t.box.addFolder('Secret', undefined, { hidden: true });

    await expect(t.provider().createFolder('Secret')).rejects.toThrow(/hidden folder/);
  });

  it('the fake creates folders and child folders, and refuses a sibling name in any case (409)', async () => {
    const t = newMailbox('fakefolders');
    const client = new GraphClient({
      refreshToken: t.refreshToken,
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      ...microsoftBaseUrls(fake.url),
    });

    const child = await client.post<{ id: string; displayName: string; parentFolderId: string }>(
      '/me/mailFolders/inbox/childFolders',
      { displayName: 'Orders' },
    );
    expect(child).toMatchObject({ displayName: 'Orders', parentFolderId: t.box.wellKnown('inbox') });
    const refused = await client
      .post('/me/mailFolders/inbox/childFolders', { displayName: 'ORDERS' })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(GraphError);
    expect(refused).toMatchObject({ status: 409, code: 'ErrorFolderExists' });
    // Another parent may hold the name.
    await client.post('/me/mailFolders', { displayName: 'Orders' });
    expect((await t.provider().listFolders()).filter((f) => f.name === 'Orders').map((f) => f.path)).toEqual([
      'Inbox/Orders',
      'Orders',
    ]);
  });
});

describe('moveMessages and restoreMoved', () => {
  it('moves to a folder by its path and back; what the user moved out of it meanwhile is missing', async () => {
    const t = newMailbox('tofolder');
    const inbox = t.box.wellKnown('inbox');
    const news = t.box.addFolder('News', 'inbox');
    const shopping = t.box.addFolder('Shopping', news);
    for (let n = 1; n <= 3; n++) t.box.addMessage('inbox', mail('deals@shop.example', n));
    t.box.addMessage(news, mail('deals@shop.example', 4));
    t.box.addMessage('inbox', mail('friend@example.org', 5));
    const provider = t.provider();
    const found = await provider.findSenderMessages({ from: 'deals@shop.example', scope: 'mail' });
    const since = Date.now();

    const moved: MovedMessage[] = [];
    const result = await provider.moveMessages(
      found,
      { kind: 'folder', path: 'Inbox/News/Shopping' },
      async (m) => {
        moved.push(...m);
      },
    );

    expect(result).toEqual({ moved: 4, calls: 1 });
    expect(userRequests(t.box, since).filter((r) => r.startsWith('POST /v1.0/$batch'))).toHaveLength(1);
    expect(subjects(t, shopping)).toEqual(['Mail 1', 'Mail 2', 'Mail 3', 'Mail 4']);
    expect(subjects(t, 'inbox')).toEqual(['Mail 5']);
    // Immutable ids: the same id after the move; the origin is the folder it was found in.
    expect(new Set(moved)).toEqual(
      new Set(found.map((m) => ({ id: m.id, origin: m.folder, previous: m.id }))),
    );

    // Found again, they are already there: nothing to move.
    const again = await provider.findSenderMessages({ from: 'deals@shop.example', scope: 'mail' });
    expect(again.every((m) => m.folder === shopping)).toBe(true);
    expect(await provider.moveMessages(again, { kind: 'folder', path: 'Inbox/News/Shopping' })).toEqual({
      moved: 0,
      calls: 0,
    });

    // The user files one elsewhere and deletes another for good: neither goes back.
    t.box.moveMessage(moved[0]!.id, 'junkemail');
    t.box.deleteMessage(moved[1]!.id);
    const back = await provider.restoreMoved(moved, { kind: 'folder', path: 'Inbox/News/Shopping' });

    expect(back).toEqual({ restored: 2, missing: 2 });
    expect(t.box.messagesIn(shopping)).toEqual([]);
    expect(t.box.messagesIn('junkemail').map((m) => m.id)).toEqual([moved[0]!.id]);
    const where = new Map<string, string>();
    for (const folder of [inbox, news]) for (const m of t.box.messagesIn(folder)) where.set(m.id, folder);
    for (const m of moved.slice(2)) expect(where.get(m.id)).toBe(m.origin);
  });

  // INBOX_ORIGIN puts mail back in the Inbox (the port contract); on Graph, by the well-known name.
  it('moves mail back by INBOX_ORIGIN to the well-known inbox, looking no folder up by it', async () => {
    const t = newMailbox('ruleorigin');
    const news = t.box.addFolder('News', 'inbox');
    for (let n = 1; n <= 2; n++) t.box.addMessage(news, mail('deals@shop.example', n));
    t.box.addMessage(news, mail('friend@example.org', 3));
    const provider = t.provider();
    const found = await provider.findSenderMessages({
      from: 'deals@shop.example',
      scope: { folder: 'Inbox/News' },
    });
    expect(found).toHaveLength(2);

    const since = Date.now();
    const back = await provider.restoreMoved(
      found.map((m) => ({ id: m.id, origin: INBOX_ORIGIN })),
      { kind: 'folder', path: 'Inbox/News' },
    );
    expect(back).toEqual({ restored: 2, missing: 0 });
    expect(subjects(t, 'inbox')).toEqual(['Mail 1', 'Mail 2']);
    // Moved to the well-known inbox by name: no folder is looked up by the origin.
    expect(userRequests(t.box, since).some((r) => r.includes('/mailFolders/INBOX'))).toBe(false);
  });

  it('refuses a folder the mailbox does not have; a restore from it finds everything missing', async () => {
    const t = newMailbox('nofolder');
    const id = t.box.addMessage('inbox', mail('deals@shop.example', 1));
    const provider = t.provider();
    const found = await provider.findSenderMessages({ from: 'deals@shop.example', scope: 'inbox' });

    await expect(provider.moveMessages(found, { kind: 'folder', path: 'Nowhere' })).rejects.toThrow(
      /Nowhere is not in this mailbox/,
    );
    expect(t.box.messagesIn('inbox').map((m) => m.id)).toEqual([id]);
    expect(
      await provider.restoreMoved([{ id, origin: t.box.wellKnown('inbox') }], {
        kind: 'folder',
        path: 'Nowhere',
      }),
    ).toEqual({ restored: 0, missing: 1 });
  });

  it('archives into the well-known Archive and back; mail of a folder deleted since goes to the Inbox', async () => {
    const t = newMailbox('archive');
    const inbox = t.box.wellKnown('inbox');
    const projects = t.box.addFolder('Projects');
    t.box.addMessage('inbox', mail('news@daily.example', 1));
    t.box.addMessage('inbox', mail('news@daily.example', 2));
    t.box.addMessage(projects, mail('news@daily.example', 3));
    const provider = t.provider();
    const found = await provider.findSenderMessages({ from: 'news@daily.example', scope: 'mail' });

    const moved: MovedMessage[] = [];
    expect(
      await provider.moveMessages(found, { kind: 'archive' }, async (m) => void moved.push(...m)),
    ).toEqual({
      moved: 3,
      calls: 1,
    });
    expect(subjects(t, 'archive')).toEqual(['Mail 1', 'Mail 2', 'Mail 3']);
    expect(moved.filter((m) => m.origin === projects)).toHaveLength(1);

    t.box.deleteFolder(projects);
    // A throttled look-up inside the batch is asked again.
    fake.fault({ kind: 'throttle', count: 1, retryAfter: 0, match: /^GET \/v1\.0\/me\/messages\// });
    const back = await provider.restoreMoved(moved, { kind: 'archive' });

    expect(back).toEqual({ restored: 3, missing: 0 });
    expect(t.box.messagesIn('archive')).toEqual([]);
    expect(subjects(t, inbox)).toEqual(['Mail 1', 'Mail 2', 'Mail 3']);
  });

  it('trashes into Deleted Items and back, as the block does; one deleted for good is missing', async () => {
    const t = newMailbox('trash');
    const news = t.box.addFolder('News');
    for (let n = 1; n <= 3; n++) t.box.addMessage('inbox', mail('deals@shop.example', n));
    t.box.addMessage(news, mail('deals@shop.example', 4));
    const provider = t.provider();
    const found = await provider.findSenderMessages({ from: 'deals@shop.example', scope: 'mail' });

    const moved: MovedMessage[] = [];
    expect(await provider.moveMessages(found, { kind: 'trash' }, async (m) => void moved.push(...m))).toEqual(
      {
        moved: 4,
        calls: 1,
      },
    );
    expect(subjects(t, 'deleteditems')).toEqual(['Mail 1', 'Mail 2', 'Mail 3', 'Mail 4']);

    const newsMessage = moved.find((m) => m.origin === news)!;
    const gone = moved.find((m) => m.origin !== news)!;
    t.box.deleteMessage(gone.id);
    const back = await provider.restoreMoved(moved, { kind: 'trash' });

    expect(back).toEqual({ restored: 3, missing: 1 });
    expect(t.box.messagesIn('deleteditems')).toEqual([]);
    expect(t.box.messagesIn(news).map((m) => m.id)).toEqual([newsMessage.id]);
    expect(t.box.messagesIn('inbox')).toHaveLength(2);
  });
});

describe('createFolderRule', () => {
  it('files the sender’s new mail in the folder with an Inbox rule, once; removeBlockRule deletes it', async () => {
    const t = newMailbox('filerule');
    const provider = t.provider();
    await provider.createBlockRule('spam@shop.example');
    const folder = await provider.createFolder('Shopping');
    const shopping = (await provider.listFolders()).find((f) => f.path === 'Shopping')!;
    expect(shopping).toEqual(folder);
    const shoppingId = await folderId(t, 'Shopping');

    const rule = await provider.createFolderRule('Deals@Shop.Example', 'Shopping');

    expect(t.box.rules().find((r) => r.id === rule!.ref)).toEqual({
      id: rule!.ref,
      displayName: 'Inbox Genie: file deals@shop.example',
      sequence: 2,
      isEnabled: true,
      conditions: { fromAddresses: [{ emailAddress: { address: 'deals@shop.example' } }] },
      actions: { moveToFolder: shoppingId, stopProcessingRules: true },
    });
    // A retry finds the rule it made.
    expect(await provider.createFolderRule('deals@shop.example', 'Shopping')).toEqual(rule);
    expect(t.box.rules()).toHaveLength(2);

    // The fake applies Inbox rules on delivery, as Exchange does.
    t.box.addMessage('inbox', mail('deals@shop.example', 1));
    t.box.addMessage('inbox', mail('friend@example.org', 2));
    expect(subjects(t, shoppingId)).toEqual(['Mail 1']);
    expect(subjects(t, 'inbox')).toEqual(['Mail 2']);

    await provider.removeBlockRule(rule!.ref);
    expect(t.box.rules().map((r) => r.displayName)).toEqual(['Inbox Genie: block spam@shop.example']);
    t.box.addMessage('inbox', mail('deals@shop.example', 3));
    expect(subjects(t, 'inbox')).toEqual(['Mail 2', 'Mail 3']);

    await expect(provider.createFolderRule('deals@shop.example', 'Nowhere')).rejects.toThrow(/Nowhere/);
  });
});

/** The fake's id of the folder at a top-level path, through Graph as a client sees it. */
async function folderId(t: GraphTestMailbox, displayName: string): Promise<string> {
  const client = new GraphClient({
    refreshToken: t.refreshToken,
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    ...microsoftBaseUrls(fake.url),
  });
  const page = await client.get<{ value: Array<{ id: string; displayName: string }> }>(
    '/me/mailFolders?$top=100&$select=id,displayName',
  );
  return page.value.find((f) => f.displayName === displayName)!.id;
}
