import { describe, expect, it } from 'vitest';
import { emptyHeaderFields } from '../headers/headers.js';
import type { MessageHeaders } from '../provider.js';
import { parseBatchResponse } from './batch.js';
import { discoveryQuery, excludedMail, queryGroups, senderQuery } from './scan-query.js';
import { wantedNext } from './scan-senders.js';
import { readGmailState } from './state.js';
import { retryAfterMs } from './transport.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2025-07-01T10:00:00Z');
  it('reads seconds, an HTTP date, or the time in Gmail’s message', () => {
    expect(retryAfterMs('2', '', now)).toBe(2000);
    expect(retryAfterMs('Tue, 01 Jul 2025 10:00:30 GMT', '', now)).toBe(30_000);
    expect(retryAfterMs(null, 'User-rate limit exceeded.  Retry after 2025-07-01T10:01:00.000Z', now)).toBe(
      60_000,
    );
    expect(retryAfterMs(null, 'Rate Limit Exceeded', now)).toBeNull();
  });
});

describe('parseBatchResponse', () => {
  it('splits Google’s multipart answer by Content-ID and position', () => {
    const body = [
      '--batch_abc',
      'Content-Type: application/http',
      'Content-ID: <response-m3>',
      '',
      'HTTP/1.1 200 OK',
      'Content-Type: application/json; charset=UTF-8',
      '',
      '{"id":"a"}',
      '--batch_abc',
      'Content-Type: application/http',
      'Content-ID: <response-m7>',
      '',
      'HTTP/1.1 429 Too Many Requests',
      'Retry-After: 3',
      '',
      '{"error":{"code":429}}',
      '--batch_abc--',
      '',
    ].join('\r\n');
    const parts = parseBatchResponse('multipart/mixed; boundary=batch_abc', body);
    expect(parts.get('m3')).toEqual({ status: 200, body: '{"id":"a"}', retryAfter: null });
    expect(parts.get('m7')).toMatchObject({ status: 429, retryAfter: '3' });
    expect(parts.get('#1')).toBe(parts.get('m7'));
  });
});

describe('discovery queries', () => {
  it('excludes the user and the busiest senders first, within the length budget', () => {
    const senders = { 'a@x.example': 3, 'b@x.example': 90, 'c@x.example': 10 };
    expect(discoveryQuery('unsubscribe', 'me@gmail.test', senders, 1000)).toBe(
      'unsubscribe -from:me@gmail.test -from:b@x.example -from:c@x.example -from:a@x.example',
    );
    expect(discoveryQuery('unsubscribe', 'me@gmail.test', senders, 60)).toBe(
      'unsubscribe -from:me@gmail.test -from:b@x.example',
    );
    expect(senderQuery('odd"name (x)@x.example')).toBe('from:"oddname (x)@x.example"');
  });

  it('quotes a sender address that Gmail’s search syntax would read as more than an address', () => {
    // Braces are an OR group, a space ends the term (and "OR" between two is an operator), parentheses
    // group: quoted, the address is one phrase. A plain address is read as it is.
    expect(senderQuery('{a,b}@x.example')).toBe('from:"{a,b}@x.example"');
    expect(senderQuery('a OR b@x.example')).toBe('from:"a OR b@x.example"');
    expect(senderQuery('news(1)@x.example')).toBe('from:"news(1)@x.example"');
    expect(senderQuery("news+tag.o'brien@x-y.example")).toBe("from:news+tag.o'brien@x-y.example");
  });
});

