import { describe, expect, it } from 'vitest';
import { GraphClient, microsoftBaseUrls } from '#server/mail/graph/client.js';
import { MailAuthError, MailConnectionError } from '#server/mail/provider.js';
import { withGraphFake } from '#test/fixtures/peers.js';
import type { FakeMailbox, FakeMessageInput } from '#test/helpers/graph-fake.js';
import { newGraphMailbox } from '#test/helpers/graph-user.js';

// The unsubscribe engine's mailbox actions for Outlook against the Graph fake written from
// Microsoft's documentation: sendMail, message move to Deleted Items, and an Inbox message rule.

const fake = withGraphFake();

const newMailbox = (label: string) =>
  newGraphMailbox(fake, label, { retry: { attempts: 3, backoffMs: 10, maxWaitMs: 50 } });

let minute = 0;
function from(address: string, subject = 'Deals'): FakeMessageInput {
  minute += 1;
  return {
    subject,
    from: { name: address.split('@')[0]!, address },
    receivedDateTime: new Date(Date.UTC(2025, 6, 1) + minute * 60_000).toISOString().replace('.000Z', 'Z'),
    headers: [{ name: 'From', value: address }],
  };
}

const userRequests = (box: FakeMailbox, since: number) =>
  fake.requests
    .filter((r) => r.userId === box.id && r.at >= since)
    .map((r) => `${r.method} ${decodeURIComponent(r.url)}`);

describe('send (the mailto request) with sendMail', () => {
  it('sends from the mailbox to the mailto address, subject and body, and keeps a copy in Sent Items', async () => {
    const t = newMailbox('send');
    const before = fake.sentMail.length;

    const result = await t.provider().send({ to: 'leave@news.example', subject: 'Remove me', text: 'Bye' });

    expect(result).toEqual({ accepted: true, response: 'Microsoft Graph sendMail: 202 Accepted' });
    expect(fake.sentMail.slice(before).map(({ at: _at, userId: _u, ...m }) => m)).toEqual([
      {
        from: t.email,
        to: ['leave@news.example'],
        subject: 'Remove me',
        body: { contentType: 'Text', content: 'Bye' },
        saveToSentItems: true,
      },
    ]);
    expect(t.box.messagesIn('sentitems').map((m) => m.subject)).toEqual(['Remove me']);
    expect(t.box.sendersIn('sentitems')).toEqual([t.email]);
  });

  it('does not send twice when Graph fails after taking the request (500), and says so', async () => {
    const t = newMailbox('send500');
    const before = fake.sentMail.length;
    fake.fault({ kind: 'error', count: 1, match: /^POST \/v1\.0\/me\/sendMail/ });
    const since = Date.now();

    await expect(
      t.provider().send({ to: 'a@b.example', subject: 'unsubscribe', text: '' }),
    ).rejects.toBeInstanceOf(MailConnectionError);
    expect(userRequests(t.box, since).filter((r) => r.startsWith('POST /v1.0/me/sendMail'))).toHaveLength(1);
    expect(fake.sentMail.length).toBe(before);
  });

  it('retries a throttled sendMail (429 is refused before any work) and sends once', async () => {
    const t = newMailbox('send429');
    const before = fake.sentMail.length;
    fake.fault({ kind: 'throttle', count: 1, retryAfter: 0, match: /^POST \/v1\.0\/me\/sendMail/ });

    expect((await t.provider().send({ to: 'a@b.example', subject: 'unsubscribe', text: '' })).accepted).toBe(
      true,
    );
    expect(fake.sentMail.length).toBe(before + 1);
  });

  it('reports a refused grant as MailAuthError', async () => {
    const t = newMailbox('sendauth');
    t.box.revokeGrants();
    await expect(
      t.provider().send({ to: 'a@b.example', subject: 'unsubscribe', text: '' }),
    ).rejects.toBeInstanceOf(MailAuthError);
  });
});

