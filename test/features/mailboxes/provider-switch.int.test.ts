import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTestApp } from '#test/fixtures/app.js';
import { DEV_LIST, dailyNews } from '#test/fixtures/gmail.js';
import { BOTH_OUTLOOK_CALLBACK, bothSignInEnv, throughProvider } from '#test/fixtures/oauth.js';
import { outlookMessage } from '#test/fixtures/outlook.js';
import { withGoogleEmulator, withGraphFake } from '#test/fixtures/peers.js';
import { Client, DIALECTS } from '#test/helpers/app.js';

// One address connected as an Outlook mailbox (the Graph fake), then again through Google (the emulator):
// the mailbox starts over on Gmail and its scan runs in full by itself, also when the Outlook scan was
// still running at the switch. And a mailbox whose checkpoint its adapter cannot use (another adapter's,
// unreadable) gets a full scan at its next check instead of an error.

const emu = withGoogleEmulator();
const fake = withGraphFake({ redirectUris: [BOTH_OUTLOOK_CALLBACK] });

const day = (n: number) => new Date(Date.UTC(2025, 8, 1, 9) - n * 86_400_000);

const OUTLOOK_SENDERS = [
  ['letters@outlook-only.example', 1],
  ['news@outlook-only.example', 2],
];
const GMAIL_SENDERS = [
  ['dev@lists.example', 2],
  ['news@daily.example', 2],
];

/** `email` on both: Outlook with a newsletter in Inbox and one in a folder of its own, Gmail with two others. */
async function bothMailboxes(label: string): Promise<string> {
  const email = `${label}-${randomBytes(4).toString('hex')}@switch.test`;
  const box = fake.addUser(email);
  const unsub = [{ name: 'List-Unsubscribe', value: '<https://outlook-only.example/u>' }];
  const news = { name: 'Old News', address: 'news@outlook-only.example' };
  box.addMessage(box.wellKnown('inbox'), outlookMessage(news, 'Old 2', 1, unsub));
  box.addMessage(box.wellKnown('inbox'), outlookMessage(news, 'Old 1', 2, unsub));
  const letters = { name: 'Letters', address: 'letters@outlook-only.example' };
  box.addMessage(box.addFolder('Letters'), outlookMessage(letters, 'Letter', 3, unsub));
  await emu.addUser(email);
  const daily = dailyNews();
  const dev = DEV_LIST;
  emu.insert(email, [
    { ...daily, subject: 'News 2', date: day(1) },
    { ...dev, subject: 'Release 2.1', date: day(2) },
    { ...daily, subject: 'News 1', date: day(3) },
    { ...dev, subject: 'Release 2.0', date: day(4) },
  ]);
  return email;
}

describe.each(DIALECTS)('an address connected again through another provider on %s', (dialect) => {
  const t = withTestApp(dialect, () => bothSignInEnv(emu, fake));

  /** Signs in (or adds) `email` through the provider's consent; its scan is queued, not awaited. */
  async function connect(client: Client, provider: 'google' | 'outlook', intent: string, email: string) {
    const done = await throughProvider({ emu, fake }, client, provider, intent, email);
    expect(done.headers.location).toBe('/genie/subscriptions');
  }

  const mailboxOf = async (email: string) =>
    t.db
      .selectFrom('mailboxes')
      .select(['id', 'provider', 'status', 'last_error', 'scan_complete'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
  const listed = async (client: Client) =>
    (await client.call('GET /get-unsubscribe-emails')).data
      .map((s) => [s.address, s.messageCount])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  const scanned = (provider: string) => ({ provider, status: 'active', last_error: null, scan_complete: 1 });

  async function check(mailboxId: string) {
    await t.app.jobs.enqueue('scan-mailbox', { mailboxId }, { key: `mailbox:${mailboxId}` });
    await t.app.jobs.idle();
  }

  it.each(['signin', 'add'])(
    'scans the Gmail mailbox in full after Outlook was scanned (%s)',
    async (intent) => {
      const email = await bothMailboxes(intent);
      const client = new Client(t.app);
      await connect(client, 'outlook', 'signup', email);
      await t.app.jobs.idle();
      expect(await mailboxOf(email)).toMatchObject(scanned('outlook'));
      expect(await listed(client)).toEqual(OUTLOOK_SENDERS);

      const again = intent === 'signin' ? new Client(t.app) : client;
      await connect(again, 'google', intent, email);
      await t.app.jobs.idle();
      expect(await mailboxOf(email)).toMatchObject(scanned('gmail'));
      expect(await listed(again)).toEqual(GMAIL_SENDERS);
    },
  );

  it('scans the Gmail mailbox in full when Google signs in while the Outlook scan runs', async () => {
    const email = await bothMailboxes('midscan');
    // The Outlook scan stops after its first folder's messages, waiting out a throttled delta round.
    const delta = /^GET \/v1\.0\/me\/mailFolders\/[^/]+\/messages\/delta/;
    const before = fake.requests.length;
    const deltas = () => fake.requests.slice(before).filter((r) => delta.test(`${r.method} ${r.url}`));
    fake.fault({ kind: 'throttle', count: 1, retryAfter: 3, match: delta });
    const first = new Client(t.app);
    await connect(first, 'outlook', 'signup', email);
    await expect.poll(() => deltas().map((r) => r.status), { timeout: 5_000 }).toEqual([429]);

    const client = new Client(t.app);
    await connect(client, 'google', 'signin', email);
    // Still waiting: the Outlook run goes on after the switch, and Gmail's scan is queued behind it.
    expect(deltas()).toHaveLength(1);
    expect(await mailboxOf(email)).toMatchObject({ provider: 'gmail', scan_complete: 0 });
    await t.app.jobs.idle();
    expect(deltas().length).toBeGreaterThan(1);
    expect(await mailboxOf(email)).toMatchObject(scanned('gmail'));
    expect(await listed(client)).toEqual(GMAIL_SENDERS);
  });

  it('runs a full scan at the check of a mailbox whose checkpoint is not its adapter’s', async () => {
    const email = await bothMailboxes('foreign');
    const client = new Client(t.app);
    await connect(client, 'google', 'signup', email);
    await t.app.jobs.idle();
    const gmail = await mailboxOf(email);
    const graphState = { v: 1, kind: 'graph', folders: {}, scanned: 3 };
    for (const state of [graphState, { v: 1, provider: 'gmail', historyId: 'lost' }]) {
      await t.db
        .updateTable('mailboxes')
        .set({ sync_state: JSON.stringify(state) })
        .where('id', '=', gmail.id)
        .execute();
      await check(gmail.id);
      expect(await mailboxOf(email)).toMatchObject(scanned('gmail'));
      // Read afresh, and nothing counted twice.
      expect(await listed(client)).toEqual(GMAIL_SENDERS);
    }

    const other = await bothMailboxes('foreign-outlook');
    const owner = new Client(t.app);
    await connect(owner, 'outlook', 'signup', other);
    await t.app.jobs.idle();
    const outlook = await mailboxOf(other);
    for (const state of [{ v: 1, provider: 'gmail', historyId: '7', scan: null, skipIds: [] }, { v: 9 }]) {
      await t.db
        .updateTable('mailboxes')
        .set({ sync_state: JSON.stringify(state) })
        .where('id', '=', outlook.id)
        .execute();
      await check(outlook.id);
      expect(await mailboxOf(other)).toMatchObject(scanned('outlook'));
      expect(await listed(owner)).toEqual(OUTLOOK_SENDERS);
    }
  });
});
