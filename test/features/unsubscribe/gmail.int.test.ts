import { beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '#server/lib/crypto.js';
import { withTestApp } from '#test/fixtures/app.js';
import { allIds, header } from '#test/fixtures/gmail.js';
import { consentWithGoogle, googleSignInEnv, signUpAndScan } from '#test/fixtures/oauth.js';
import { withGoogleEmulator } from '#test/fixtures/peers.js';
import { gmailAccount } from '#test/fixtures/sender-rules.js';
import { type Client, DIALECTS } from '#test/helpers/app.js';
import type { MessageSpec } from '#test/helpers/google-emulator.js';

// The unsubscribe engine end to end for Gmail: a user signed up with Google on @emulators/google
// (the product's own OAuth flow, as in test/features/oauth/google.int.test.ts), the mailbox scanned, then POST /unsubscribe;
// observed in the emulator's mailbox through another grant of the same account.

const emu = withGoogleEmulator();

const day = (n: number) => new Date(Date.UTC(2025, 8, 1, 9) - n * 86_400_000);

const consent = (authorizeUrl: string, email: string) => consentWithGoogle(emu, authorizeUrl, email);

describe.each(DIALECTS)('unsubscribing a Gmail mailbox on %s', (dialect) => {
  const t = withTestApp(dialect, () => googleSignInEnv(emu));
  let secrets: SecretBox;
  beforeAll(() => {
    secrets = new SecretBox(t.config.secretKey);
  });

  /** A user signed up with Google whose Gmail mailbox holds `specs`, scanned. */
  async function connected(label: string, specs: MessageSpec[]) {
    // The emulator's own grant of the account, to look at the mailbox afterwards.
    const { email, observer } = await gmailAccount(emu, label);
    const seeded = emu.insert(email, specs);
    const { client, byAddress } = await signUpAndScan(t.app, 'google', email, consent);
    return { client, email, observer, seeded, byAddress };
  }

  const unsubscribe = (client: Client, id: string) =>
    client.call('POST /unsubscribe', { body: { subscriptionId: id } });

  it('blocks a sender with only a List-Id: a TRASH filter for the address, its mail in the trash', async () => {
    const club = (subject: string, n: number): MessageSpec => ({
      from: 'Club <club@block.example>',
      subject,
      date: day(n),
      body: 'Club news.',
      listId: '<club.block.example>',
      labels: ['INBOX', 'CATEGORY_FORUMS'],
    });
    const friend: MessageSpec = {
      from: 'Friend <friend@example.org>',
      subject: 'Lunch?',
      date: day(1),
      body: 'Noon?',
    };
    const { client, observer, seeded, byAddress } = await connected('block', [
      club('One', 3),
      club('Two', 2),
      friend,
    ]);
    const id = byAddress('club@block.example').id;
    expect(await observer.listFilters()).toEqual([]);

    expect(await unsubscribe(client, id)).toMatchObject({
      subscriptionId: id,
      method: 'block',
      blockedAndTrashed: true,
    });

    const filters = await observer.listFilters();
    expect(filters).toHaveLength(1);
    expect(filters[0]!.criteria).toMatchObject({ from: 'club@block.example' });
    expect(filters[0]!.action?.addLabelIds).toContain('TRASH');
    const clubIds = seeded.filter((m) => m.from.includes('club@')).map((m) => m.id);
    const got = await observer.getMetadata(clubIds, ['From']);
    for (const mid of clubIds) {
      const labels = got.get(mid)?.labelIds ?? [];
      expect(labels).toContain('TRASH');
      expect(labels).not.toContain('INBOX');
    }
    // Nobody else's mail moved.
    const friendId = seeded.find((m) => m.from.includes('friend@'))!.id;
    expect((await observer.getMetadata([friendId], ['From'])).get(friendId)?.labelIds).toContain('INBOX');

    // Clicking again reports the same and blocks nothing more.
    expect(await unsubscribe(client, id)).toMatchObject({ method: 'block', blockedAndTrashed: true });
    expect(await observer.listFilters()).toHaveLength(1);
    const unsubscribed = (
      await client.call('GET /get-unsubscribe-emails', { query: { category: 'unsubscribed' } })
    ).data;
    expect(unsubscribed.map((s) => s.id)).toEqual([id]);

    // Keep lifts the block: the filter is deleted at Gmail.
    const kept = await client.post('/keep-subscription', { subscriptionId: id });
    expect(kept.json()).toMatchObject({ id, category: 'kept', blockLifted: true });
    expect(await observer.listFilters()).toEqual([]);
  });

  it('sends the mailto request from the user’s Gmail, once', async () => {
    const { client, email, observer, byAddress } = await connected('mailto', [
      {
        from: 'Digest <digest@mailto.example>',
        subject: 'Weekly',
        date: day(1),
        body: 'This week. To unsubscribe, write to us.',
        listUnsubscribe: '<mailto:leave@mailto.example?subject=remove%20me&body=please>',
        labels: ['INBOX', 'CATEGORY_UPDATES'],
      },
    ]);
    const id = byAddress('digest@mailto.example').id;
    expect(await allIds(observer, 'in:sent')).toEqual([]);

    expect(await unsubscribe(client, id)).toMatchObject({
      method: 'mailto',
      oneClickUnsubscribeSuccess: true,
    });
    expect(await unsubscribe(client, id)).toMatchObject({
      method: 'mailto',
      oneClickUnsubscribeSuccess: true,
    });

    const sent = await allIds(observer, 'in:sent');
    expect(sent).toHaveLength(1);
    const message = (await observer.getMetadata(sent, ['From', 'To', 'Subject'])).get(sent[0]!) ?? null;
    expect(message?.labelIds).toContain('SENT');
    expect(header(message, 'From')).toBe(email);
    expect(header(message, 'To')).toBe('leave@mailto.example');
    expect(header(message, 'Subject')).toBe('remove me');
  });

  it('answers authUrl when the grant was revoked', async () => {
    const { client, email, byAddress } = await connected('revoked', [
      {
        from: 'Digest <digest@revoked.example>',
        subject: 'Weekly',
        date: day(1),
        body: 'This week. To unsubscribe, write to us.',
        listUnsubscribe: '<mailto:leave@revoked.example>',
        labels: ['INBOX', 'CATEGORY_UPDATES'],
      },
    ]);
    const id = byAddress('digest@revoked.example').id;
    const [mailbox] = await t.db
      .selectFrom('mailboxes')
      .select(['id', 'secret'])
      .where('email', '=', email)
      .execute();
    await emu.revoke(secrets.open(mailbox!.secret!));

    const result = await unsubscribe(client, id);
    expect(result).toMatchObject({ subscriptionId: id, authUrl: '/auth/google?intent=add' });
    expect(result.oneClickUnsubscribeSuccess).toBe(false);
    const [after] = await t.db
      .selectFrom('mailboxes')
      .select('status')
      .where('id', '=', mailbox!.id)
      .execute();
    expect(after!.status).toBe('reauth');
  });
});
