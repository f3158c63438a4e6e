import { afterEach, describe, expect, it } from 'vitest';
import { googleEndpoints, refreshAccessToken } from '#server/mail/gmail/google-oauth.js';
import type { TrashedMessage } from '#server/mail/provider.js';
import { newGmailMailbox } from '#test/fixtures/gmail.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { checkMailbox, listNews } from '#test/fixtures/sender-rules.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { type MessageSpec, startGoogleEmulator } from '#test/helpers/google-emulator.js';
import { type FakeMessageInput, startGraphFake } from '#test/helpers/graph-fake.js';
import { newGraphMailbox } from '#test/helpers/graph-user.js';
import { startHttpsSender } from '#test/helpers/https-sender.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { type YahooUser, yahooUser } from '#test/helpers/yahoo-user.js';

// Undo (POST /review-subscription, POST /unblock-subscription) and "also move the mail to the trash" on
// Unsubscribe: through the API on a real Dovecot, and the adapters' restore from the trash on the Gmail
// emulator and the Graph fake. Messages the user deleted from the trash meanwhile are skipped and counted.

const { dovecot, sender, emu, graph } = peersForThisFile({
  dovecot: () => startDovecot(),
  sender: () => startHttpsSender(),
  emu: () => startGoogleEmulator(),
  graph: () => startGraphFake(),
});

/** Expunges the first message of a folder, as a user emptying part of the trash would. */
const expungeOne = (user: string, password: string, folder: string): Promise<void> =>
  dovecot.withClient({ user, password }, async (client) => {
    const lock = await client.getMailboxLock(folder);
    try {
      await client.messageDelete('1');
    } finally {
      lock.release();
    }
  });