describe('readGmailState', () => {
  it('accepts its own checkpoints and nothing else', () => {
    expect(readGmailState(null)).toBeNull();
    expect(readGmailState({ v: 1, provider: 'imap', historyId: '5' })).toBeNull();
    expect(readGmailState({ v: 1, provider: 'gmail', historyId: 'x', scan: null })).toBeNull();
    expect(
      readGmailState({ v: 1, provider: 'gmail', historyId: '42', scan: null, skipIds: ['a', 3] }),
    ).toEqual({
      v: 1,
      provider: 'gmail',
      historyId: '42',
      scan: null,
      skipIds: ['a'],
    });
    const resumed = readGmailState({
      v: 1,
      provider: 'gmail',
      historyId: '42',
      scan: {
        pass: 2,
        cursor: { q: 'unsubscribe', pageToken: 'p2' },
        senders: { 'a@x': 4, 'b@x': -1 },
        scanned: 4,
      },
    });
    expect(resumed?.scan).toEqual({
      pass: 2,
      cursor: { q: 'unsubscribe', pageToken: 'p2' },
      senders: { 'a@x': 4 },
      scanned: 4,
      queryLength: 0,
    });
  });
});

describe('what the scan fetches of a sender (wantedNext)', () => {
  const FROM = 'News <news@x.example>';
  const message = (id: string, kind: 'linked' | 'list-id' | 'personal'): MessageHeaders => ({
    id,
    folder: '[Gmail]/All Mail',
    date: null,
    seen: null,
    fields: {
      ...emptyHeaderFields(FROM),
      listUnsubscribe: kind === 'linked' ? ['<https://x.example/u>'] : [],
      listId: kind === 'list-id' ? '<news.x.example>' : null,
    },
  });
  const have = (...ms: MessageHeaders[]) => new Map(ms.map((m) => [m.id, m]));

  it('the newest, down to the newest links, and two with list evidence', () => {
    const listing = ['a', 'b', 'c', 'd'];
    expect(wantedNext(listing, have())).toBe('a');
    // The discovery hit is an older one: the newest comes first.
    expect(wantedNext(listing, have(message('c', 'linked')))).toBe('a');
    expect(wantedNext(listing, have(message('a', 'linked')))).toBe('b');
    expect(wantedNext(listing, have(message('a', 'linked'), message('c', 'linked')))).toBeNull();
    expect(wantedNext(listing, have(message('a', 'linked'), message('b', 'list-id')))).toBeNull();
    // A personal note on top: the links are those of the next message that has some.
    expect(wantedNext(listing, have(message('a', 'personal'), message('c', 'linked')))).toBe('b');
    expect(wantedNext(listing, have(message('a', 'personal'), message('b', 'linked')))).toBe('c');
    expect(
      wantedNext(listing, have(message('a', 'personal'), message('b', 'linked'), message('c', 'list-id'))),
    ).toBeNull();
    // A list without links is fetched as deep as it is given; a sender of one needs that one.
    expect(wantedNext(['a', 'b'], have(message('a', 'list-id'), message('b', 'list-id')))).toBeNull();
    expect(wantedNext(['a'], have(message('a', 'linked')))).toBeNull();
    // Deleted between the listing and the get: passed over.
    expect(wantedNext(listing, have(message('b', 'linked')), new Set(['a']))).toBe('c');
  });
});

describe('read-state queries and exclusions', () => {
  it('groups senders within the query budget', () => {
    const addresses = ['a@x.example', 'b@x.example', 'c@x.example'];
    // `is:unread {` + `from:a@x.example ` per sender + `}`
    expect(queryGroups(addresses, 1000)).toEqual([[0, 1, 2]]);
    expect(queryGroups(addresses, 'is:unread {}'.length + 2 * 18)).toEqual([[0, 1], [2]]);
    expect(queryGroups(addresses, 10)).toEqual([[0], [1], [2]]);
  });

  it('counts the mail a discovery query leaves out', () => {
    const senders = { 'a@x.example': 3, 'b@x.example': 90, 'ab@x.example': 7 };
    const q = discoveryQuery('unsubscribe', 'me@gmail.test', senders, 60);
    expect(q).toBe('unsubscribe -from:me@gmail.test -from:b@x.example');
    expect(excludedMail(q, senders)).toBe(90);
    expect(excludedMail(discoveryQuery('unsubscribe', 'me@gmail.test', senders, 1000), senders)).toBe(100);
  });
});
