import { afterEach, describe, expect, it } from 'vitest';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { checkMailbox, listNews, rowOf } from '#test/fixtures/sender-rules.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { type YahooUser, yahooUser } from '#test/helpers/yahoo-user.js';

// The activity history (GET /activity, POST /activity/:id/undo) and counts that follow moved mail, through
// the API on a real Dovecot: a block, a rule that trashed, an unsubscribe that moved mail, a bulk and the
// Screener each leave one entry, undone once by its owner only, and settled by the screens' own Undo too.

const { dovecot } = peersForThisFile({ dovecot: () => startDovecot() });

const news = listNews;

describe.each(DIALECTS)('activity on %s (Dovecot)', (dialect) => {
  const open: YahooUser[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  async function connected(messages: string[]) {
    const user = await yahooUser(dovecot, dialect, messages);
    open.push(user);
    const count = (folder: string) => dovecot.count({ user: user.email, password: user.password }, folder);
    const activity = async () => (await user.client.call('GET /activity')).data;
    const undo = (id: string) => user.client.call('POST /activity/:id/undo', { params: { id } });
    const messages_ = async (id: string) =>
      (await user.client.call('GET /get-subscriptions/:id', { params: { id } })).data;
    return {
      ...user,
      count,
      activity,
      undo,
      messagesOf: messages_,
      row: (a: string) => rowOf(user.client, a),
    };
  }

  it('lists a block, undoes it once for its owner only, and the counts follow the mail both ways', async () => {
    const u = await connected([
      news('deals@shop.example', 'A', 1),
      news('deals@shop.example', 'B', 2),
      news('deals@shop.example', 'C', 3),
      news('other@shop.example', 'D', 1),
    ]);
    const { id } = await u.row('deals@shop.example');
    expect((await u.row('deals@shop.example')).messageCount).toBe(3);

    await u.client.call('POST /block-subscription', { body: { subscriptionId: id } });
    const [entry, ...rest] = await u.activity();
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      kind: 'block',
      subscriptionId: id,
      address: 'deals@shop.example',
      moved: 3,
      undone: false,
      undoable: true,
      by: 'you',
      bulk: null,
    });
    // The row and its messages follow the mail into the trash at once, not at the next scan.
    expect((await u.row('deals@shop.example')).messageCount).toBe(0);
    expect(await u.messagesOf(id)).toEqual([]);

    const stranger = new Client(u.t.app);
    await stranger.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    expect((await stranger.call('GET /activity')).data).toEqual([]);
    await stranger.call('POST /activity/:id/undo', { params: { id: entry!.id }, status: 404 });

    const undone = await u.undo(entry!.id);
    expect(undone).toMatchObject({ restored: 3, entry: { id: entry!.id, undone: true, undoable: false } });
    expect([await u.count('INBOX'), await u.count('Trash')]).toEqual([4, 0]);
    const back = await u.row('deals@shop.example');
    expect(back).toMatchObject({ category: 'uncategorized', messageCount: 3 });
    expect((await u.messagesOf(id)).map((m) => m.subject).sort()).toEqual(['A', 'B', 'C']);
    // A second click: the same entry, nothing moved.
    expect(await u.undo(entry!.id)).toMatchObject({ restored: 0, entry: { undone: true } });

    // Blocked again and undone from the row's own Undo: the history says so too.
    await u.client.call('POST /block-subscription', { body: { subscriptionId: id } });
    await u.client.call('POST /unblock-subscription', { body: { subscriptionId: id } });
    const [latest] = await u.activity();
    expect(latest).toMatchObject({ kind: 'block', moved: 3, undone: true, undoable: false });
    expect((await u.row('deals@shop.example')).messageCount).toBe(3);
  });

  it('a rule that trashed: the count follows, undo ends the rule with its mail; nothing left answers 409', async () => {
    const u = await connected([1, 2, 3, 4, 5].map((d) => news('daily@paper.example', `Day ${d}`, d)));
    const { id } = await u.row('daily@paper.example');
    await u.client.call('PUT /sender-rules/:subscriptionId', {
      params: { subscriptionId: id },
      body: { rule: { keepNewest: 2 } },
    });
    expect((await u.row('daily@paper.example')).messageCount).toBe(2);
    expect((await u.messagesOf(id)).map((m) => m.subject).sort()).toEqual(['Day 1', 'Day 2']);
    const [entry] = await u.activity();
    expect(entry).toMatchObject({ kind: 'rule', moved: 3, undoable: true, by: 'you' });

    expect(await u.undo(entry!.id)).toMatchObject({ restored: 3, entry: { undone: true } });
    expect((await u.client.call('GET /sender-rules')).data).toEqual([]);
    expect((await u.row('daily@paper.example')).messageCount).toBe(5);
    expect([await u.count('INBOX'), await u.count('Trash')]).toEqual([5, 0]);

    // A rule removed without its mail: the history still lists it, with no way back.
    await u.client.call('PUT /sender-rules/:subscriptionId', {
      params: { subscriptionId: id },
      body: { rule: { keepNewest: 4 } },
    });
    await u.client.call('DELETE /sender-rules/:subscriptionId', { params: { subscriptionId: id } });
    const [gone] = await u.activity();
    expect(gone).toMatchObject({ kind: 'rule', moved: 1, undone: false, undoable: false });
    const refused = await u.client.call('POST /activity/:id/undo', { params: { id: gone!.id }, status: 409 });
    expect(refused.message).toMatch(/nothing left to undo/i);
  });

  it('an unsubscribe that moved mail: undo brings the mail back and the sender stays unsubscribed', async () => {
    const u = await connected([news('shop@letters.example', 'A', 1), news('shop@letters.example', 'B', 2)]);
    const { id } = await u.row('shop@letters.example');
    const answer = await u.client.call('POST /unsubscribe', {
      body: { subscriptionId: id, moveToTrash: true },
    });
    expect(answer).toMatchObject({ method: 'mailto', movedToTrash: 2 });
    const [entry] = await u.activity();
    expect(entry).toMatchObject({ kind: 'unsubscribe', moved: 2, undoable: true });
    expect(await u.undo(entry!.id)).toMatchObject({ restored: 2 });
    expect(await u.row('shop@letters.example')).toMatchObject({ category: 'unsubscribed', messageCount: 2 });
    expect(await u.count('INBOX')).toBe(2);
  });

  it('a bulk Block is one entry with one Undo; pages follow a cursor', async () => {
    const u = await connected([
      news('one@a.example', 'A', 1),
      news('two@b.example', 'B', 1),
      news('two@b.example', 'C', 2),
      news('three@c.example', 'D', 1),
    ]);
    const ids = [(await u.row('one@a.example')).id, (await u.row('two@b.example')).id];
    await u.client.call('POST /bulk-action', { body: { action: 'block', subscriptionIds: ids } });
    await u.t.app.jobs.idle();
    const [bulk, ...rest] = await u.activity();
    expect(rest).toEqual([]);
    expect(bulk).toMatchObject({
      kind: 'bulk',
      subscriptionId: null,
      moved: 3,
      undoable: true,
      bulk: { action: 'block', senders: 2 },
    });
    expect(await u.undo(bulk!.id)).toMatchObject({ restored: 3, entry: { undone: true, undoable: false } });
    expect((await u.row('one@a.example')).category).toBe('uncategorized');
    expect(await u.row('two@b.example')).toMatchObject({ category: 'uncategorized', messageCount: 2 });

    await u.client.call('POST /block-subscription', { body: { subscriptionId: ids[0]! } });
    await u.client.call('POST /block-subscription', { body: { subscriptionId: ids[1]! } });
    const first = await u.client.call('GET /activity', { query: { limit: 2 } });
    expect(first.data.map((e) => e.subscriptionId)).toEqual([ids[1], ids[0]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await u.client.call('GET /activity', { query: { limit: 2, cursor: first.nextCursor! } });
    expect(second.data.map((e) => e.kind)).toEqual(['bulk']);
    expect(second.nextCursor).toBeNull();
    const bad = await u.client.call('GET /activity', { query: { cursor: 'not*a*cursor' }, status: 400 });
    expect(bad.message).toMatch(/cursor is not valid/);
  });

  it('the Screener at a check is listed as done by the check, and undo gives the mail back', async () => {
    const u = await connected([news('known@shop.example', 'A', 2)]);
    await u.client.call('PUT /screener', { body: { email: u.email, enabled: true } });
    await dovecot.deliver(u.email, 'INBOX', news('fresh@new.example', 'Hello', 0));
    await dovecot.deliver(u.email, 'INBOX', news('fresh@new.example', 'Again', 0));
    await checkMailbox(u.t);
    expect(await u.count('Screener')).toBe(2);
    const [entry] = await u.activity();
    expect(entry).toMatchObject({ kind: 'screener', moved: 2, by: 'check', address: 'fresh@new.example' });
    expect(await u.undo(entry!.id)).toMatchObject({ restored: 2 });
    expect([await u.count('Screener'), await u.count('INBOX')]).toEqual([0, 3]);
  });
});
