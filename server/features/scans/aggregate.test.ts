import { describe, expect, it } from 'vitest';
import { headerFieldsFromPairs } from '#server/mail/headers/headers.js';
import type { MessageHeaders } from '#server/mail/provider.js';
import { tallyBatch } from './aggregate.js';

function msg(id: string, date: number | null, headers: Record<string, string>): MessageHeaders {
  return {
    id,
    folder: 'INBOX',
    date,
    fields: headerFieldsFromPairs(Object.entries(headers).map(([name, value]) => ({ name, value }))),
  };
}

describe('tallyBatch', () => {
  it('keeps the read state of each message and the newest List-Post address as the list a poster came through', () => {
    const post = (id: string, date: number, from: string, listPost: string, seen?: boolean | null) => ({
      ...msg(id, date, { From: from, 'List-Id': '<lkml.vger.kernel.org>', 'List-Post': listPost }),
      seen,
    });
    const tallies = tallyBatch([
      post('1', 100, 'Linus <linus@kernel.example>', '<mailto:old-list@vger.kernel.org>', true),
      post('3', 300, 'Linus <linus@kernel.example>', '<mailto:linux-kernel@vger.kernel.org>', false),
      // Newer, but without a usable address: it does not replace the list the poster came through.
      post('4', 400, 'Linus <linus@kernel.example>', 'NO', null),
      post('2', 200, 'Linus <linus@kernel.example>', '<mailto:stable@vger.kernel.org>'),
      // A list writing as its own posting address is not "via" itself.
      post('5', 500, 'Announce <announce@lists.example>', '<mailto:announce@lists.example>'),
    ]);
    const linus = tallies.get('linus@kernel.example')!;
    expect(linus.via).toEqual({ address: 'linux-kernel@vger.kernel.org', seenAt: 300 });
    expect(linus.messages.map((m) => [m.id, m.seen])).toEqual([
      ['1', 1],
      ['3', 0],
      ['4', null],
      ['2', null],
    ]);
    expect(tallies.get('announce@lists.example')!.via).toBeNull();
  });

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

  it('counts the messages that carry list evidence, each one, whatever links are already held', () => {
    const tallies = tallyBatch([
      msg('1', 50, { From: 'news@x.example', 'List-Unsubscribe': '<https://x.example/new>' }),
      // Older links than the ones held: not read for links, still list evidence.
      msg('2', 40, { From: 'news@x.example', 'List-Unsubscribe': '<https://x.example/old>' }),
      msg('3', 30, { From: 'news@x.example', 'List-Id': '<news.x.example>' }),
      msg('4', 20, { From: 'news@x.example', Precedence: 'List' }),
      // No usable URI, other Precedence, nothing: not list evidence.
      msg('5', 10, { From: 'news@x.example', 'List-Unsubscribe': '<ftp://x.example/u>' }),
      msg('6', 10, { From: 'news@x.example', Precedence: 'junk' }),
      msg('7', 10, { From: 'news@x.example' }),
    ]);
    expect(tallies.get('news@x.example')).toMatchObject({ count: 7, listCount: 4, isSubscription: true });
  });

  it('does not let one list message make a correspondent a subscription', () => {
    const personal = (id: string) =>
      msg(id, Number(id), { From: 'Pal <pal@y.example>', Subject: `Hi ${id}` });
    const spoofed = msg('9', 9, { From: 'Pal <pal@y.example>', Precedence: 'bulk', Subject: 'Buy' });
    const tallies = tallyBatch([personal('1'), personal('2'), spoofed, personal('3'), personal('4')]);
    expect(tallies.get('pal@y.example')).toMatchObject({
      count: 5,
      listCount: 1,
      isSubscription: false,
      listSignal: true,
    });
    // A newsletter's first message is enough, and so are two list messages beside personal mail.
    expect(tallyBatch([spoofed]).get('pal@y.example')).toMatchObject({ count: 1, isSubscription: true });
    expect(tallyBatch([personal('1'), spoofed, { ...spoofed, id: '10' }]).get('pal@y.example')).toMatchObject(
      { count: 3, listCount: 2, isSubscription: true },
    );
  });
});
