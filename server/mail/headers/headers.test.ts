import { describe, expect, it } from 'vitest';
import { corpusBlocks } from '#test/helpers/hostile-headers.js';
import {
  emptyHeaderFields,
  headerFieldsFromPairs,
  parseHeaderBlock,
  parseHeaderBytes,
  unfold,
} from './headers.js';

const crlf = (...lines: string[]) => lines.join('\r\n');

describe('parseHeaderBlock', () => {
  it('returns an empty shape for empty input', () => {
    const empty = emptyHeaderFields();
    expect(empty).toEqual({
      from: null,
      listUnsubscribe: [],
      listUnsubscribePost: [],
      listId: null,
      precedence: null,
      listPost: null,
      subject: null,
      date: null,
      messageId: null,
    });
    expect(parseHeaderBlock('')).toEqual(empty);
    expect(parseHeaderBlock(Buffer.alloc(0))).toEqual(empty);
    expect(parseHeaderBlock('\r\n\r\nFrom: body@example.com\r\n')).toEqual(empty);
  });

  it('reads the named fields, case-insensitively, with or without a space after the colon', () => {
    const f = parseHeaderBlock(
      crlf(
        'FROM: Ann <ann@example.com>',
        'list-id:<news.example.com>',
        'precedence:bulk',
        'Subject : hello',
        'Date: Mon, 1 Jan 2024 10:00:00 +0000',
        'Message-ID: <1@example.com>',
        '',
        'body',
      ),
    );
    expect(f.from).toBe('Ann <ann@example.com>');
    expect(f.listId).toBe('<news.example.com>');
    expect(f.precedence).toBe('bulk');
    expect(f.subject).toBe('hello');
    expect(f.date).toBe('Mon, 1 Jan 2024 10:00:00 +0000');
    expect(f.messageId).toBe('<1@example.com>');
  });

  it('stops at the first empty line, so header-like body text is not read', () => {
    const f = parseHeaderBlock(
      [
        'From: a@example.com',
        'List-Subscribe: <http://lists.example.com/listinfo/x>,',
        '',
        'List-Unsubscribe: <http://lists.example.com/listinfo/x>,',
        '',
        'Precedence: bulk',
      ].join('\n'),
    );
    expect(f.listUnsubscribe).toEqual([]);
    expect(f.precedence).toBeNull();
  });

  it('unfolds continuation lines (space or tab), keeping the folding whitespace', () => {
    const f = parseHeaderBlock(
      crlf(
        'List-Unsubscribe: <https://example.com/u>,',
        '\t<mailto:u@example.com>',
        'List-Unsubscribe:',
        ' <https://example.com/second>',
        'Subject: one',
        '  two',
        '',
      ),
    );
    expect(f.listUnsubscribe).toEqual([
      '<https://example.com/u>,\t<mailto:u@example.com>',
      '<https://example.com/second>',
    ]);
    expect(f.subject).toBe('one  two');
  });

  it('keeps every repeated List-Unsubscribe and -Post in order; single fields take the first non-empty', () => {
    const f = parseHeaderBlock(
      crlf(
        'Subject:',
        'Subject: first',
        'Subject: second',
        'List-Unsubscribe: <mailto:a@example.com>',
        'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
        'List-Unsubscribe: <https://example.com/b>',
        'List-Unsubscribe-Post: other',
        '',
      ),
    );
    expect(f.subject).toBe('first');
    expect(f.listUnsubscribe).toEqual(['<mailto:a@example.com>', '<https://example.com/b>']);
    expect(f.listUnsubscribePost).toEqual(['List-Unsubscribe=One-Click', 'other']);
  });

  it('skips an mbox "From " envelope line only when it is the first line', () => {
    const f = parseHeaderBlock(
      'From bounce@example.com  Mon Aug 12 12:59:02 2002\nFrom: Real <real@example.com>\n\n',
    );
    expect(f.from).toBe('Real <real@example.com>');
    const g = parseHeaderBlock('Subject: x\nFrom someone else\nFrom: b@example.com\n\n');
    expect(g.from).toBe('b@example.com');
  });

  it('drops noise lines and does not attach a continuation to them', () => {
    const f = parseHeaderBlock(
      crlf(' orphan continuation', 'not a header line', ' <https://example.com/x>', 'Subject: kept', ''),
    );
    expect(f.subject).toBe('kept');
    expect(f.listUnsubscribe).toEqual([]);
  });

  it('accepts LF-only line endings and a header block with no body', () => {
    const f = parseHeaderBlock('From: a@example.com\nList-Id: <x.example.com>');
    expect(f.from).toBe('a@example.com');
    expect(f.listId).toBe('<x.example.com>');
  });

  it('decodes RFC 2047 words in Subject but leaves From raw for the address parser', () => {
    const f = parseHeaderBlock(
      crlf(
        'From: =?UTF-8?B?U2Now7ZwZmxpbg==?= <s@example.com>',
        'Subject: =?utf-8?Q?Gr=C3=BC=C3=9Fe?= aus',
        '',
      ),
    );
    expect(f.subject).toBe('Grüße aus');
    expect(f.from).toBe('=?UTF-8?B?U2Now7ZwZmxpbg==?= <s@example.com>');
  });

  it('decodes raw 8-bit header bytes as UTF-8 when they are valid UTF-8', () => {
    const raw = Buffer.from('From: Björn <b@example.com>\r\nSubject: Grüße 😀\r\n\r\n', 'utf8');
    const f = parseHeaderBlock(raw);
    expect(f.from).toBe('Björn <b@example.com>');
    expect(f.subject).toBe('Grüße 😀');
  });

  it('falls back to latin1 for invalid UTF-8, field by field', () => {
    const raw = Buffer.concat([
      Buffer.from('Subject: Caf'),
      Buffer.from([0xe9]), // latin1 é, invalid as UTF-8
      Buffer.from('\r\nFrom: Zoë <z@example.com>\r\n\r\n', 'utf8'),
    ]);
    const f = parseHeaderBlock(raw);
    expect(f.subject).toBe('Café');
    expect(f.from).toBe('Zoë <z@example.com>');
  });

  it("uses the message's declared charset for raw bytes that are not UTF-8", () => {
    // "中文" in Big5, as Mailman lists of the time relayed it
    const raw = Buffer.concat([
      Buffer.from('Content-Type: text/plain; charset="big5"\r\nSubject: '),
      Buffer.from([0xa4, 0xa4, 0xa4, 0xe5]),
      Buffer.from('\r\n\r\n'),
    ]);
    expect(parseHeaderBlock(raw).subject).toBe('中文');
  });

  it('falls back to latin1 when the declared charset is unknown', () => {
    const raw = Buffer.concat([
      Buffer.from('Content-Type: text/plain; charset=x-made-up\r\nSubject: '),
      Buffer.from([0xe9]),
      Buffer.from('\r\n\r\n'),
    ]);
    expect(parseHeaderBlock(raw).subject).toBe('é');
  });

  it('handles a huge header line in linear time', () => {
    const uri = `https://example.com/u?t=${'a'.repeat(2_000_000)}`;
    const raw = Buffer.from(
      `From: a@example.com\r\nList-Unsubscribe: <${uri}>\r\nSubject: ${'=?'.repeat(100_000)}\r\n\r\n`,
    );
    const started = performance.now();
    const f = parseHeaderBlock(raw);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(f.listUnsubscribe).toEqual([`<${uri}>`]);
    expect(f.subject).toBe('=?'.repeat(100_000));
  });
});

