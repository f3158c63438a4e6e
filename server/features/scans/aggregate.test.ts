import { describe, expect, it } from 'vitest';
import type { MessageHeaders } from '../../mail/provider.js';
import { tallyBatch } from './aggregate.js';
import { headerFieldsFromPairs } from './headers.js';

function msg(id: string, date: number | null, headers: Record<string, string>): MessageHeaders {
  return {
    id,
    folder: 'INBOX',
    date,
    fields: headerFieldsFromPairs(Object.entries(headers).map(([name, value]) => ({ name, value }))),
  };
}

describe('tallyBatch', () => {
  it('groups by lowercased address, counts every message and keeps the newest name and date', () => {
    const tallies = tallyBatch([
      msg('3', 300, {
        From: 'News Today <NEWS@example.com>',
        'List-Unsubscribe': '<https://example.com/u/3>',
      }),
      msg('1', 100, { From: 'Old Name <news@example.com>', 'List-Unsubscribe': '<https://example.com/u/1>' }),
      msg('5', 500, { From: '=?utf-8?q?News_=E2=9C=93?= <news@example.com>' }),
      msg('2', 200, { From: 'Friend <friend@example.org>', Subject: 'Lunch' }),
    ]);
    const news = tallies.get('news@example.com')!;
    expect(news).toMatchObject({ count: 3, lastMessageAt: 500, name: 'News ✓', isSubscription: true });
    expect(news.unsubscribe).toEqual({
      http: ['https://example.com/u/3'],
      mailto: [],
      oneClick: false,
      seenAt: 300,
    });
    expect(news.messages.map((m) => m.id)).toEqual(['3', '1', '5']);
    expect(tallies.get('friend@example.org')).toMatchObject({
      count: 1,
      isSubscription: false,
      unsubscribe: null,
    });
  });

  it('treats List-Id and Precedence bulk as list signals without links', () => {
    const tallies = tallyBatch([
      msg('1', 1, { From: 'dev@lists.example', 'List-Id': '<dev.lists.example>' }),
      msg('2', 2, { From: 'deals@shop.example', Precedence: 'bulk' }),
      msg('3', 3, { From: 'junk@shop.example', Precedence: 'junk' }),
    ]);
    expect(tallies.get('dev@lists.example')).toMatchObject({
      isSubscription: true,
      listSignal: true,
      unsubscribe: null,
    });
    expect(tallies.get('deals@shop.example')).toMatchObject({ isSubscription: true, listSignal: true });
    expect(tallies.get('junk@shop.example')).toMatchObject({ isSubscription: false, listSignal: false });
  });

  it('takes one-click from the message whose links it keeps, and ignores unusable links', () => {
    const tallies = tallyBatch([
      msg('1', 10, { From: 'a@x.example', 'List-Unsubscribe': '<ftp://x.example/u>' }),
      msg('2', 20, {
        From: 'a@x.example',
        'List-Unsubscribe': '<https://x.example/one>, <mailto:u@x.example>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      }),
    ]);
    expect(tallies.get('a@x.example')!.unsubscribe).toEqual({
      http: ['https://x.example/one'],
      mailto: ['mailto:u@x.example'],
      oneClick: true,
      seenAt: 20,
    });
  });

  it('skips messages without a usable From and reuses parsed senders through the cache', () => {
    const cache = new Map();
    const tallies = tallyBatch(
      [msg('1', 1, { Subject: 'no from' }), msg('2', 2, { From: 'MAILER-DAEMON' })],
      cache,
    );
    expect(tallies.size).toBe(0);
    tallyBatch(
      [msg('3', 3, { From: 'Same <same@x.example>' }), msg('4', 4, { From: 'Same <same@x.example>' })],
      cache,
    );
    expect([...cache.keys()]).toEqual(['', 'MAILER-DAEMON', 'Same <same@x.example>']);
  });
});
