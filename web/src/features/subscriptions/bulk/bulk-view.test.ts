import { describe, expect, it } from 'vitest';
import type { BulkItemResult } from '#contract/api.js';
import {
  bulkActionsFor,
  bulkBlockText,
  bulkDoneText,
  bulkProgressText,
  bulkQuestion,
  bulkUnblockedText,
  manualPage,
  summarize,
} from './bulk-view';

const item = (id: string, outcome: BulkItemResult['outcome'], links: string[] = []): BulkItemResult => ({
  subscriptionId: id,
  outcome,
  ...(links.length > 0
    ? {
        result: {
          subscriptionId: id,
          method: 'manual',
          oneClickUnsubscribeSuccess: false,
          manualUnsubscribe: true,
          blockedAndTrashed: false,
          unsubscribeOptions: links,
        },
      }
    : {}),
});

describe('bulk actions', () => {
  it('offers the actions of the list, as its rows do', () => {
    expect(bulkActionsFor('uncategorized')).toEqual(['unsubscribe', 'keep', 'block']);
    expect(bulkActionsFor('kept')).toEqual(['unsubscribe', 'block']);
    expect(bulkActionsFor('unsubscribed')).toEqual(['keep', 'block']);
  });

  it('says how far it has come and asks before acting on many', () => {
    expect(bulkProgressText('unsubscribe', 12, 40)).toBe('Unsubscribing… 12 of 40 senders');
    expect(bulkProgressText('block', 1, 1)).toBe('Blocking… 1 of 1 sender');
    expect(bulkQuestion('unsubscribe', 40)).toBe('Unsubscribe from 40 senders?');
    expect(bulkQuestion('keep', 12)).toBe('Keep 12 senders?');
  });

  it('sums up the outcomes in a fixed order, leaving out the empty ones', () => {
    const results = [
      item('a', 'manual', ['https://a.example/u']),
      item('b', 'one-click'),
      item('c', 'one-click'),
      item('d', 'limit'),
      item('e', 'mailto'),
    ];
    expect(summarize(results)).toEqual([
      { outcome: 'one-click', count: 2 },
      { outcome: 'mailto', count: 1 },
      { outcome: 'manual', count: 1 },
      { outcome: 'limit', count: 1 },
    ]);
    expect(bulkDoneText(results)).toBe(
      "Done: 2 senders unsubscribed by one-click, 1 sender sent an unsubscribe email, 1 sender needs you to open their page, 1 sender not done: the free trial's unsubscribes are used up.",
    );
    expect(bulkDoneText([])).toBe('Done.');
  });

  it('lists only http(s) pages of the manual ones, ', () => {
    expect(manualPage(item('a', 'manual', ['javascript:alert(1)', 'https://a.example/u']))).toBe(
      'https://a.example/u',
    );
    expect(manualPage(item('a', 'manual', ['javascript:alert(1)']))).toBeNull();
    expect(manualPage(item('b', 'one-click', ['https://b.example']))).toBeNull();
  });
});

describe('a bulk Block', () => {
  it('says how many messages it moves now, and what its Undo brought back', () => {
    expect(bulkBlockText(52)).toBe(
      'Their future mail goes to Trash, and the 52 messages they sent are moved there now.',
    );
    expect(bulkBlockText(1)).toBe(
      'Their future mail goes to Trash, and the 1 message they sent is moved there now.',
    );
    expect(bulkUnblockedText(3, 52)).toBe('Unblocked 3 senders and moved 52 messages back');
    expect(bulkUnblockedText(1, 0)).toBe('Unblocked 1 sender');
  });
});
