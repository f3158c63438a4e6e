import { describe, expect, it } from 'vitest';
import type { GmailProvider } from '#server/mail/gmail/adapter.js';
import { GmailApiError } from '#server/mail/gmail/api.js';
import type { GmailClient } from '#server/mail/gmail/client.js';
import { googleEndpoints, refreshAccessToken } from '#server/mail/gmail/google-oauth.js';
import { allIds, header, newGmailMailbox } from '#test/fixtures/gmail.js';
import { withGoogleEmulator } from '#test/fixtures/peers.js';
import type { MessageSpec } from '#test/helpers/google-emulator.js';

// The unsubscribe engine's mailbox actions for Gmail against @emulators/google: the mailto request
// through messages.send, block = settings.filters.create + batchModify of the sender's existing mail.

const emu = withGoogleEmulator();

interface Mailbox {
  email: string;
  refreshToken: string;
  provider: GmailProvider;
  /** Another client on the same grant, to look at the mailbox afterwards. */
  observer: GmailClient;
  /** Every call the provider made, as `METHOD path`. */
  calls: string[];
}

async function newMailbox(label: string): Promise<Mailbox> {
  const calls: string[] = [];
  const counting: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    return fetch(input, init);
  };
  return { ...(await newGmailMailbox(emu, label, counting)), calls };
}

let clock = Date.UTC(2025, 0, 1);
function specs(from: string, count: number, extra: Partial<MessageSpec> = {}): MessageSpec[] {
  return Array.from({ length: count }, (_, n) => {
    clock += 60_000;
    return { from, subject: `Issue ${n + 1}`, date: new Date(clock), body: 'Weekly deals.', ...extra };
  });
}

async function labelsOf(client: GmailClient, ids: string[]): Promise<string[][]> {
  const got = await client.getMetadata(ids, ['From']);
  return ids.map((id) => [...(got.get(id)?.labelIds ?? [])].sort());
}

describe('send (the mailto request) with messages.send', () => {
  it('sends from the user with the mailto’s To, Subject and body, filed under SENT', async () => {
    const box = await newMailbox('send');

    const result = await box.provider.send({
      to: 'leave@news.example',
      subject: 'Remove me',
      text: 'Please unsubscribe me',
    });

    expect(result.accepted).toBe(true);
    expect(box.calls.filter((c) => c.startsWith('POST /gmail/'))).toEqual([
      'POST /gmail/v1/users/me/messages/send',
    ]);
    const sent = await allIds(box.observer, 'in:sent');
    expect(sent).toHaveLength(1);
    expect(result.response).toContain(sent[0]);
    const message = (await box.observer.getMetadata(sent, ['From', 'To', 'Subject'])).get(sent[0]!) ?? null;
    expect(message?.labelIds).toContain('SENT');
    expect(message?.labelIds).not.toContain('INBOX');
    expect(header(message, 'From')).toBe(box.email);
    expect(header(message, 'To')).toBe('leave@news.example');
    expect(header(message, 'Subject')).toBe('Remove me');
    const raw = await fetchRaw(box, sent[0]!);
    expect(raw).toMatch(/\r?\n\r?\nPlease unsubscribe me/);
  });
});

