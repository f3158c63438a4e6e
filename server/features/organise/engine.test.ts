import { describe, expect, it } from 'vitest';
import type { Destination, FoundMessage, MailProvider, MovedMessage } from '#server/mail/provider.js';
import { applyRule, applyRules, DAY_MS, type RuleParts, TRACKED_MAX } from './engine.js';

// The rule engine on an in-memory mailbox shaped like IMAP (ids name their folder and change on a move),
// so the order of the steps, what a check may skip, and the remembered list can be checked exactly. The
// adapters' own moves are tested against real servers (test/mail/*/organise.int.test.ts).

const NOW = Date.UTC(2026, 10, 26);
const SENDER = 'news@paper.example';

function mailbox(messages: Array<{ folder: string; daysOld: number | null }>) {
  let uid = 0;
  const box = messages.map((m) => ({
    id: `${m.folder}/1/${++uid}`,
    folder: m.folder,
    date: m.daysOld === null ? null : NOW - m.daysOld * DAY_MS,
  }));
  const calls = { find: 0, move: 0 };
  const where = (d: Destination) => (d.kind === 'folder' ? d.path : d.kind === 'trash' ? 'Trash' : 'Archive');
  const provider = {
    async findSenderMessages({ scope }: { scope: 'inbox' | 'mail' | { folder: string } }) {
      calls.find += 1;
      const inScope = box.filter((m) =>
        scope === 'inbox'
          ? m.folder === 'INBOX'
          : scope === 'mail'
            ? m.folder !== 'Trash'
            : m.folder === scope.folder,
      );
      return inScope.map((m) => ({ ...m })).sort((a, b) => (b.date ?? -Infinity) - (a.date ?? -Infinity));
    },
    async moveMessages(
      found: FoundMessage[],
      destination: Destination,
      onMoved?: (m: MovedMessage[]) => Promise<void>,
    ) {
      calls.move += 1;
      const target = where(destination);
      const moved: MovedMessage[] = [];
      for (const f of found) {
        const m = box.find((b) => b.id === f.id);
        if (!m || m.folder === target) continue;
        const previous = m.id;
        m.id = `${target}/1/${++uid}`;
        moved.push({ id: m.id, origin: m.folder, previous });
        m.folder = target;
      }
      await onMoved?.(moved);
      return { moved: moved.length, calls: 1 };
    },
  } as unknown as MailProvider;
  const count = (folder: string) => box.filter((m) => m.folder === folder).length;
  const deliver = (folder: string, daysOld: number): FoundMessage => {
    const m = { id: `${folder}/1/${++uid}`, folder, date: NOW - daysOld * DAY_MS };
    box.push(m);
    return { ...m };
  };
  return { provider, calls, count, deliver };
}

const rule = (parts: Partial<RuleParts>): RuleParts => ({
  folder: null,
  keepNewest: null,
  expireAfterDays: null,
  expireAction: null,
  providerRef: null,
  tracked: null,
  ...parts,
});
const noRecord = async () => {};