describe.each(DIALECTS)('undo on %s (Dovecot)', (dialect) => {
  const open: YahooUser[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  async function connected(messages: string[], folders: Record<string, string[]> = {}) {
    const user = await yahooUser(dovecot, dialect, messages, { UNSUBSCRIBE_ALLOWED_HOSTS: '127.0.0.1' });
    open.push(user);
    // Delivered after the scan: the block finds a sender's mail in the mailbox itself, not in the counts.
    for (const [folder, raws] of Object.entries(folders)) {
      for (const raw of raws) await dovecot.deliver(user.email, folder, raw);
    }
    const category = async (category: 'uncategorized' | 'kept' | 'unsubscribed') =>
      (await user.client.call('GET /get-unsubscribe-emails', { query: { category } })).data;
    const list = async () => [
      ...(await category('uncategorized')),
      ...(await category('kept')),
      ...(await category('unsubscribed')),
    ];
    const idOf = async (address: string) => (await list()).find((s) => s.address === address)!.id;
    const count = (folder: string) => dovecot.count({ user: user.email, password: user.password }, folder);
    return { ...user, idOf, count };
  }

  const news = listNews;

  it('undoes a block: the rule lifted, the trashed mail back in its folders, the deleted counted out', async () => {
    const user = await connected(
      [
        news('deals@shop.example', 'A', 1),
        news('deals@shop.example', 'B', 2),
        news('other@shop.example', 'C', 1),
      ],
      { Newsletters: [news('deals@shop.example', 'D', 3), news('deals@shop.example', 'E', 4)] },
    );
    const { client, t, idOf, count, email, password } = user;
    const id = await idOf('deals@shop.example');
    expect([await count('INBOX'), await count('Newsletters')]).toEqual([3, 2]);

    const blocked = await client.post('/block-subscription', { subscriptionId: id });
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json()).toMatchObject({ id, category: 'unsubscribed', movedToTrash: 4 });
    expect([await count('INBOX'), await count('Newsletters'), await count('Trash')]).toEqual([1, 0, 4]);
    const recorded = await t.db.selectFrom('trashed_messages').select(['trash_id', 'origin']).execute();
    expect(recorded.map((r) => r.origin).sort()).toEqual(['INBOX', 'INBOX', 'Newsletters', 'Newsletters']);

    // The user empties one message from the trash before changing their mind.
    await expungeOne(email, password, 'Trash');
    const undone = await client.post('/unblock-subscription', { subscriptionId: id });
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toMatchObject({ id, category: 'uncategorized', restoredFromTrash: 3 });
    expect(await count('Trash')).toBe(0);
    expect((await count('INBOX')) + (await count('Newsletters'))).toBe(4);
    expect(await count('Newsletters')).toBeGreaterThanOrEqual(1);
    expect(await t.db.selectFrom('block_rules').selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom('trashed_messages').selectAll().execute()).toEqual([]);
    const receipts = await t.db
      .selectFrom('unsubscribe_receipts')
      .select(['method', 'ok', 'detail'])
      .where('sender_id', '=', id)
      .orderBy('created_at')
      .execute();
    expect(receipts.map((r) => [r.method, r.ok])).toEqual([
      ['block', 1],
      ['unblock', 1],
    ]);
    expect(receipts[1]!.detail).toMatch(/3 moved back from the trash, 1 no longer there/);

    // Twice is the same as once; another user's sender is not found.
    const again = await client.post('/unblock-subscription', { subscriptionId: id });
    expect(again.json()).toMatchObject({ category: 'uncategorized', restoredFromTrash: 0 });
    const stranger = new Client(t.app);
    await stranger.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    expect((await stranger.post('/unblock-subscription', { subscriptionId: id })).statusCode).toBe(404);
    expect((await stranger.post('/review-subscription', { subscriptionId: id })).statusCode).toBe(404);

    // Blocked again after the undo: the same mail goes back to the trash.
    const reblocked = await client.post('/block-subscription', { subscriptionId: id });
    expect(reblocked.json()).toMatchObject({ category: 'unsubscribed', movedToTrash: 3 });
  });

  it("brings back the mail the block's rule moved at later checks too, and says how many", async () => {
    const user = await connected([news('late@shop.example', 'A', 3), news('late@shop.example', 'B', 2)]);
    const { client, t, idOf, count, email } = user;
    const id = await idOf('late@shop.example');
    const blocked = await client.post('/block-subscription', { subscriptionId: id });
    expect(blocked.json()).toMatchObject({ category: 'unsubscribed', movedToTrash: 2 });
    // Mail of the blocked sender arrives later; the daily check applies the block's rule to it.
    await dovecot.deliver(email, 'INBOX', news('late@shop.example', 'C', 1));
    await dovecot.deliver(email, 'INBOX', news('late@shop.example', 'D', 0));
    await checkMailbox(t);
    expect([await count('INBOX'), await count('Trash')]).toEqual([0, 4]);

    const undone = await client.post('/unblock-subscription', { subscriptionId: id });
    expect(undone.json()).toMatchObject({ id, category: 'uncategorized', restoredFromTrash: 4 });
    expect([await count('INBOX'), await count('Trash')]).toEqual([4, 0]);
  });

  it('undoes a Keep (back to review, idempotent) and refuses undoing what was not done', async () => {
    const { client, idOf } = await connected([
      news('kept@shop.example', 'A', 1),
      news('mail@shop.example', 'B', 1),
    ]);
    const kept = await idOf('kept@shop.example');
    expect((await client.post('/keep-subscription', { subscriptionId: kept })).json()).toMatchObject({
      category: 'kept',
    });
    const reviewed = await client.post('/review-subscription', { subscriptionId: kept });
    expect(reviewed.statusCode).toBe(200);
    expect(reviewed.json()).toMatchObject({ id: kept, category: 'uncategorized' });
    expect((await client.post('/review-subscription', { subscriptionId: kept })).json()).toMatchObject({
      category: 'uncategorized',
    });
    // Not blocked: nothing to unblock (a sender kept is not blocked either).
    expect((await client.post('/unblock-subscription', { subscriptionId: kept })).statusCode).toBe(200);
    await client.post('/keep-subscription', { subscriptionId: kept });
    const notBlocked = await client.post('/unblock-subscription', { subscriptionId: kept });
    expect(notBlocked.statusCode).toBe(409);
    expect(notBlocked.json().message).toBe('This sender is not blocked.');
    // An unsubscribed sender does not go back to review by the undo of Keep.
    const mailed = await idOf('mail@shop.example');
    expect((await client.post('/unsubscribe', { subscriptionId: mailed })).json()).toMatchObject({
      method: 'mailto',
    });
    const refused = await client.post('/review-subscription', { subscriptionId: mailed });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/Only a kept sender/);
  });

  it('moves the sender’s mail to the trash after an unsubscribe when asked, and only then', async () => {
    const path = `/undo/one-click/${Date.now()}`;
    sender.respond(path, { status: 200 });
    const oneClick = (subject: string, days: number) =>
      rawMessage({
        from: 'Shop <shop@trash.example>',
        subject,
        date: daysAgo(days),
        listUnsubscribe: `<${sender.origin}${path}>`,
        listUnsubscribePost: 'List-Unsubscribe=One-Click',
      });
    const { client, idOf, count, smtp } = await connected([
      oneClick('A', 1),
      oneClick('B', 2),
      news('plain@trash.example', 'C', 1),
    ]);
    const answer = await client.call('POST /unsubscribe', {
      body: { subscriptionId: await idOf('shop@trash.example'), moveToTrash: true },
    });
    expect(answer).toMatchObject({ method: 'one-click', oneClickUnsubscribeSuccess: true, movedToTrash: 2 });
    expect(sender.requests.filter((r) => r.path === path)).toHaveLength(1);
    expect(await count('Trash')).toBe(2);
    // Without the option, an unsubscribe leaves the mail where it is.
    const plain = await client.call('POST /unsubscribe', {
      body: { subscriptionId: await idOf('plain@trash.example') },
    });
    expect(plain).toMatchObject({ method: 'mailto', oneClickUnsubscribeSuccess: true });
    expect(plain.movedToTrash).toBeUndefined();
    expect(smtp.received).toHaveLength(1);
    expect([await count('Trash'), await count('INBOX')]).toEqual([2, 1]);
  });
});