describe('block on Outlook', () => {
  it('moves that sender’s mail from the Inbox and a subfolder to Deleted Items, and nothing else', async () => {
    const t = newMailbox('move');
    const news = t.box.addFolder('Newsletters', 'inbox');
    for (let i = 0; i < 5; i++) t.box.addMessage('inbox', from('deals@shop.example'));
    for (let i = 0; i < 3; i++) t.box.addMessage(news, from('Deals@Shop.Example'));
    t.box.addMessage('inbox', from('hotdeals@shop.example'));
    t.box.addMessage('inbox', from('friend@example.org'));
    // Junk is not scanned: what is there stays there.
    t.box.addMessage('junkemail', from('deals@shop.example'));
    const since = Date.now();

    const result = await t.provider().moveToTrash({ from: 'deals@shop.example' });

    // One JSON batch of 8 moves.
    expect(result).toEqual({ moved: 8, calls: 1 });
    expect(t.box.sendersIn('deleteditems').sort()).toEqual([
      'Deals@Shop.Example',
      'Deals@Shop.Example',
      'Deals@Shop.Example',
      ...Array(5).fill('deals@shop.example'),
    ]);
    expect(t.box.sendersIn('inbox').sort()).toEqual(['friend@example.org', 'hotdeals@shop.example']);
    expect(t.box.sendersIn(news)).toEqual([]);
    expect(t.box.sendersIn('junkemail')).toEqual(['deals@shop.example']);
    const requests = userRequests(t.box, since);
    expect(requests.filter((r) => r === 'POST /v1.0/$batch')).toHaveLength(1);
    // The fake runs each batched request as if sent alone (and logs it).
    expect(requests.filter((r) => /^POST \/v1\.0\/me\/messages\/[^/]+\/move$/.test(r))).toHaveLength(8);
    expect(
      requests.some((r) => r.includes("$filter=from/emailAddress/address eq 'deals@shop.example'")),
    ).toBe(true);

    expect(await t.provider().moveToTrash({ from: 'deals@shop.example' })).toEqual({ moved: 0, calls: 0 });
  });

  it('moves 45 messages in batches of at most 20 and sends a throttled move again', async () => {
    const t = newMailbox('batch');
    for (let i = 0; i < 45; i++) t.box.addMessage('inbox', from('bulk@shop.example'));
    fake.fault({
      kind: 'throttle',
      count: 1,
      retryAfter: 0,
      match: /^POST \/v1\.0\/me\/messages\/[^/]+\/move/,
    });
    const since = Date.now();

    const result = await t.provider().moveToTrash({ from: 'bulk@shop.example' });

    // 20 + 20 + 5, plus one batch carrying the throttled move again.
    expect(result).toEqual({ moved: 45, calls: 4 });
    expect(t.box.messagesIn('inbox')).toEqual([]);
    expect(t.box.messagesIn('deleteditems')).toHaveLength(45);
    expect(userRequests(t.box, since).filter((r) => r === 'POST /v1.0/$batch')).toHaveLength(4);
  });

  it('the fake refuses a batch of more than 20 requests, as Graph does', async () => {
    const t = newMailbox('batchlimit');
    const token = await new GraphClient({
      refreshToken: t.refreshToken,
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      ...microsoftBaseUrls(fake.url),
    }).accessToken();
    const requests = Array.from({ length: 21 }, (_, n) => ({ id: String(n), method: 'GET', url: '/me' }));
    const res = await fetch(`${fake.url}/v1.0/$batch`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ requests }),
    });
    expect(res.status).toBe(400);
  });

  it('creates an Inbox rule moving the sender’s future mail to Deleted Items, once', async () => {
    const t = newMailbox('rule');

    const rule = await t.provider().createBlockRule('Deals@Shop.example');

    const trashId = t.box.wellKnown('deleteditems');
    expect(t.box.rules()).toEqual([
      {
        id: rule!.ref,
        displayName: 'Inbox Genie: block deals@shop.example',
        sequence: 1,
        isEnabled: true,
        conditions: { fromAddresses: [{ emailAddress: { address: 'deals@shop.example' } }] },
        actions: { moveToFolder: trashId, stopProcessingRules: true },
      },
    ]);
    // A retry finds the rule it made; another sender gets the next sequence.
    expect(await t.provider().createBlockRule('deals@shop.example')).toEqual(rule);
    await t.provider().createBlockRule('other@news.example');
    expect(t.box.rules().map((r) => r.sequence)).toEqual([1, 2]);

    // The fake applies the rule to new mail, as Exchange does on delivery.
    t.box.addMessage('inbox', from('deals@shop.example', 'After the block'));
    expect(t.box.messagesIn('deleteditems').map((m) => m.subject)).toEqual(['After the block']);
    expect(t.box.messagesIn('inbox')).toEqual([]);
  });
});

describe('fetchMessage (the preview) with /$value', () => {
  it('returns the MIME source of a message, and null once it is deleted', async () => {
    const t = await newMailbox('preview');
    const raw = 'From: News <news@daily.example>\r\nSubject: Hello\r\n\r\n<p>Preview body</p>\r\n';
    const id = t.box.addMessage('inbox', { ...from('news@daily.example', 'Hello'), raw });
    const since = Date.now();
    const got = await t.provider().fetchMessage(id);
    expect(got?.toString('utf8')).toBe(raw);
    expect(userRequests(t.box, since).filter((r) => r.startsWith('GET'))).toEqual([
      `GET /v1.0/me/messages/${id}/$value`,
    ]);
    t.box.deleteMessage(id);
    expect(await t.provider().fetchMessage(id)).toBeNull();
    expect(await t.provider().fetchMessage('AAMkADunknown')).toBeNull();
  });
});