describe('applyRule', () => {
  it('sends the moves of many rules out together, one call per destination', async () => {
    const box = mailbox([]);
    const fresh = () => [box.deliver('INBOX', 0), box.deliver('INBOX', 1), box.deliver('INBOX', 2)];
    const tasks = ['a', 'b', 'c'].map((name) => ({
      address: `${name}@x.example`,
      rule: rule({ keepNewest: 1, tracked: [] }),
      owner: 'rule',
      fresh: fresh(),
    }));
    const runs = await applyRules(box.provider, tasks, NOW, noRecord);
    expect(runs.map((r) => r.applied.trashed)).toEqual([2, 2, 2]);
    expect(box.calls).toEqual({ find: 0, move: 1 });
  });

  it('files, then keeps the newest N of all the sender’s mail, then expires, and says what it did', async () => {
    const box = mailbox([
      { folder: 'INBOX', daysOld: 1 },
      { folder: 'INBOX', daysOld: 2 },
      { folder: 'INBOX', daysOld: 40 },
      { folder: 'Old', daysOld: 50 },
      { folder: 'INBOX', daysOld: 60 },
    ]);
    const run = await applyRule(
      box.provider,
      {
        address: SENDER,
        rule: rule({ folder: 'News', keepNewest: 4, expireAfterDays: 30, expireAction: 'archive' }),
        owner: 'rule',
      },
      NOW,
      noRecord,
    );
    // Each message moves once, straight to where the steps leave it: the two newest filed, the oldest
    // (beyond 4) trashed, the 40- and 50-day-old archived (one of them from the inbox, not via News).
    expect(run.applied).toEqual({ moved: 2, trashed: 1, archived: 2 });
    expect([box.count('INBOX'), box.count('News'), box.count('Trash'), box.count('Archive')]).toEqual([
      0, 2, 1, 2,
    ]);
    expect(run.nextDueAt).toBe(NOW - 2 * DAY_MS + 30 * DAY_MS);
    expect(run.tracked?.map((m) => [m.id.split('/')[0], m.archived ?? false])).toEqual([
      ['News', false],
      ['News', false],
      ['Archive', true],
      ['Archive', true],
    ]);
  });

  it('applies itself at a check to what it keeps and the new mail, without searching the mailbox', async () => {
    const box = mailbox([
      { folder: 'INBOX', daysOld: 3 },
      { folder: 'INBOX', daysOld: 2 },
    ]);
    const saved = await applyRule(
      box.provider,
      { address: SENDER, rule: rule({ folder: 'News', keepNewest: 2 }), owner: 'rule' },
      NOW,
      noRecord,
    );
    const searches = box.calls.find;
    const fresh = [box.deliver('INBOX', 0)];
    const recorded: MovedMessage[] = [];
    const [run] = await applyRules(
      box.provider,
      [
        {
          owner: 'rule',
          address: SENDER,
          rule: rule({ folder: 'News', keepNewest: 2, tracked: saved.tracked }),
          fresh,
        },
      ],
      NOW,
      async (_: Destination, moved: MovedMessage[]) => {
        recorded.push(...moved);
      },
    );
    expect(box.calls.find).toBe(searches);
    expect(run!.applied).toEqual({ moved: 1, trashed: 1, archived: 0 });
    expect([box.count('INBOX'), box.count('News'), box.count('Trash')]).toEqual([0, 2, 1]);
    expect(recorded.map((m) => m.origin).sort()).toEqual(['INBOX', 'News']);
    expect(run!.tracked?.map((m) => m.id.split('/')[0])).toEqual(['News', 'News']);
  });

  it('leaves filing to the provider’s own filter at a check, and reads the mailbox when nothing is remembered', async () => {
    const box = mailbox([{ folder: 'News', daysOld: 1 }]);
    const fresh = [box.deliver('INBOX', 0)];
    const task = (r: RuleParts) => ({ address: SENDER, rule: r, owner: 'rule', fresh });
    await applyRules(box.provider, [task(rule({ folder: 'News', providerRef: 'filter-1' }))], NOW, noRecord);
    expect(box.calls).toEqual({ find: 0, move: 0 });
    await applyRules(box.provider, [task(rule({ keepNewest: 5 }))], NOW, noRecord);
    expect(box.calls.find).toBe(1);
  });

  it('never ages an undated message, archives once, and is due when the oldest kept message ages', async () => {
    const box = mailbox([
      { folder: 'INBOX', daysOld: null },
      { folder: 'INBOX', daysOld: 10 },
      { folder: 'INBOX', daysOld: 100 },
    ]);
    const expire = rule({ expireAfterDays: 30, expireAction: 'archive' });
    const first = await applyRule(
      box.provider,
      { address: SENDER, rule: expire, owner: 'rule' },
      NOW,
      noRecord,
    );
    expect(first.applied.archived).toBe(1);
    expect(first.nextDueAt).toBe(NOW + 20 * DAY_MS);
    const [later] = await applyRules(
      box.provider,
      [{ address: SENDER, rule: { ...expire, tracked: first.tracked }, owner: 'rule', fresh: [] }],
      NOW + 21 * DAY_MS,
      noRecord,
    );
    expect(later!.applied.archived).toBe(1);
    expect(later!.nextDueAt).toBeNull();
    expect([box.count('INBOX'), box.count('Archive')]).toEqual([1, 2]);
  });

  it('forgets the list of a sender with more mail than it remembers', async () => {
    const box = mailbox(Array.from({ length: TRACKED_MAX + 1 }, () => ({ folder: 'INBOX', daysOld: 1 })));
    const run = await applyRule(
      box.provider,
      { address: SENDER, rule: rule({ expireAfterDays: 30, expireAction: 'trash' }), owner: 'rule' },
      NOW,
      noRecord,
    );
    expect(run.tracked).toBeNull();
  });
});
