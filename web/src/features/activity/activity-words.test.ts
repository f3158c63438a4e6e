import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '#contract/api.js';
import { activityMoved, activityTitle, senderOfEntry, undoneText } from './activity-words';

const entry = (over: Partial<ActivityEntry>): ActivityEntry => ({
  id: 'a1',
  kind: 'block',
  subscriptionId: 's1',
  address: 'deals@shop.example',
  senderName: 'Shop',
  at: '2026-11-28T10:00:00.000Z',
  moved: 0,
  undone: false,
  undoable: true,
  by: 'you',
  bulk: null,
  ...over,
});

describe('the Activity screen in words', () => {
  it('names the sender by its name, else its address', () => {
    expect(senderOfEntry({ senderName: 'Shop', address: 'a@b.example' })).toBe('Shop');
    expect(senderOfEntry({ senderName: '  ', address: 'a@b.example' })).toBe('a@b.example');
    expect(senderOfEntry({ senderName: null, address: null })).toBe('a sender');
  });

  it('says what was done, by the user or by a check', () => {
    expect(activityTitle(entry({}))).toBe('Blocked Shop');
    expect(activityTitle(entry({ by: 'check' }))).toBe(
      'Blocked Shop (it kept sending after you unsubscribed)',
    );
    expect(activityTitle(entry({ kind: 'unsubscribe' }))).toBe('Unsubscribed from Shop');
    expect(activityTitle(entry({ kind: 'rule' }))).toBe('Saved a rule for Shop');
    expect(activityTitle(entry({ kind: 'rule', by: 'check' }))).toBe('The rule for Shop ran at a check');
    expect(activityTitle(entry({ kind: 'screener', by: 'check' }))).toBe(
      'Held new mail from Shop for your decision',
    );
    expect(
      activityTitle(entry({ kind: 'bulk', subscriptionId: null, bulk: { action: 'block', senders: 3 } })),
    ).toBe('Blocked 3 senders at once');
    expect(activityTitle(entry({ kind: 'bulk', bulk: { action: 'unsubscribe', senders: 1 } }))).toBe(
      'Unsubscribed from 1 sender at once',
    );
  });

  it('says what it did to the mail, in the singular too', () => {
    expect(activityMoved(entry({ moved: 12 }))).toBe('12 messages moved to Trash.');
    expect(activityMoved(entry({ moved: 1, kind: 'unsubscribe' }))).toBe('1 message moved to Trash.');
    expect(activityMoved(entry({ moved: 0 }))).toBe('No mail moved; new mail goes to Trash.');
    expect(activityMoved(entry({ moved: 2, kind: 'screener' }))).toBe(
      '2 messages moved to the Screener folder.',
    );
    expect(activityMoved(entry({ moved: 3, kind: 'rule' }))).toBe('3 messages moved.');
  });

  it('says what an Undo put back', () => {
    expect(undoneText(entry({}), 3)).toBe('Undone: blocked Shop. 3 messages put back.');
    expect(undoneText(entry({ kind: 'rule' }), 0)).toBe('Undone: saved a rule for Shop.');
  });
});