describe('restore from the trash on Gmail (emulator)', () => {
  it('puts inbox mail back in the inbox, archived mail back in the archive, and skips what was deleted', async () => {
    const { email, refreshToken, provider, observer } = await newGmailMailbox(emu, 'undo');
    let clock = Date.UTC(2025, 0, 1);
    const spec = (labels: string[]): MessageSpec => {
      clock += 60_000;
      return {
        from: 'Deals <deals@shop.example>',
        subject: 'Deal',
        date: new Date(clock),
        body: 'x',
        labels,
      };
    };
    const inbox = emu.insert(email, [
      spec(['INBOX', 'CATEGORY_PROMOTIONS']),
      spec(['INBOX']),
      spec(['INBOX']),
    ]);
    const archived = emu.insert(email, [spec(['CATEGORY_PROMOTIONS']), spec([])]);

    const moved: TrashedMessage[] = [];
    const result = await provider.moveToTrash({ from: 'deals@shop.example' }, async (m) => {
      moved.push(...m);
    });
    expect(result.moved).toBe(5);
    expect(new Map(moved.map((m) => [m.id, m.origin]))).toEqual(
      new Map([...inbox.map((m) => [m.id, 'INBOX'] as const), ...archived.map((m) => [m.id, ''] as const)]),
    );

    // Deleted for good from the trash by the user.
    const { token } = await refreshAccessToken({
      endpoints: googleEndpoints(emu.baseUrl),
      clientId: emu.clientId,
      clientSecret: emu.clientSecret,
      refreshToken,
    });
    const gone = await fetch(`${emu.baseUrl}/gmail/v1/users/me/messages/${inbox[2]!.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(gone.ok).toBe(true);

    const back = await provider.restoreFromTrash({ from: 'deals@shop.example', messages: moved });
    expect(back).toEqual({ restored: 4, missing: 1 });
    const labels = await observer.getMetadata(
      [...inbox.slice(0, 2), ...archived].map((m) => m.id),
      ['From'],
    );
    const of = (id: string) => [...(labels.get(id)?.labelIds ?? [])].sort();
    expect(of(inbox[0]!.id)).toEqual(['CATEGORY_PROMOTIONS', 'INBOX']);
    expect(of(inbox[1]!.id)).toEqual(['INBOX']);
    expect(of(archived[0]!.id)).toEqual(['CATEGORY_PROMOTIONS']);
    expect(of(archived[1]!.id)).toEqual([]);
  });
});

describe("restore of the mail a provider's block rule trashed later", () => {
  it('Gmail: the filter trashed what arrived after the block; undo brings that back to the inbox too', async () => {
    const { email, provider, observer } = await newGmailMailbox(emu, 'rule');
    const at = (ms: number): MessageSpec => ({
      from: 'Deals <deals@rule.example>',
      subject: 'Deal',
      date: new Date(ms),
      body: 'x',
      labels: ['INBOX'],
    });
    // Trashed by the user long before the block: not the rule's work, stays.
    const [old] = emu.insert(email, [{ ...at(Date.now() - 86_400_000), labels: ['TRASH'] }]);
    const ruleSince = Date.now() - 1000;
    await provider.createBlockRule('deals@rule.example');
    // Gmail applies the filter as the mail arrives.
    const later = emu.insert(email, [at(Date.now()), at(Date.now() + 1000)]);
    const [other] = emu.insert(email, [
      { from: 'Friend <friend@rule.example>', subject: 'Hi', date: new Date(), body: 'x', labels: ['TRASH'] },
    ]);
    const before = await observer.getMetadata(
      later.map((m) => m.id),
      ['From'],
    );
    for (const m of later) expect(before.get(m.id)?.labelIds).toContain('TRASH');

    const back = await provider.restoreFromTrash({ from: 'deals@rule.example', messages: [], ruleSince });
    expect(back).toEqual({ restored: 2, missing: 0 });
    const after = await observer.getMetadata(
      [...later, old!, other!].map((m) => m.id),
      ['From'],
    );
    for (const m of later) expect(after.get(m.id)?.labelIds).toEqual(['INBOX']);
    expect(after.get(old!.id)?.labelIds).toContain('TRASH');
    expect(after.get(other!.id)?.labelIds).toContain('TRASH');
  });

  it('Outlook: the Inbox rule moved what arrived after the block; undo brings that back to the inbox too', async () => {
    const t = newGraphMailbox(graph, 'rule', { retry: { attempts: 3, backoffMs: 10, maxWaitMs: 50 } });
    const arriving = (address: string, ms: number): FakeMessageInput => ({
      subject: 'Deals',
      from: { name: 'Deals', address },
      receivedDateTime: new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      headers: [{ name: 'From', value: address }],
    });
    const provider = t.provider();
    const old = t.box.addMessage('deleteditems', arriving('deals@rule.example', Date.now() - 86_400_000));
    const ruleSince = Date.now() - 1000;
    await provider.createBlockRule('deals@rule.example');
    t.box.addMessage('inbox', arriving('deals@rule.example', Date.now()));
    t.box.addMessage('inbox', arriving('deals@rule.example', Date.now() + 1000));
    expect(t.box.sendersIn('deleteditems')).toHaveLength(3);

    const back = await provider.restoreFromTrash({ from: 'deals@rule.example', messages: [], ruleSince });
    expect(back).toEqual({ restored: 2, missing: 0 });
    expect(t.box.sendersIn('inbox')).toEqual(['deals@rule.example', 'deals@rule.example']);
    expect(t.box.messagesIn('deleteditems').map((m) => m.id)).toEqual([old]);
  });
});

describe('restore from the trash on Outlook (Graph fake)', () => {
  let minute = 0;
  const from = (address: string): FakeMessageInput => {
    minute += 1;
    return {
      subject: 'Deals',
      from: { name: 'Deals', address },
      receivedDateTime: new Date(Date.UTC(2025, 6, 1) + minute * 60_000).toISOString().replace('.000Z', 'Z'),
      headers: [{ name: 'From', value: address }],
    };
  };

  it('moves each message back to the folder it came from, and skips what left the trash', async () => {
    const t = newGraphMailbox(graph, 'undo', { retry: { attempts: 3, backoffMs: 10, maxWaitMs: 50 } });
    const news = t.box.addFolder('Newsletters', 'inbox');
    for (let i = 0; i < 3; i++) t.box.addMessage('inbox', from('deals@shop.example'));
    for (let i = 0; i < 2; i++) t.box.addMessage(news, from('deals@shop.example'));
    t.box.addMessage('inbox', from('friend@example.org'));
    const provider = t.provider();

    const moved: TrashedMessage[] = [];
    expect(
      (await provider.moveToTrash({ from: 'deals@shop.example' }, async (m) => void moved.push(...m))).moved,
    ).toBe(5);
    expect(moved).toHaveLength(5);
    expect(t.box.sendersIn('deleteditems')).toHaveLength(5);
    // One deleted for good, one taken out of the trash by the user (to the inbox): neither is touched.
    t.box.deleteMessage(moved[0]!.id);
    t.box.moveMessage(moved[1]!.id, 'inbox');

    const back = await provider.restoreFromTrash({ from: 'deals@shop.example', messages: moved });
    expect(back).toEqual({ restored: 3, missing: 2 });
    expect(t.box.sendersIn('deleteditems')).toEqual([]);
    const inInbox = t.box.sendersIn('inbox').filter((a) => a === 'deals@shop.example').length;
    const inNews = t.box.sendersIn(news).length;
    expect(inInbox + inNews).toBe(4);
    // Each went back where it was.
    const origins = new Map(moved.map((m) => [m.id, m.origin]));
    for (const m of t.box.messagesIn(news)) expect(origins.get(m.id)).toBe(news);
  });
});
