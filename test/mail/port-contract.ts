import { describe, expect, it } from 'vitest';
import {
  type FoundMessage,
  type HeaderBatch,
  INBOX_ORIGIN,
  type MailProvider,
  type MovedMessage,
  type TrashedMessage,
} from '#server/mail/provider.js';

// What the mail port (server/mail/provider.ts) promises, whatever the adapter: one describe that each
// adapter's tests call with a small harness on its own peer (docs/decisions/093-mail-port-contract.md).
// Only what the port promises is checked here, through the port and the harness's view of the mailbox;
// how an adapter keeps a promise (commands, quota, requests) stays in its own files. A real difference
// between adapters is a capability of the harness, never a skipped test.

/** A message as the contract puts it in a mailbox. Dates are whole seconds (an IMAP Date header's). */
export interface ContractMail {
  from: string;
  subject: string;
  date: Date;
}

/** Where the harness looks: the inbox, the trash, or a folder by its path as listFolders gives it. */
export type ContractPlace = 'inbox' | 'trash' | { folder: string };

/** One fresh mailbox of the adapter's peer, and the user's own hands on it. */
export interface ContractMailbox {
  /** The adapter opened on the mailbox (closed by `close`). */
  provider: MailProvider;
  /** The path (as listFolders gives it) of a user folder of this name, made by the user when missing. */
  folder(name: string): Promise<string>;
  /** Delivers mail, as the provider receives it, to the inbox or a folder (`{folder}`: its path). */
  deliver(where: 'inbox' | { folder: string }, mail: ContractMail[]): Promise<void>;
  /** Subjects of the messages in a place, sorted ([] for a place that is empty or gone). */
  subjects(where: ContractPlace): Promise<string[]>;
  /** The user reads the message of this subject (in the inbox) in their own mail client. */
  markRead(subject: string): Promise<void>;
  /** The user deletes the message of this subject in a place for good. */
  remove(where: ContractPlace, subject: string): Promise<void>;
  /** The user deletes a folder (Gmail: a label) by its path. */
  deleteFolder(path: string): Promise<void>;
  close(): Promise<void>;
}

export interface PortHarness {
  newMailbox(label: string): Promise<ContractMailbox>;
  /** The real differences between adapters the port allows. */
  capabilities: {
    /**
     * Folder names differ by case (IMAP, RFC 3501 §5.1, INBOX aside): createFolder of "receipts" after
     * "Receipts" is another folder. Elsewhere it answers the folder made first.
     */
    caseSensitiveFolders: boolean;
    /**
     * Folders are labels (Gmail): mail whose folder of origin is gone comes back from the trash to no label
     * at all (archived, as it was there), not to the inbox.
     */
    labels: boolean;
  };
}

const NEWS = 'news@x.example';
const DEALS = 'deals@shop.example';
const FRIEND = 'Friend <friend@example.org>';

/** Noon UTC `n` days before 20 November 2026: whole seconds, so every adapter's date is the same ms. */
const day = (n: number) => new Date(Date.UTC(2026, 10, 20, 12) - n * 86_400_000);
const at = (n: number) => day(n).getTime();
const mail = (from: string, subject: string, days: number): ContractMail => ({
  from,
  subject,
  date: day(days),
});
const sorted = (values: string[]) => [...values].sort();

