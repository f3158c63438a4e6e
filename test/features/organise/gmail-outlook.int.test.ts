import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Subscription } from '#contract/api.js';
import { GraphClient, microsoftBaseUrls } from '#server/mail/graph/client.js';
import { withTestApp } from '#test/fixtures/app.js';
import {
  consentWithGoogle,
  consentWithMicrosoft,
  googleSignInEnv,
  MICROSOFT_CALLBACK,
  microsoftSignInEnv,
  signUpAndScan,
} from '#test/fixtures/oauth.js';
import { peersForThisFile } from '#test/fixtures/peers.js';
import { checkMailbox, folderRule, gmailAccount, rowOf } from '#test/fixtures/sender-rules.js';
import { type Client, DIALECTS, type TestApp } from '#test/helpers/app.js';
import type { MessageSpec } from '#test/helpers/google-emulator.js';
import { startGoogleEmulator } from '#test/helpers/google-emulator.js';
import { type FakeMessageInput, startGraphFake } from '#test/helpers/graph-fake.js';

// Sender rules and the Screener through the API on Gmail (@emulators/google) and Outlook (the Graph fake),
// as rules.int.test.ts does on Dovecot: a folder rule made at once with the provider's own filter filing
// later mail, keepNewest and expireAfterDays to the archive or the trash, each undone, and the Screener
// taking a new list sender's mail and giving it back on Keep or when switched off. Each scenario is written
// once over a driver per provider (how mail is delivered, where it is, the provider's own rule), observed
// in the emulator's and the fake's mailboxes: labels exact on Gmail, folders and messageRules on Outlook.

const { emu, fake } = peersForThisFile({
  emu: () => startGoogleEmulator(),
  fake: () => startGraphFake({ redirectUris: [MICROSOFT_CALLBACK] }),
});

const DAY = 86_400_000;
/** Rules age mail against the real clock, so messages are dated from now. */
const ago = (days: number) => new Date(Date.now() - days * DAY);

/** A message written once for both providers: a list sender's (with List-Unsubscribe) or a friend's. */
interface Mail {
  address: string;
  subject: string;
  days: number;
  list: boolean;
}
const news = (address: string, subject: string, days: number): Mail => ({
  address,
  subject,
  days,
  list: true,
});
const LUNCH: Mail = { address: 'friend@mail.example', subject: 'Lunch?', days: 0, list: false };

/** What each scenario sees in the provider's own mailbox, each with the provider's exact assertions. */
interface Observations {
  /** The rule's `folder` as the API answers for a folder it made under `name`. */
  ruleFolder(name: string): Promise<string>;
  folder: { filed(): Promise<void>; undone(): Promise<void> };
  later: { filedOnArrival(): Promise<void>; restored(): Promise<void> };
  keepFolder: { oldestTrashed(): Promise<void>; restored(): Promise<void> };
  keep: { oldestTrashed(): Promise<void>; restored(): Promise<void> };
  expire: { archived(): Promise<void>; trashed(): Promise<void>; restored(): Promise<void> };
  screener: {
    screened(): Promise<void>;
    kept(): Promise<void>;
    screenedAgain(): Promise<void>;
    released(): Promise<void>;
  };
}

/** A user signed up with the provider and scanned, the same for every scenario. */
interface User {
  email: string;
  client: Client;
  deliver(...mail: Mail[]): void;
  /** Runs the check for new mail once, as the scheduler would. */
  check(): Promise<void>;
  row(address: string): Promise<Subscription>;
  see: Observations;
}

interface Driver {
  provider: 'Gmail' | 'Outlook';
  /** The provider's words in the scenarios' names. */
  words: { newFolder: string; rule: string; trash: string; inbox: string; screened: string };
  env(): Record<string, string>;
  connect(t: TestApp, label: string, mail: Mail[]): Promise<User>;
}