describe('parseHeaderBlock on ASCII', () => {
  it('reads an ASCII block as one string exactly as field by field: corpus blocks and mutations of them', () => {
    const blocks = corpusBlocks
      .map((b) => Buffer.from(b, 'latin1'))
      .filter((b) => b.every((byte) => byte < 0x80));
    expect(blocks.length).toBeGreaterThan(10);
    const pieces = ['\r\n', '\n', '\r', ' ', '\t', ':', 'From ', 'X', '\r\n\r\n', '\n ', '=?utf-8?q?a?='];
    let seed = 5;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const cases = [
      ...blocks,
      Buffer.from('From a@b Mon\r\nFrom: x\r\n'),
      Buffer.from('Subject: a\r\n\tb\n c\r\rd'),
    ];
    for (let round = 0; round < 3000; round++) {
      let text = blocks[random(blocks.length)]!.toString('latin1').slice(0, 600);
      for (let k = 1 + random(4); k > 0; k--) {
        const at = random(text.length + 1);
        const cut = random(3);
        text = text.slice(0, at) + pieces[random(pieces.length)]! + text.slice(at + cut);
      }
      cases.push(Buffer.from(text, 'latin1'));
    }
    for (const block of cases) {
      expect(parseHeaderBlock(block), JSON.stringify(block.toString('latin1').slice(0, 200))).toEqual(
        parseHeaderBytes(block),
      );
    }
  });
});

describe('headerFieldsFromPairs', () => {
  it('matches names case-insensitively, unfolds values and decodes the subject', () => {
    const f = headerFieldsFromPairs([
      { name: 'from', value: '=?utf-8?Q?Bj=C3=B6rn?= <b@example.com>' },
      { name: 'LIST-UNSUBSCRIBE', value: '<https://example.com/u>,\r\n <mailto:u@example.com>' },
      { name: 'List-Unsubscribe', value: '<https://example.com/u>' },
      { name: 'list-unsubscribe-post', value: ' List-Unsubscribe=One-Click ' },
      { name: 'Subject', value: '=?utf-8?B?8J+YgA==?= news' },
      { name: 'List-ID', value: '' },
    ]);
    expect(f.from).toBe('=?utf-8?Q?Bj=C3=B6rn?= <b@example.com>');
    expect(f.listUnsubscribe).toEqual([
      '<https://example.com/u>, <mailto:u@example.com>',
      '<https://example.com/u>',
    ]);
    expect(f.listUnsubscribePost).toEqual(['List-Unsubscribe=One-Click']);
    expect(f.subject).toBe('😀 news');
    expect(f.listId).toBeNull();
  });

  it('produces the same shape as the raw parser for the same message', () => {
    const raw = crlf(
      'From: A <a@example.com>',
      'List-Unsubscribe: <mailto:x@example.com>',
      'Precedence: list',
      '',
    );
    const pairs = [
      { name: 'From', value: 'A <a@example.com>' },
      { name: 'List-Unsubscribe', value: '<mailto:x@example.com>' },
      { name: 'Precedence', value: 'list' },
    ];
    expect(headerFieldsFromPairs(pairs)).toEqual(parseHeaderBlock(raw));
  });
});

describe('unfold', () => {
  it('removes CRLF before whitespace and any stray line breaks', () => {
    expect(unfold('a\r\n b\n\tc\rd\ne')).toBe('a b\tcde');
  });
});
