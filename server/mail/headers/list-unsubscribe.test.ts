import { describe, expect, it } from 'vitest';
import {
  isOneClick,
  MAX_TOTAL_LENGTH,
  MAX_URI_LENGTH,
  MAX_URIS,
  MAX_VALUE_LENGTH,
  parseListUnsubscribe,
} from './list-unsubscribe.js';

describe('parseListUnsubscribe', () => {
  it('reads bracketed, comma-separated URIs in preference order', () => {
    expect(
      parseListUnsubscribe(['<mailto:u@example.com?subject=unsubscribe>, <https://example.com/u?a=1&b=2>']),
    ).toEqual({
      https: ['https://example.com/u?a=1&b=2'],
      mailto: ['mailto:u@example.com?subject=unsubscribe'],
      all: ['mailto:u@example.com?subject=unsubscribe', 'https://example.com/u?a=1&b=2'],
    });
  });

  it('needs no space after the comma and tolerates trailing ones', () => {
    expect(parseListUnsubscribe(['<mailto:u@example.com>,<https://example.com/u>, ']).all).toEqual([
      'mailto:u@example.com',
      'https://example.com/u',
    ]);
  });

  it('removes whitespace left inside a URI by folding', () => {
    expect(parseListUnsubscribe(['<https://example.com/list/\t spam\r\n  -talk>']).https).toEqual([
      'https://example.com/list/spam-talk',
    ]);
  });

  it('decodes a value that is entirely RFC 2047 encoded words, brackets included', () => {
    const value = '=?us-ascii?Q?=3Chttps=3A=2F=2Fexample=2Ecom=2Fu=3Fa=3D?=\r\n =?us-ascii?Q?1&b=3D2=3E?=';
    expect(parseListUnsubscribe([value]).https).toEqual(['https://example.com/u?a=1&b=2']);
  });

  it('accepts an unbracketed URI with a stray space inside', () => {
    expect(parseListUnsubscribe(['http://news.example.com/unsub.jsp?id= 5812L1QV-41']).https).toEqual([
      'http://news.example.com/unsub.jsp?id=5812L1QV-41',
    ]);
  });

  it('splits unbracketed URIs only where a new URI starts', () => {
    expect(parseListUnsubscribe(['mailto:u@example.com, https://example.com/u']).all).toEqual([
      'mailto:u@example.com',
      'https://example.com/u',
    ]);
    expect(parseListUnsubscribe(['https://example.com/u mailto:u@example.com']).all).toEqual([
      'https://example.com/u',
      'mailto:u@example.com',
    ]);
  });

  it('keeps mixed bare and bracketed URIs in left-to-right order', () => {
    expect(parseListUnsubscribe(['https://example.com/bare, <mailto:u@example.com>']).all).toEqual([
      'https://example.com/bare',
      'mailto:u@example.com',
    ]);
  });

  it('ignores comments outside the brackets', () => {
    expect(parseListUnsubscribe(['(Use this to leave) <mailto:u@example.com> (or the web)']).all).toEqual([
      'mailto:u@example.com',
    ]);
  });

  it('ignores unusable schemes and malformed URIs', () => {
    const values = [
      '<ftp://example.com/u>, <news:alt.test>, <javascript:alert(1)>, <http:example.com>',
      '<https://>, <mailto:>, <mailto:?subject=unsubscribe>, <mailto:nobody>, <>, unsubscribe, NO',
    ];
    expect(parseListUnsubscribe(values)).toEqual({ https: [], mailto: [], all: [] });
  });

  it('matches the scheme case-insensitively but keeps the URI exactly as sent', () => {
    expect(parseListUnsubscribe(['<HTTPS://Example.com/U?T=AbC%2F>, <MailTo:X@Example.com>']).all).toEqual([
      'HTTPS://Example.com/U?T=AbC%2F',
      'MailTo:X@Example.com',
    ]);
  });

  it('dedupes across headers in order of first appearance', () => {
    const result = parseListUnsubscribe([
      '<mailto:list+unsubscribe@lists.example.org>',
      '<https://esp.example.com/u>, <mailto:list+unsubscribe@lists.example.org>, <http://esp.example.com/u>',
      '<https://esp.example.com/u>',
    ]);
    expect(result.all).toEqual([
      'mailto:list+unsubscribe@lists.example.org',
      'https://esp.example.com/u',
      'http://esp.example.com/u',
    ]);
    expect(result.https).toEqual(['https://esp.example.com/u', 'http://esp.example.com/u']);
  });

  it('does not report a URL inside a mailto subject as a web URI', () => {
    const result = parseListUnsubscribe([
      '<mailto:unsub@esp.example.com?subject=https://esp.example.com/x/y>',
    ]);
    expect(result.https).toEqual([]);
    expect(result.mailto).toEqual(['mailto:unsub@esp.example.com?subject=https://esp.example.com/x/y']);
  });

  it('salvages a truncated bracket', () => {
    expect(
      parseListUnsubscribe(['<https://example.com/a, <mailto:u@example.com>, <https://example.com/b']).all,
    ).toEqual(['https://example.com/a', 'mailto:u@example.com', 'https://example.com/b']);
  });

  it('stays linear on hostile values', () => {
    const n = 200_000;
    const started = performance.now();
    expect(
      parseListUnsubscribe(['<'.repeat(n), `${' '.repeat(n)}x`, `<${','.repeat(n)}x`, '(a '.repeat(n)]).all,
    ).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('keeps at most 10 URIs, over all headers', () => {
    const uris = Array.from({ length: 10_000 }, (_, i) => `https://example.com/u/${i}`);
    const result = parseListUnsubscribe([
      uris
        .slice(0, 6)
        .map((u) => `<${u}>`)
        .join(', '),
      uris
        .slice(6)
        .map((u) => `<${u}>`)
        .join(', '),
    ]);
    expect(result.all).toEqual(uris.slice(0, MAX_URIS));
    expect(result.https).toHaveLength(MAX_URIS);
    expect(MAX_URIS).toBe(10);
  });

  it('drops a URI longer than 2 KiB instead of shortening it', () => {
    const long = `https://example.com/${'a'.repeat(MAX_URI_LENGTH)}`;
    const fits = `https://example.com/${'b'.repeat(MAX_URI_LENGTH - 'https://example.com/'.length)}`;
    expect(parseListUnsubscribe([`<${long}>, <${fits}>, <mailto:u@example.com>`]).all).toEqual([
      fits,
      'mailto:u@example.com',
    ]);
  });

  it('reads only the first 8 KiB of a value, and never a URI the cut went through', () => {
    const filler = `<https://example.com/${'f'.repeat(1000)}>`;
    const head = Array.from({ length: 7 }, () => filler).join(',');
    expect(head.length).toBeLessThan(MAX_VALUE_LENGTH);
    // The cut falls inside the second URI: the first is read, the second would be wrong and is not.
    const value = `${head}, <https://example.com/first>, <https://example.com/${'x'.repeat(2000)}>, <mailto:u@example.com>`;
    expect(parseListUnsubscribe([value]).all).toEqual([filler.slice(1, -1), 'https://example.com/first']);
    // The same URI cut by the limit inside an unclosed bracket is not salvaged either.
    const cut = parseListUnsubscribe([
      `${head}, <https://example.com/first, <https://example.com/${'y'.repeat(2000)}`,
    ]);
    expect(cut.all).toEqual([filler.slice(1, -1)]);
  });

  it('reads at most 16 KiB over all values', () => {
    const big = `<https://example.com/big>,${' '.repeat(MAX_VALUE_LENGTH)}`;
    expect(MAX_TOTAL_LENGTH).toBe(2 * MAX_VALUE_LENGTH);
    expect(parseListUnsubscribe([big, big, '<https://example.com/third>']).all).toEqual([
      'https://example.com/big',
    ]);
    expect(parseListUnsubscribe(['<https://example.com/small>', '<https://example.com/next>']).all).toEqual([
      'https://example.com/small',
      'https://example.com/next',
    ]);
  });

  it('returns nothing for no headers or empty ones', () => {
    expect(parseListUnsubscribe([]).all).toEqual([]);
    expect(parseListUnsubscribe(['', '   ']).all).toEqual([]);
  });
});

describe('isOneClick', () => {
  const https = ['<https://example.com/u>'];
  const post = ['List-Unsubscribe=One-Click'];

  it('needs the exact POST marker and an https URI', () => {
    expect(isOneClick({ listUnsubscribe: https, listUnsubscribePost: post })).toBe(true);
    expect(
      isOneClick({ listUnsubscribe: https, listUnsubscribePost: ['  List-Unsubscribe=One-Click \t'] }),
    ).toBe(true);
    expect(isOneClick({ listUnsubscribe: https, listUnsubscribePost: [] })).toBe(false);
  });

  it('rejects misspelt markers', () => {
    for (const typo of [
      'ListUnsubscribe=One-Click',
      'list-unsubscribe=one-click',
      'List-Unsubscribe = One-Click',
    ]) {
      expect(isOneClick({ listUnsubscribe: https, listUnsubscribePost: [typo] }), typo).toBe(false);
    }
  });

  it('rejects mailto-only and plain-http lists even with the marker', () => {
    expect(isOneClick({ listUnsubscribe: ['<mailto:u@example.com>'], listUnsubscribePost: post })).toBe(
      false,
    );
    expect(isOneClick({ listUnsubscribe: ['<http://example.com/u>'], listUnsubscribePost: post })).toBe(
      false,
    );
  });

  it('finds the marker among several -Post headers', () => {
    expect(isOneClick({ listUnsubscribe: https, listUnsubscribePost: ['junk', ...post] })).toBe(true);
  });
});