/** The parts of a user every provider shares, once the provider signed it up. */
function userOf(t: TestApp, email: string, client: Client) {
  return {
    email,
    client,
    check: () => checkMailbox(t, email),
    row: (address: string) => rowOf(client, address),
  };
}

const gmail: Driver = {
  provider: 'Gmail',
  words: {
    newFolder: 'under a new label with a filter',
    rule: 'filter',
    trash: 'the trash',
    inbox: 'inbox',
    screened: 'under Screener',
  },
  env: () => googleSignInEnv(emu),
  /** Gmail holds `mail`; the emulator's own grant looks on, by message id. */
  async connect(t, label, mail) {
    const spec = (m: Mail): MessageSpec =>
      m.list
        ? {
            from: `News <${m.address}>`,
            subject: m.subject,
            date: ago(m.days),
            // The scan's first discovery search is for this word.
            body: 'This week. To unsubscribe, write to us.',
            listUnsubscribe: `<mailto:leave@${m.address.split('@')[1]}>`,
            labels: ['INBOX', 'UNREAD'],
          }
        : { from: `Friend <${m.address}>`, subject: m.subject, date: ago(m.days), body: 'Noon?' };
    const { email, observer } = await gmailAccount(emu, label);
    const inserted = emu.insert(email, mail.map(spec));
    const { client } = await signUpAndScan(t.app, 'google', email, (url, who) =>
      consentWithGoogle(emu, url, who),
    );
    /** Ids of a sender's messages, in the order they were put in. */
    const ids = (address: string) => inserted.filter((m) => m.from.includes(`<${address}>`)).map((m) => m.id);
    const idsOf = (...subjects: string[]) =>
      subjects.map((s) => {
        const found = inserted.find((m) => m.subject === s);
        if (!found) throw new Error(`No message "${s}"`);
        return found.id;
      });
    /** Each message's labels, sorted. */
    const labels = async (messageIds: string[]) => {
      const got = await observer.getMetadata(messageIds, ['From']);
      return messageIds.map((id) => [...(got.get(id)?.labelIds ?? [])].sort());
    };
    /** How many of the messages carry `label`. */
    const carrying = async (messageIds: string[], label: string) =>
      (await labels(messageIds)).filter((l) => l.includes(label)).length;
    const labelId = async (name: string) => (await observer.listLabels()).find((l) => l.name === name)?.id;
    const inbox = ['INBOX', 'UNREAD'];
    const see: Observations = {
      async ruleFolder(name) {
        const label = await labelId(name);
        expect(label).toMatch(/^Label_/);
        return label!;
      },
      folder: {
        async filed() {
          const label = await labelId('Newsletters');
          expect(await labels(ids('deals@shop.example'))).toEqual([
            [label, 'UNREAD'],
            [label, 'UNREAD'],
          ]);
          expect(await carrying(ids('other@shop.example'), 'INBOX')).toBe(1);
          expect(await observer.listFilters()).toEqual([
            {
              id: expect.any(String),
              criteria: { from: 'deals@shop.example' },
              action: { addLabelIds: [label], removeLabelIds: ['INBOX'] },
            },
          ]);
        },
        async undone() {
          expect(await labels(ids('deals@shop.example'))).toEqual([inbox, inbox]);
          expect(await observer.listFilters()).toEqual([]);
        },
      },
      later: {
        async filedOnArrival() {
          expect(await labels(idsOf('C'))).toEqual([[await labelId('Deals'), 'UNREAD']]);
        },
        async restored() {
          expect(await carrying(ids('deals@shop.example'), 'INBOX')).toBe(3);
        },
      },
      keepFolder: {
        async oldestTrashed() {
          const label = await labelId('Deals');
          // C filed by the filter, then the oldest (A) trashed: two kept under Deals.
          expect(await carrying(idsOf('A'), 'TRASH')).toBe(1);
          expect(await labels(idsOf('B', 'C'))).toEqual([
            [label, 'UNREAD'],
            [label, 'UNREAD'],
          ]);
        },
        async restored() {
          // A went under Deals and then to the trash: put back, it is in the inbox and under no rule's label.
          expect(await labels(idsOf('A', 'B'))).toEqual([inbox, inbox]);
        },
      },
      keep: {
        async oldestTrashed() {
          // Seeded newest first (1 day ago first): the three oldest went to the trash.
          expect(await labels(ids('daily@paper.example'))).toEqual([
            inbox,
            inbox,
            ['TRASH', 'UNREAD'],
            ['TRASH', 'UNREAD'],
            ['TRASH', 'UNREAD'],
          ]);
        },
        async restored() {
          const all = ids('daily@paper.example');
          expect([await carrying(all, 'INBOX'), await carrying(all, 'TRASH')]).toEqual([5, 0]);
        },
      },
      expire: {
        async archived() {
          // Gmail's archive is mail without INBOX (and not in the trash).
          expect(await labels(ids('weekly@mag.example'))).toEqual([['UNREAD'], ['UNREAD'], inbox]);
        },
        async trashed() {
          expect(await labels(ids('monthly@mag.example'))).toEqual([['TRASH', 'UNREAD'], inbox]);
        },
        async restored() {
          expect(await labels([...ids('weekly@mag.example'), ...ids('monthly@mag.example')])).toEqual(
            Array(5).fill(inbox),
          );
        },
      },
      screener: {
        async screened() {
          const screener = await labelId('Screener');
          expect(screener).toBeDefined();
          expect(await labels(ids('fresh@new.example'))).toEqual([
            [screener, 'UNREAD'],
            [screener, 'UNREAD'],
          ]);
          expect(await carrying([...ids('friend@mail.example'), ...ids('known@shop.example')], 'INBOX')).toBe(
            2,
          );
        },
        async kept() {
          expect(await labels(ids('fresh@new.example'))).toEqual([inbox, inbox]);
        },
        async screenedAgain() {
          expect(await labels(ids('second@new.example'))).toEqual([[await labelId('Screener'), 'UNREAD']]);
        },
        async released() {
          expect(await labels(ids('second@new.example'))).toEqual([inbox]);
        },
      },
    };
    return {
      ...userOf(t, email, client),
      deliver: (...more) => void inserted.push(...emu.insert(email, more.map(spec))),
      see,
    };
  },
};

