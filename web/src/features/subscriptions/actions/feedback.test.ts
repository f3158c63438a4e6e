import { describe, expect, it } from 'vitest';
import type { Subscription, UnsubscribeResult } from '#contract/api.js';
import {
  blockedText,
  keptText,
  manualText,
  putBackText,
  slowText,
  unblockedText,
  unsubscribedText,
} from './feedback';

const shop: Subscription = {
  id: 's1',
  address: 'news@shop.example',
  senderName: 'Shop Alpha',
  messageCount: 42,
  category: 'uncategorized',
  lastMessageAt: null,
  account: 'me@example.com',
};

function result(overrides: Partial<UnsubscribeResult>): UnsubscribeResult {
  return {
    subscriptionId: 's1',
    method: 'one-click',
    oneClickUnsubscribeSuccess: false,
    manualUnsubscribe: false,
    blockedAndTrashed: false,
    unsubscribeOptions: [],
    ...overrides,
  };
}

describe('what an action did, in words', () => {
  it('names the way an unsubscribe went', () => {
    expect(unsubscribedText(shop, result({ oneClickUnsubscribeSuccess: true }))).toBe(
      'Unsubscribed from Shop Alpha by one-click',
    );
    expect(unsubscribedText(shop, result({ method: 'mailto', oneClickUnsubscribeSuccess: true }))).toBe(
      'Sent an unsubscribe email to Shop Alpha',
    );
    expect(unsubscribedText(shop, result({ oneClickUnsubscribeSuccess: true, movedToTrash: 42 }))).toBe(
      'Unsubscribed from Shop Alpha by one-click and moved 42 messages to Trash',
    );
    expect(
      unsubscribedText(shop, result({ method: 'block', blockedAndTrashed: true, movedToTrash: 1 })),
    ).toBe('Blocked Shop Alpha and moved 1 message to Trash');
    expect(unsubscribedText(shop, result({ method: 'block', blockedAndTrashed: true }))).toBe(
      'Blocked Shop Alpha and moved its mail to Trash',
    );
    // "Also move existing mail to Trash" unchecked: the block takes new mail only.
    expect(
      unsubscribedText(shop, result({ method: 'block', blockedAndTrashed: true, movedToTrash: 0 })),
    ).toBe('Blocked Shop Alpha; no mail was moved to Trash');
    // The flow goes on (a page to open): no note yet.
    expect(unsubscribedText(shop, result({ method: 'manual', manualUnsubscribe: true }))).toBeNull();
  });

  it('says what a keep, a block, their undos and a manual confirmation did', () => {
    expect(keptText(shop)).toBe('Kept Shop Alpha');
    expect(keptText(shop, { ...shop, blockLifted: true })).toBe('Kept Shop Alpha and lifted its block');
    expect(putBackText(shop, 3)).toBe('Moved 3 messages of Shop Alpha back from Trash');
    expect(putBackText(shop, 0)).toBe('No mail of Shop Alpha was left in Trash');
    expect(keptText(shop, { ...shop, restoredFromScreener: 3 })).toBe(
      'Kept Shop Alpha and moved 3 messages back to the inbox',
    );
    expect(keptText(shop, { ...shop, restoredFromScreener: 0 })).toBe('Kept Shop Alpha');
    expect(blockedText(shop, { ...shop, movedToTrash: 42 })).toBe(
      'Blocked Shop Alpha and moved 42 messages to Trash',
    );
    expect(blockedText(shop, { ...shop, movedToTrash: 0 })).toBe('Blocked Shop Alpha');
    expect(unblockedText(shop, { ...shop, restoredFromTrash: 42 })).toBe(
      'Unblocked Shop Alpha, moved 42 messages back',
    );
    expect(unblockedText(shop, shop)).toBe('Unblocked Shop Alpha');
    expect(manualText(shop)).toBe('Marked Shop Alpha as unsubscribed');
    expect(keptText({ ...shop, senderName: ' ' })).toBe('Kept news@shop.example');
  });

  it('says what a slow unsubscribe waits for', () => {
    expect(slowText('unsubscribe', shop)).toBe('Contacting shop.example… this can take up to 30 seconds');
  });
});