async function fetchRaw(box: Mailbox, id: string): Promise<string> {
  const token = await tokenFor(box);
  const res = await fetch(`${emu.baseUrl}/gmail/v1/users/me/messages/${id}?format=raw`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { raw: string };
  return Buffer.from(body.raw, 'base64url').toString('utf8');
}

async function tokenFor(box: Mailbox): Promise<string> {
  const access = await refreshAccessToken({
    endpoints: googleEndpoints(emu.baseUrl),
    clientId: emu.clientId,
    clientSecret: emu.clientSecret,
    refreshToken: box.refreshToken,
  });
  return access.token;
}

describe('block on Gmail', () => {
  it('trashes a sender’s 2,500 messages with exactly 3 batchModify calls', async () => {
    const box = await newMailbox('block');
    emu.insert(
      box.email,
      specs('Deals <deals@shop.example>', 2500, { labels: ['INBOX', 'CATEGORY_PROMOTIONS'] }),
    );
    emu.insert(box.email, specs('Friend <friend@example.org>', 5));
    const before = await allIds(box.observer, 'from:deals@shop.example');
    expect(before).toHaveLength(2500);

    const result = await box.provider.moveToTrash({ from: 'deals@shop.example' });

    const modifies = box.calls.filter((c) => c === 'POST /gmail/v1/users/me/messages/batchModify');
    expect(modifies).toHaveLength(3);
    expect(result).toEqual({ moved: 2500, calls: 3 });
    // 5 listing pages × 5 units + 2,500 From checks (metadata gets) × 5 units + 3 batchModify × 50 units.
    expect(box.provider.quotaUnitsSpent()).toBe(12_675);
    // Listing: 5 pages of 500 ids; the From of each, 50 to a batch request.
    expect(box.calls.filter((c) => c === 'GET /gmail/v1/users/me/messages')).toHaveLength(5);
    expect(box.calls.filter((c) => c.startsWith('POST /batch/'))).toHaveLength(50);
    const labels = await labelsOf(box.observer, before);
    expect(labels.every((l) => l.includes('TRASH') && !l.includes('INBOX'))).toBe(true);
    expect(labels[0]).toEqual(['CATEGORY_PROMOTIONS', 'TRASH']);
    expect(await box.observer.listAllIds('from:deals@shop.example')).toEqual([]);
    // Nobody else's mail moved.
    const friend = await allIds(box.observer, 'from:friend@example.org');
    expect(
      (await labelsOf(box.observer, friend)).every((l) => l.includes('INBOX') && !l.includes('TRASH')),
    ).toBe(true);
  });

  it('trashes only mail whose From is exactly the sender: not a longer address, nor a name that spells it', async () => {
    const box = await newMailbox('exact');
    const own = emu.insert(box.email, specs('Shop <a@shop.example>', 3, { labels: ['INBOX'] }));
    const archived = emu.insert(box.email, specs('a@shop.example', 1, { labels: [] }));
    const others = [
      ...emu.insert(box.email, specs('Data <data@shop.example>', 2, { labels: ['INBOX'] })),
      ...emu.insert(box.email, specs('"a@shop.example" <phish@evil.example>', 2, { labels: ['INBOX'] })),
      ...emu.insert(box.email, specs('Friend <friend@example.org>', 1, { labels: ['INBOX'] })),
    ];
    // What from: finds is wider than the sender (the emulator: a substring of the From header; Gmail: its
    // tokens, the display name included).
    expect(await box.observer.listAllIds('from:a@shop.example')).toHaveLength(8);

    const moved: { id: string; origin: string }[] = [];
    const result = await box.provider.moveToTrash({ from: 'A@shop.example' }, async (m) => {
      moved.push(...m);
    });

    expect(result.moved).toBe(4);
    expect(new Set(moved.map((m) => m.id))).toEqual(new Set([...own, ...archived].map((m) => m.id)));
    // Where each was: undo puts the inbox's back in the inbox, the archived one stays archived.
    expect(
      moved
        .filter((m) => m.origin === 'INBOX')
        .map((m) => m.id)
        .sort(),
    ).toEqual(own.map((m) => m.id).sort());
    const mine = await labelsOf(
      box.observer,
      [...own, ...archived].map((m) => m.id),
    );
    expect(mine.every((l) => l.includes('TRASH') && !l.includes('INBOX'))).toBe(true);
    const theirs = await labelsOf(
      box.observer,
      others.map((m) => m.id),
    );
    expect(theirs.every((l) => l.includes('INBOX') && !l.includes('TRASH'))).toBe(true);

    // Undo: back where each was.
    const restored = await box.provider.restoreFromTrash({ from: 'a@shop.example', messages: moved });
    expect(restored).toEqual({ restored: 4, missing: 0 });
    expect(
      (
        await labelsOf(
          box.observer,
          own.map((m) => m.id),
        )
      ).every((l) => l.includes('INBOX')),
    ).toBe(true);
  });

  it('the emulator refuses more than 1,000 ids in one batchModify, as Gmail does', async () => {
    const box = await newMailbox('limit');
    const ids = emu.insert(box.email, specs('x@y.example', 1001)).map((m) => m.id);
    const failure = await box.observer.batchModify(ids, ['TRASH'], ['INBOX']).catch((e) => e);
    // The client guards the limit itself; the emulator is checked directly.
    expect(failure).toBeInstanceOf(Error);
    const res = await fetch(`${emu.baseUrl}/gmail/v1/users/me/messages/batchModify`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await tokenFor(box)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ids, addLabelIds: ['TRASH'] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'Number of ids cannot exceed 1000',
    );
  });

  it('creates a filter that trashes the sender’s future mail, once', async () => {
    const box = await newMailbox('filter');

    const rule = await box.provider.createBlockRule('Deals@Shop.example');

    expect(rule?.ref).toBeTruthy();
    const filters = await box.observer.listFilters();
    expect(filters).toEqual([
      {
        id: rule!.ref,
        criteria: { from: 'deals@shop.example' },
        action: { addLabelIds: ['TRASH'], removeLabelIds: ['INBOX'] },
      },
    ]);
    // Blocking again (a retry) finds the same filter instead of failing or adding one.
    expect(await box.provider.createBlockRule('deals@shop.example')).toEqual(rule);
    expect(await box.observer.listFilters()).toHaveLength(1);

    // The next message from the sender lands in the trash.
    const [next] = emu.insert(box.email, specs('Deals <deals@shop.example>', 1));
    expect((await labelsOf(box.observer, [next!.id]))[0]).toEqual(['TRASH', 'UNREAD']);
  });

  it('passes other filter failures on', async () => {
    const box = await newMailbox('badlabel');
    // A filter the emulator refuses for another reason than a duplicate (unknown label) is not swallowed.
    await expect(
      box.observer.createFilter({
        criteria: { from: 'a@b.example' },
        action: { addLabelIds: ['Label_nope'] },
      }),
    ).rejects.toBeInstanceOf(GmailApiError);
  });

  it('fetches a message’s raw source with messages.get format=raw, and null for an unknown id', async () => {
    const box = await newMailbox('raw');
    const [seeded] = emu.insert(
      box.email,
      specs('News <news@daily.example>', 1, { body: 'The preview body.' }),
    );
    const raw = await box.provider.fetchMessage(seeded!.id);
    expect(raw).toBeInstanceOf(Buffer);
    const text = raw!.toString('utf8');
    expect(text).toContain('From: News <news@daily.example>');
    expect(text).toContain('The preview body.');
    expect(box.calls.filter((c) => c.includes('/messages/'))).toEqual([
      `GET /gmail/v1/users/me/messages/${seeded!.id}`,
    ]);
    expect(await box.provider.fetchMessage('0123456789abcdef')).toBeNull();
  });
});