const outlook: Driver = {
  provider: 'Outlook',
  words: {
    newFolder: 'in a new folder with an Inbox rule',
    rule: 'Inbox rule',
    trash: 'Deleted Items',
    inbox: 'Inbox',
    screened: 'into Screener',
  },
  env: () => microsoftSignInEnv(fake),
  /** The Inbox holds `mail`; the fake's mailbox is looked at directly, and folders as a mail client sees them. */
  async connect(t, label, mail) {
    const input = (m: Mail): FakeMessageInput => {
      const at = ago(m.days);
      if (!m.list)
        return {
          subject: m.subject,
          from: { name: 'Friend', address: m.address },
          receivedDateTime: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
          headers: [{ name: 'From', value: `Friend <${m.address}>` }],
        };
      return {
        subject: m.subject,
        from: { name: 'News', address: m.address },
        receivedDateTime: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        headers: [
          { name: 'From', value: `News <${m.address}>` },
          { name: 'Subject', value: m.subject },
          { name: 'Date', value: at.toUTCString() },
          { name: 'Message-ID', value: `<${randomBytes(6).toString('hex')}@mail.example>` },
          { name: 'List-Unsubscribe', value: `<mailto:leave@${m.address.split('@')[1]}>` },
        ],
      };
    };
    const email = `${label}-${randomBytes(4).toString('hex')}@outlook.test`;
    const box = fake.addUser(email);
    for (const m of mail) box.addMessage('inbox', input(m));
    const { client } = await signUpAndScan(t.app, 'outlook', email, consentWithMicrosoft);
    // Another grant of the account, to look up folders as a mail client sees them.
    const graph = new GraphClient({
      refreshToken: box.issueRefreshToken(),
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      ...microsoftBaseUrls(fake.url),
    });
    /** The id of the top-level folder of that name, if there is one. */
    const folderId = async (displayName: string) => {
      const page = await graph.get<{ value: Array<{ id: string; displayName: string }> }>(
        '/me/mailFolders?$top=100&$select=id,displayName',
      );
      return page.value.find((f) => f.displayName === displayName)?.id;
    };
    /** Senders of a folder's mail, sorted. */
    const senders = (folder: string) =>
      box
        .sendersIn(folder)
        .map((a) => a.toLowerCase())
        .sort();
    /** Subjects of a folder's mail, sorted. */
    const subjects = (folder: string) =>
      box
        .messagesIn(folder)
        .map((m) => m.subject)
        .sort();
    const see: Observations = {
      ruleFolder: async (name) => name,
      folder: {
        async filed() {
          const folder = await folderId('Newsletters');
          expect(folder).toBeDefined();
          expect(subjects(folder!)).toEqual(['A', 'B']);
          expect(senders('inbox')).toEqual(['other@shop.example']);
          expect(box.rules()).toEqual([
            expect.objectContaining({
              isEnabled: true,
              conditions: { fromAddresses: [{ emailAddress: { address: 'deals@shop.example' } }] },
              actions: expect.objectContaining({ moveToFolder: folder }),
            }),
          ]);
        },
        async undone() {
          expect(subjects('inbox')).toEqual(['A', 'B', 'C']);
          expect(subjects((await folderId('Newsletters'))!)).toEqual([]);
          expect(box.rules()).toEqual([]);
        },
      },
      later: {
        async filedOnArrival() {
          expect(subjects((await folderId('Deals'))!)).toEqual(['A', 'B', 'C']);
          expect(subjects('inbox')).toEqual([]);
        },
        async restored() {
          expect(subjects('inbox')).toEqual(['A', 'B', 'C']);
        },
      },
      keepFolder: {
        async oldestTrashed() {
          // C filed by the Inbox rule, then the oldest (A) trashed: two kept in Deals.
          const folder = (await folderId('Deals'))!;
          expect([subjects('inbox'), subjects(folder), subjects('deleteditems')]).toEqual([
            [],
            ['B', 'C'],
            ['A'],
          ]);
        },
        async restored() {
          expect(subjects('inbox')).toEqual(expect.arrayContaining(['A', 'B']));
          expect(subjects('deleteditems')).toEqual([]);
        },
      },
      keep: {
        async oldestTrashed() {
          expect(subjects('inbox')).toEqual(['Day 1', 'Day 2']);
          expect(subjects('deleteditems')).toEqual(['Day 3', 'Day 4', 'Day 5']);
        },
        async restored() {
          expect(subjects('inbox')).toHaveLength(5);
          expect(subjects('deleteditems')).toEqual([]);
        },
      },
      expire: {
        async archived() {
          expect(subjects('archive')).toEqual(['Weekly old 1', 'Weekly old 2']);
        },
        async trashed() {
          expect(subjects('deleteditems')).toEqual(['Monthly old']);
          expect(subjects('inbox')).toEqual(['Monthly recent', 'Weekly recent']);
        },
        async restored() {
          expect(subjects('inbox')).toHaveLength(5);
          expect([subjects('archive'), subjects('deleteditems')]).toEqual([[], []]);
        },
      },
      screener: {
        async screened() {
          const screener = await folderId('Screener');
          expect(screener).toBeDefined();
          expect(subjects(screener!)).toEqual(['Again', 'Hello']);
          expect(senders('inbox')).toEqual(['friend@mail.example', 'known@shop.example']);
        },
        async kept() {
          expect(subjects((await folderId('Screener'))!)).toEqual([]);
          expect(subjects('inbox')).toEqual(['A', 'Again', 'Hello', 'Lunch?']);
        },
        async screenedAgain() {
          expect(subjects((await folderId('Screener'))!)).toEqual(['Three']);
        },
        async released() {
          expect(subjects((await folderId('Screener'))!)).toEqual([]);
          expect(subjects('inbox')).toContain('Three');
        },
      },
    };
    return {
      ...userOf(t, email, client),
      deliver: (...more) => {
        for (const m of more) box.addMessage('inbox', input(m));
      },
      see,
    };
  },
};

