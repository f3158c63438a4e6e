import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTestApp } from '#test/fixtures/app.js';
import {
  consentWithMicrosoft,
  MICROSOFT_CALLBACK,
  microsoftSignInEnv,
  signUpAndScan,
} from '#test/fixtures/oauth.js';
import { outlookMessage } from '#test/fixtures/outlook.js';
import { withGraphFake } from '#test/fixtures/peers.js';
import { type Client, DIALECTS } from '#test/helpers/app.js';
import type { FakeMessageInput } from '#test/helpers/graph-fake.js';

// The unsubscribe engine end to end for Outlook: a user signed up with Microsoft on the Graph /
// identity platform fake (the product's own OAuth flow, as in test/features/oauth/outlook.int.test.ts), the mailbox
// scanned, then POST /unsubscribe; observed in the fake's mailbox (rules, folders, recorded sendMail).

const fake = withGraphFake({ redirectUris: [MICROSOFT_CALLBACK] });

const consent = (authorizeUrl: string, email: string) => consentWithMicrosoft(authorizeUrl, email);

describe.each(DIALECTS)('unsubscribing an Outlook mailbox on %s', (dialect) => {
  const t = withTestApp(dialect, () => microsoftSignInEnv(fake));

  /** A user signed up with Microsoft whose Inbox holds `messages`, scanned. */
  async function connected(label: string, messages: FakeMessageInput[]) {
    const email = `${label}-${randomBytes(4).toString('hex')}@outlook.test`;
    const box = fake.addUser(email);
    const inbox = box.wellKnown('inbox');
    for (const m of messages) box.addMessage(inbox, m);
    const { client, byAddress } = await signUpAndScan(t.app, 'outlook', email, consent);
    return { client, email, box, byAddress };
  }

  const unsubscribe = (client: Client, id: string) =>
    client.call('POST /unsubscribe', { body: { subscriptionId: id } });

  it('blocks a sender with only a List-Id: an Inbox rule for the address, its mail in Deleted Items', async () => {
    const club = { name: 'Club', address: 'club@block.example' };
    const listId = [{ name: 'List-Id', value: '<club.block.example>' }];
    const friend = { name: 'Friend', address: 'friend@example.org' };
    const { client, box, byAddress } = await connected('block', [
      outlookMessage(club, 'One', 3, listId),
      outlookMessage(club, 'Two', 2, listId),
      outlookMessage(friend, 'Lunch?', 1),
    ]);
    const id = byAddress('club@block.example').id;
    expect(box.rules()).toEqual([]);

    expect(await unsubscribe(client, id)).toMatchObject({
      subscriptionId: id,
      method: 'block',
      blockedAndTrashed: true,
    });

    const rules = box.rules();
    expect(rules).toHaveLength(1);
    expect(rules[0]!.isEnabled).toBe(true);
    expect(rules[0]!.conditions.fromAddresses?.map((a) => a.emailAddress.address.toLowerCase())).toEqual([
      'club@block.example',
    ]);
    expect(rules[0]!.actions.moveToFolder ?? rules[0]!.actions.delete).toBeTruthy();
    expect(box.sendersIn(box.wellKnown('deleteditems')).map((a) => a.toLowerCase())).toEqual([
      'club@block.example',
      'club@block.example',
    ]);
    expect(box.sendersIn(box.wellKnown('inbox')).map((a) => a.toLowerCase())).toEqual(['friend@example.org']);

    // Clicking again reports the same and blocks nothing more.
    expect(await unsubscribe(client, id)).toMatchObject({ method: 'block', blockedAndTrashed: true });
    expect(box.rules()).toHaveLength(1);
    const unsubscribed = (
      await client.call('GET /get-unsubscribe-emails', { query: { category: 'unsubscribed' } })
    ).data;
    expect(unsubscribed.map((s) => s.id)).toEqual([id]);

    // Keep lifts the block: the Inbox rule is deleted at the provider.
    const kept = await client.post('/keep-subscription', { subscriptionId: id });
    expect(kept.json()).toMatchObject({ id, category: 'kept', blockLifted: true });
    expect(box.rules()).toEqual([]);
  });

  it('sends the mailto request from the user’s Outlook mailbox, once', async () => {
    const digest = { name: 'Digest', address: 'digest@mailto.example' };
    const { client, email, box, byAddress } = await connected('mailto', [
      outlookMessage(digest, 'Weekly', 1, [
        { name: 'List-Unsubscribe', value: '<mailto:leave@mailto.example?subject=remove%20me&body=please>' },
      ]),
    ]);
    const id = byAddress('digest@mailto.example').id;
    const sentBy = () => fake.sentMail.filter((m) => m.userId === box.id);
    expect(sentBy()).toEqual([]);

    expect(await unsubscribe(client, id)).toMatchObject({
      method: 'mailto',
      oneClickUnsubscribeSuccess: true,
    });
    expect(await unsubscribe(client, id)).toMatchObject({
      method: 'mailto',
      oneClickUnsubscribeSuccess: true,
    });

    const sent = sentBy();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ from: email, to: ['leave@mailto.example'], subject: 'remove me' });
    expect(sent[0]!.body.content).toContain('please');
  });

  it('answers authUrl when the grant was revoked', async () => {
    const digest = { name: 'Digest', address: 'digest@revoked.example' };
    const { client, email, box, byAddress } = await connected('revoked', [
      outlookMessage(digest, 'Weekly', 1, [
        { name: 'List-Unsubscribe', value: '<mailto:leave@revoked.example>' },
      ]),
    ]);
    const id = byAddress('digest@revoked.example').id;
    box.revokeGrants();

    const result = await unsubscribe(client, id);
    expect(result).toMatchObject({ subscriptionId: id, authUrl: '/auth/outlook?intent=add' });
    expect(result.oneClickUnsubscribeSuccess).toBe(false);
    expect(fake.sentMail.filter((m) => m.userId === box.id)).toEqual([]);
    const [after] = await t.db.selectFrom('mailboxes').select('status').where('email', '=', email).execute();
    expect(after!.status).toBe('reauth');
  });
});
