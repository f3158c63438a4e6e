import { afterEach, describe, expect, it } from 'vitest';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { listNews as news, rowOf } from '#test/fixtures/sender-rules.js';
import { DIALECTS } from '#test/helpers/app.js';
import { startDovecot } from '#test/helpers/dovecot.js';
import { type YahooUser, yahooUser } from '#test/helpers/yahoo-user.js';

// A rule's dry run (PUT /sender-rules/:id with dryRun): the Organise dialog shows what saving would do to
// the sender's mail before anything moves. On a real Dovecot: the counts equal what the real save then
// does, and the dry run itself moves no message, makes no folder, stores no rule.

const { dovecot } = peersForThisFile({ dovecot: () => startDovecot() });

describe.each(DIALECTS)("a rule's dry run on %s (Dovecot)", (dialect) => {
  const open: YahooUser[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  async function connected(messages: string[]) {
    const user = await yahooUser(dovecot, dialect, messages);
    open.push(user);
    const login = { user: user.email, password: user.password };
    const count = (folder: string) => dovecot.count(login, folder);
    const folders = () => dovecot.withClient(login, async (c) => (await c.list()).map((f) => f.path));
    return { ...user, count, folders };
  }

  it('answers what saving would do, changes nothing, and the save then does exactly that', async () => {
    const u = await connected([
      ...[1, 2, 3, 4, 5, 6].map((d) => news('daily@paper.example', `Day ${d}`, d)),
      news('other@shop.example', 'Other', 1),
    ]);
    const id = (await rowOf(u.client, 'daily@paper.example')).id;
    const rule = { folder: 'Papers', keepNewest: 2 };
    const foldersBefore = await u.folders();

    const dry = await u.client.call('PUT /sender-rules/:subscriptionId', {
      params: { subscriptionId: id },
      body: { rule, dryRun: true },
    });
    expect(dry).toEqual({
      rule: {
        folder: 'Papers',
        folderName: 'Papers',
        keepNewest: 2,
        expireAfterDays: null,
        expireAction: null,
      },
      applied: { moved: 2, trashed: 4, archived: 0 },
      examined: 6,
    });
    expect([await u.count('INBOX'), await u.count('Trash')]).toEqual([7, 0]);
    expect(await u.folders()).toEqual(foldersBefore);
    expect(await u.client.call('GET /sender-rules')).toEqual({ data: [] });
    expect(await u.t.db.selectFrom('moved_messages').selectAll().execute()).toEqual([]);

    const saved = await u.client.call('PUT /sender-rules/:subscriptionId', {
      params: { subscriptionId: id },
      body: { rule },
    });
    expect(saved.applied).toEqual(dry.applied);
    expect([await u.count('INBOX'), await u.count('Papers'), await u.count('Trash')]).toEqual([1, 2, 4]);
  });

  it('refuses as the save would: another user’s sender, and a rule that does nothing', async () => {
    const u = await connected([news('daily@paper.example', 'Day 1', 1)]);
    const stranger = await connected([news('weekly@mag.example', 'Week 1', 1)]);
    const theirs = (await rowOf(stranger.client, 'weekly@mag.example')).id;
    const answer = await u.client.call('PUT /sender-rules/:subscriptionId', {
      params: { subscriptionId: theirs },
      body: { rule: { keepNewest: 1 }, dryRun: true },
      status: 404,
    });
    expect(answer.message).toBeTruthy();
    const mine = (await rowOf(u.client, 'daily@paper.example')).id;
    await u.client.call('PUT /sender-rules/:subscriptionId', {
      params: { subscriptionId: mine },
      body: { rule: {}, dryRun: true },
      status: 400,
    });
    expect(await stranger.count('INBOX')).toBe(1);
  });
});