describe.each([gmail, outlook].flatMap((driver) => DIALECTS.map((dialect) => ({ driver, dialect }))))(
  'sender rules and the Screener on $dialect ($driver.provider)',
  ({ driver, dialect }) => {
    const t = withTestApp(dialect, driver.env);
    const connected = (label: string, mail: Mail[]) => driver.connect(t, label, mail);
    const w = driver.words;

    it(`files a sender ${w.newFolder} for later mail, and undoes it`, async () => {
      const u = await connected('folder', [
        news('deals@shop.example', 'A', 2),
        news('deals@shop.example', 'B', 1),
        news('other@shop.example', 'C', 1),
      ]);
      const id = (await u.row('deals@shop.example')).id;
      const put = await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Newsletters' } });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toEqual({
        rule: folderRule(await u.see.ruleFolder('Newsletters'), 'Newsletters'),
        applied: { moved: 2, trashed: 0, archived: 0 },
      });
      await u.see.folder.filed();

      const removed = await u.client.delete(`/sender-rules/${id}?restore=true`);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual({ restored: 2 });
      await u.see.folder.undone();
      expect((await u.client.get('/sender-rules')).json().data).toEqual([]);
      await u.check();
      expect((await u.row('deals@shop.example')).messageCount).toBe(2);
    });

    it(`counts mail the ${w.rule} filed once, and puts it back too when the rule is removed`, async () => {
      const u = await connected('later', [
        news('deals@shop.example', 'A', 2),
        news('deals@shop.example', 'B', 1),
      ]);
      const id = (await u.row('deals@shop.example')).id;
      await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Deals' } });

      // The provider's rule files the next message as it arrives; the check counts it once.
      u.deliver(news('deals@shop.example', 'C', 0));
      await u.see.later.filedOnArrival();
      await u.check();
      expect((await u.row('deals@shop.example')).messageCount).toBe(3);
      await u.check();
      expect((await u.row('deals@shop.example')).messageCount).toBe(3);

      // "Remove rule and put mail back" means all of the rule's mail, as on IMAP where the check filed it.
      const removed = await u.client.delete(`/sender-rules/${id}?restore=true`);
      expect(removed.json()).toEqual({ restored: 3 });
      await u.see.later.restored();
      expect((await u.row('deals@shop.example')).messageCount).toBe(3);
    });

    it(`at a check, trashes what a keepNewest leaves once the ${w.rule} filed new mail`, async () => {
      const u = await connected('keepfolder', [
        news('deals@shop.example', 'A', 3),
        news('deals@shop.example', 'B', 2),
      ]);
      const id = (await u.row('deals@shop.example')).id;
      const put = await u.client.put(`/sender-rules/${id}`, { rule: { folder: 'Deals', keepNewest: 2 } });
      expect(put.json().applied).toEqual({ moved: 2, trashed: 0, archived: 0 });

      u.deliver(news('deals@shop.example', 'C', 0));
      await u.check();
      await u.see.keepFolder.oldestTrashed();
      await u.check();
      // Counted once, and the trashed one out of the count at once (it follows the mail).
      expect((await u.row('deals@shop.example')).messageCount).toBe(2);

      expect((await u.client.delete(`/sender-rules/${id}?restore=true`)).statusCode).toBe(200);
      await u.see.keepFolder.restored();
      expect((await u.row('deals@shop.example')).messageCount).toBe(3);
    });

    it(`keeps only the newest N, and undo takes the rest out of ${w.trash}`, async () => {
      const u = await connected(
        'keep',
        [1, 2, 3, 4, 5].map((d) => news('daily@paper.example', `Day ${d}`, d)),
      );
      const id = (await u.row('daily@paper.example')).id;
      const put = await u.client.put(`/sender-rules/${id}`, { rule: { keepNewest: 2 } });
      expect(put.json().applied).toEqual({ moved: 0, trashed: 3, archived: 0 });
      await u.see.keep.oldestTrashed();
      expect((await u.client.delete(`/sender-rules/${id}?restore=true`)).json()).toEqual({ restored: 3 });
      await u.see.keep.restored();
    });

    it(`archives, or trashes, what is older than N days, and undo brings it back to the ${w.inbox}`, async () => {
      const u = await connected('expire', [
        news('weekly@mag.example', 'Weekly old 1', 50),
        news('weekly@mag.example', 'Weekly old 2', 40),
        news('weekly@mag.example', 'Weekly recent', 10),
        news('monthly@mag.example', 'Monthly old', 60),
        news('monthly@mag.example', 'Monthly recent', 5),
      ]);
      const weeklyId = (await u.row('weekly@mag.example')).id;
      const archive = await u.client.put(`/sender-rules/${weeklyId}`, {
        rule: { expireAfterDays: 30, expireAction: 'archive' },
      });
      expect(archive.json().applied).toEqual({ moved: 0, trashed: 0, archived: 2 });
      await u.see.expire.archived();

      const monthlyId = (await u.row('monthly@mag.example')).id;
      const trash = await u.client.put(`/sender-rules/${monthlyId}`, {
        rule: { expireAfterDays: 30, expireAction: 'trash' },
      });
      expect(trash.json().applied).toEqual({ moved: 0, trashed: 1, archived: 0 });
      await u.see.expire.trashed();

      expect((await u.client.delete(`/sender-rules/${weeklyId}?restore=true`)).json()).toEqual({
        restored: 2,
      });
      expect((await u.client.delete(`/sender-rules/${monthlyId}?restore=true`)).json()).toEqual({
        restored: 1,
      });
      await u.see.expire.restored();
    });

    it(`screens a new list sender ${w.screened}, gives its mail back on Keep, and all of it when off`, async () => {
      const u = await connected('screener', [news('known@shop.example', 'A', 2)]);
      const on = await u.client.put('/screener', { email: u.email, enabled: true });
      expect(on.json()).toEqual({ enabled: true, restored: 0 });

      u.deliver(news('fresh@new.example', 'Hello', 0), news('fresh@new.example', 'Again', 0));
      u.deliver(LUNCH);
      await u.check();

      const row = await u.row('fresh@new.example');
      expect(row).toMatchObject({ category: 'uncategorized', screened: true, messageCount: 2 });
      expect((await u.row('known@shop.example')).screened).toBe(false);
      await u.see.screener.screened();

      const kept = await u.client.post('/keep-subscription', { subscriptionId: row.id });
      expect(kept.json()).toMatchObject({ category: 'kept', screened: false, restoredFromScreener: 2 });
      await u.see.screener.kept();
      await u.check();
      expect((await u.row('fresh@new.example')).messageCount).toBe(2);

      u.deliver(news('second@new.example', 'Three', 0));
      await u.check();
      expect((await u.row('second@new.example')).screened).toBe(true);
      await u.see.screener.screenedAgain();
      const off = await u.client.put('/screener', { email: u.email, enabled: false });
      expect(off.json()).toEqual({ enabled: false, restored: 1 });
      await u.see.screener.released();
      expect((await u.row('second@new.example')).screened).toBe(false);
    });
  },
);