async function collect(batches: AsyncIterable<HeaderBatch>): Promise<HeaderBatch[]> {
  const out: HeaderBatch[] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

/** A collector of what onMoved hears. */
function collector<T extends TrashedMessage>() {
  const moved: T[] = [];
  return { moved, onMoved: async (m: T[]) => void moved.push(...m) };
}

/** Every reported move: the previous ids are the ones found, each from the folder it was found in, once. */
function expectMoves(moved: MovedMessage[], found: FoundMessage[]) {
  expect(sorted(moved.map((m) => m.previous))).toEqual(sorted(found.map((f) => f.id)));
  for (const m of moved) expect(found.find((f) => f.id === m.previous)?.folder).toBe(m.origin);
  expect(new Set(moved.map((m) => m.id)).size).toBe(moved.length);
}

export function describePortContract(name: string, harness: PortHarness): void {
  const { capabilities } = harness;

  async function withMailbox(label: string, run: (box: ContractMailbox) => Promise<void>): Promise<void> {
    const box = await harness.newMailbox(label);
    try {
      await run(box);
    } finally {
      await box.close();
    }
  }

  describe(`${name}: the mail port's contract`, () => {
    it('finds a sender’s mail by exact address, newest first, in the inbox or all scanned mail, before a date', async () => {
      await withMailbox('c-find', async (box) => {
        const weekly = await box.folder('Weekly');
        await box.deliver('inbox', [
          mail(`News <${NEWS}>`, 'A', 5),
          mail(NEWS.toUpperCase(), 'Upper', 4),
          mail(`News <${NEWS}>`, 'B', 2),
          mail(`Evil <${NEWS}.evil>`, 'Look-alike', 1),
          mail(`"${NEWS}" <other@y.example>`, 'Display name', 1),
          mail(FRIEND, `About ${NEWS}`, 1),
        ]);
        await box.deliver({ folder: weekly }, [mail(`News <${NEWS}>`, 'C', 3)]);
        const find = box.provider.findSenderMessages.bind(box.provider);

        const inInbox = await find({ from: ` ${NEWS.toUpperCase()} `, scope: 'inbox' });
        expect(inInbox.map((m) => m.date)).toEqual([at(2), at(4), at(5)]);
        expect(new Set(inInbox.map((m) => m.folder)).size).toBe(1);
        const inMail = await find({ from: NEWS, scope: 'mail' });
        expect(inMail.map((m) => m.date)).toEqual([at(2), at(3), at(4), at(5)]);
        expect(inMail.filter((m) => m.date !== at(3)).map((m) => m.id)).toEqual(inInbox.map((m) => m.id));

        // `before` is exclusive, to the millisecond; one past everything narrows nothing.
        const findBefore = (ms: number) => find({ from: NEWS, scope: 'mail', before: ms });
        expect((await findBefore(at(3))).map((m) => m.date)).toEqual([at(4), at(5)]);
        expect((await findBefore(at(3) + 1)).map((m) => m.date)).toEqual([at(3), at(4), at(5)]);
        expect((await find({ from: NEWS, scope: 'inbox', before: at(4) })).map((m) => m.date)).toEqual([
          at(5),
        ]);
        expect(
          (await find({ from: NEWS, scope: { folder: weekly }, before: at(3) + 1 })).map((m) => m.date),
        ).toEqual([at(3)]);
        expect(await find({ from: NEWS, scope: { folder: weekly }, before: at(3) })).toEqual([]);
        expect(await findBefore(Date.UTC(2100, 0))).toEqual(inMail);
        expect(await find({ from: 'nobody@x.example', scope: 'mail' })).toEqual([]);
        await expect(find({ from: '  ', scope: 'mail' })).rejects.toThrow();
      });
    });

    it('finds nothing in a folder that is gone, and restores nothing from it', async () => {
      await withMailbox('c-gone', async (box) => {
        const weekly = await box.folder('Weekly');
        await box.deliver({ folder: weekly }, [mail(NEWS, 'W1', 4), mail(NEWS, 'W2', 2)]);
        const found = await box.provider.findSenderMessages({ from: NEWS, scope: { folder: weekly } });
        expect(found.map((m) => m.date)).toEqual([at(2), at(4)]);

        await box.deleteFolder(weekly);
        expect(await box.provider.findSenderMessages({ from: NEWS, scope: { folder: weekly } })).toEqual([]);
        const back = found.map((m) => ({ id: m.id, origin: INBOX_ORIGIN }));
        expect(await box.provider.restoreMoved(back, { kind: 'folder', path: weekly })).toEqual({
          restored: 0,
          missing: 2,
        });
        expect(await box.subjects('inbox')).toEqual([]);
      });
    });

    it('moves to a folder createFolder made, tells onMoved, and restoreMoved puts back what is still there', async () => {
      await withMailbox('c-move', async (box) => {
        const weekly = await box.folder('Weekly');
        await box.deliver('inbox', [mail(`Deals <${DEALS}>`, 'Deal 1', 3), mail(DEALS, 'Deal 2', 2)]);
        await box.deliver('inbox', [mail(FRIEND, 'Hi', 1)]);
        await box.deliver({ folder: weekly }, [mail(DEALS, 'Deal 3', 4)]);
        const folder = await box.provider.createFolder('Receipts');
        const destination = { kind: 'folder', path: folder.path } as const;

        const found = await box.provider.findSenderMessages({ from: DEALS, scope: 'mail' });
        expect(found).toHaveLength(3);
        const { moved, onMoved } = collector<MovedMessage>();
        const result = await box.provider.moveMessages(found, destination, onMoved);
        expect(result.moved).toBe(3);
        expectMoves(moved, found);
        // The ids onMoved heard are the messages' ids in the folder now.
        const now = await box.provider.findSenderMessages({ from: DEALS, scope: { folder: folder.path } });
        expect(sorted(now.map((m) => m.id))).toEqual(sorted(moved.map((m) => m.id)));
        expect(await box.subjects({ folder: folder.path })).toEqual(['Deal 1', 'Deal 2', 'Deal 3']);
        expect(await box.subjects('inbox')).toEqual(['Hi']);
        // Already there: nothing moves.
        expect(await box.provider.moveMessages(now, destination)).toEqual({ moved: 0, calls: 0 });

        await box.remove({ folder: folder.path }, 'Deal 1');
        const back = collector<MovedMessage>();
        expect(await box.provider.restoreMoved(moved, destination, back.onMoved)).toEqual({
          restored: 2,
          missing: 1,
        });
        // onRestored hears of every message moved back, by the id it had in the folder (none of the missing).
        expect(back.moved).toHaveLength(2);
        for (const m of back.moved) expect(moved.map((x) => x.id)).toContain(m.previous);
        expect(await box.subjects('inbox')).toEqual(['Deal 2', 'Hi']);
        expect(await box.subjects({ folder: weekly })).toEqual(['Deal 3']);
        expect(await box.subjects({ folder: folder.path })).toEqual([]);
        // Restored once: a second undo finds nothing where the ids point.
        expect(await box.provider.restoreMoved(moved, destination)).toEqual({ restored: 0, missing: 3 });
      });
    });

    it('puts mail filed in a folder back in the inbox by INBOX_ORIGIN', async () => {
      await withMailbox('c-origin', async (box) => {
        const weekly = await box.folder('Weekly');
        await box.deliver({ folder: weekly }, [
          mail(`News <${NEWS}>`, 'W1', 4),
          mail(NEWS, 'W2', 2),
          mail(`Evil <${NEWS}.evil>`, 'Look-alike', 1),
          mail(FRIEND, 'Hi', 1),
        ]);
        await box.deliver('inbox', [mail(NEWS, 'In inbox', 1)]);
        const other = await box.folder('Other');
        await box.deliver({ folder: other }, [mail(NEWS, 'Elsewhere', 3)]);
        const found = await box.provider.findSenderMessages({ from: NEWS, scope: { folder: weekly } });
        expect(found.map((m) => m.date)).toEqual([at(2), at(4)]);

        // Mail a rule filed straight into Weekly was never in the product's view of the inbox: INBOX_ORIGIN.
        const back = found.map((m) => ({ id: m.id, origin: INBOX_ORIGIN }));
        expect(await box.provider.restoreMoved(back, { kind: 'folder', path: weekly })).toEqual({
          restored: 2,
          missing: 0,
        });
        expect(await box.subjects('inbox')).toEqual(['In inbox', 'W1', 'W2']);
        expect(await box.subjects({ folder: weekly })).toEqual(['Hi', 'Look-alike']);
        expect(await box.subjects({ folder: other })).toEqual(['Elsewhere']);
      });
    });

    it('moves to the trash and back, as the block does, when the folder of origin is gone', async () => {
      await withMailbox('c-trash', async (box) => {
        const promos = await box.folder('Promos');
        await box.deliver('inbox', [mail(DEALS, 'Deal 1', 2), mail(FRIEND, 'Hi', 1)]);
        await box.deliver({ folder: promos }, [mail(DEALS, 'Deal 2', 3)]);
        const found = await box.provider.findSenderMessages({ from: DEALS, scope: 'mail' });
        const { moved, onMoved } = collector<MovedMessage>();
        expect((await box.provider.moveMessages(found, { kind: 'trash' }, onMoved)).moved).toBe(2);
        if (capabilities.labels) {
          // The origin is the labels the trash took off (Gmail): the inbox, or the folder's label.
          expect(sorted(moved.map((m) => m.previous))).toEqual(sorted(found.map((f) => f.id)));
          expect(sorted(moved.map((m) => m.origin))).toEqual(sorted([INBOX_ORIGIN, promos]));
        } else {
          expectMoves(moved, found);
        }
        expect(await box.subjects('trash')).toEqual(['Deal 1', 'Deal 2']);
        // The trash is not scanned: the sender's mail is out of sight.
        expect(await box.provider.findSenderMessages({ from: DEALS, scope: 'mail' })).toEqual([]);

        await box.deleteFolder(promos);
        expect(await box.provider.restoreMoved(moved, { kind: 'trash' })).toEqual({
          restored: 2,
          missing: 0,
        });
        expect(await box.subjects('trash')).toEqual([]);
        // To the inbox; a label's mail to no label at all (archived), as it was.
        const inbox = capabilities.labels ? ['Deal 1', 'Hi'] : ['Deal 1', 'Deal 2', 'Hi'];
        expect(await box.subjects('inbox')).toEqual(inbox);

        // The block (moveToTrash) and its undo (restoreFromTrash): records of where each went and came from.
        const before = await box.provider.findSenderMessages({ from: DEALS, scope: 'mail' });
        const blocked = collector<MovedMessage>();
        expect(await box.provider.moveToTrash({ from: DEALS }, blocked.onMoved)).toEqual({
          moved: 2,
          calls: 1,
        });
        // Where each went, where it came from, and its id there (the product's references follow it).
        expect(blocked.moved.map((m) => Object.keys(m).sort())).toEqual([
          ['id', 'origin', 'previous'],
          ['id', 'origin', 'previous'],
        ]);
        expectMoves(blocked.moved, before);
        expect(await box.subjects('trash')).toEqual(['Deal 1', 'Deal 2']);
        const unblocked = collector<MovedMessage>();
        expect(
          await box.provider.restoreFromTrash({
            from: DEALS,
            messages: blocked.moved.map(({ id, origin }) => ({ id, origin })),
            onRestored: unblocked.onMoved,
          }),
        ).toEqual({ restored: 2, missing: 0 });
        expect(sorted(unblocked.moved.map((m) => m.previous))).toEqual(
          sorted(blocked.moved.map((m) => m.id)),
        );
        expect(await box.subjects('trash')).toEqual([]);
        expect(await box.subjects('inbox')).toEqual(inbox);
      });
    });

    it('createFolder answers the folder made first when called twice, in any case', async () => {
      await withMailbox('c-folder', async (box) => {
        const folder = await box.provider.createFolder('Receipts');
        expect(folder).toEqual({
          path: expect.any(String),
          name: 'Receipts',
          specialUse: null,
          scanned: true,
        });
        expect(await box.provider.createFolder('Receipts')).toEqual(folder);
        expect(await box.provider.createFolder(' Receipts ')).toEqual(folder);
        expect(await box.provider.listFolders()).toContainEqual(folder);
        const other = await box.provider.createFolder('receipts');
        if (capabilities.caseSensitiveFolders) {
          expect(other).toMatchObject({ name: 'receipts', specialUse: null, scanned: true });
          expect(other.path).not.toBe(folder.path);
          expect(await box.provider.createFolder('receipts')).toEqual(other);
        } else {
          expect(other).toEqual(folder);
        }
        const names = (await box.provider.listFolders()).map((f) => f.name);
        expect(names.filter((n) => n.toLowerCase() === 'receipts')).toHaveLength(
          capabilities.caseSensitiveFolders ? 2 : 1,
        );
        for (const bad of ['', '  ', 'Bad\r\nname', 'x'.repeat(201)]) {
          await expect(box.provider.createFolder(bad), JSON.stringify(bad)).rejects.toThrow();
        }
      });
    });

    it('onMoved hears each group as it lands, and restoreMoved takes what it heard', async () => {
      await withMailbox('c-onmoved', async (box) => {
        await box.deliver('inbox', [mail(NEWS, 'N1', 3), mail(NEWS, 'N2', 2), mail(FRIEND, 'Hi', 1)]);
        const found = await box.provider.findSenderMessages({ from: NEWS, scope: 'inbox' });
        const heard: MovedMessage[][] = [];
        const result = await box.provider.moveMessages(found, { kind: 'archive' }, async (m) => {
          heard.push(m);
        });
        expect(result.moved).toBe(2);
        expect(heard.length).toBeGreaterThanOrEqual(1);
        expect(heard.every((group) => group.length > 0)).toBe(true);
        expectMoves(heard.flat(), found);
        expect(await box.subjects('inbox')).toEqual(['Hi']);
        expect(await box.provider.restoreMoved(heard.flat(), { kind: 'archive' })).toEqual({
          restored: 2,
          missing: 0,
        });
        expect(await box.subjects('inbox')).toEqual(['Hi', 'N1', 'N2']);
      });
    });

    it('changesSince hands out new mail once, with a read state changed and a deletion survived', async () => {
      await withMailbox('c-changes', async (box) => {
        await box.deliver('inbox', [mail(NEWS, 'Old 1', 5), mail(NEWS, 'Old 2', 4), mail(FRIEND, 'Hi', 3)]);
        const scan = await collect(box.provider.scan(null));
        const scanned = scan.flatMap((b) => b.messages);
        // The newsletter's mail at least, by the ids findSenderMessages gives (Gmail's scan lists
        // subscriptions only, and fetches the headers of a few: gmail/README.md).
        const [old2, old1] = await box.provider.findSenderMessages({ from: NEWS, scope: 'inbox' });
        expect([old1!.date, old2!.date]).toEqual([at(5), at(4)]);
        expect(scanned.map((m) => m.id)).toEqual(expect.arrayContaining([old1!.id, old2!.id]));
        expect(scanned.every((m) => m.seen !== true)).toBe(true);
        const read = old1!;
        const options = { knownMessages: async () => scanned.map((m) => m.id) };

        await box.deliver('inbox', [mail(NEWS, 'New', 1)]);
        await box.markRead('Old 1');
        await box.remove('inbox', 'Old 2');
        const check = await collect(box.provider.changesSince(scan.at(-1)!.state, options));
        const arrived = check.flatMap((b) => b.messages);
        expect(arrived.map((m) => m.fields.subject)).toEqual(['New']);
        expect(arrived[0]!.seen).toBe(false);
        const flags = check.flatMap((b) => b.flags ?? []);
        expect(flags).toContainEqual({ id: read.id, seen: true });
        // A state reported is the one the message has now; none of the deleted one can say otherwise.
        for (const f of flags) expect(f.seen).toBe(f.id === read.id);

        // Nothing new since: nothing handed out twice.
        const again = await collect(box.provider.changesSince(check.at(-1)!.state, options));
        expect(again.flatMap((b) => b.messages)).toEqual([]);
      });
    });
  });
}
