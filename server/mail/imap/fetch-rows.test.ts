import type { ImapFlow } from 'imapflow';
import { describe, expect, it } from 'vitest';
import { fetchRows, readFetchLine, readFetchRow } from './fetch-rows.js';

// The tokens below are what ImapFlow's parser hands an untagged FETCH handler (captured from Dovecot):
// `* 1 FETCH (UID 7 FLAGS (\Seen) INTERNALDATE "…" BODY[HEADER.FIELDS (FROM)] {n} …)`.
const atom = (value: string) => ({ type: 'ATOM', value });
const header = Buffer.from('From: A <a@x.com>\r\nSubject: hi\r\n\r\n');
const section = [atom('HEADER.FIELDS'), [atom('FROM'), atom('SUBJECT')]];

function fetch(...pairs: unknown[]) {
  return { attributes: [atom('FETCH'), pairs] } as Parameters<typeof readFetchRow>[0];
}

describe('readFetchRow', () => {
  it('reads UID, \\Seen, INTERNALDATE and the header literal', () => {
    const row = readFetchRow(
      fetch(
        atom('UID'),
        atom('7'),
        atom('FLAGS'),
        [atom('\\Recent'), atom('\\Seen')],
        atom('INTERNALDATE'),
        { type: 'STRING', value: '25-Nov-2026 10:41:17 +0000' },
        { type: 'ATOM', value: 'BODY', section },
        { type: 'LITERAL', value: header },
      ),
      1,
      10,
    );
    expect(row).toEqual({ uid: 7, seen: true, internalDate: '25-Nov-2026 10:41:17 +0000', header });
  });

  it('compares flags and attribute names without case, and takes a quoted header as UTF-8', () => {
    const row = readFetchRow(
      fetch(
        atom('body'),
        { type: 'STRING', value: 'Subject: h\u00e9\r\n\r\n' },
        atom('uid'),
        atom('3'),
        atom('flags'),
        [atom('\\SEEN')],
      ),
      1,
      10,
    );
    // `body` without a section (BODYSTRUCTURE's short form) is not the header: never asked for, ignored.
    expect(row).toEqual({ uid: 3, seen: true, internalDate: null, header: Buffer.alloc(0) });
    const quoted = readFetchRow(
      fetch(
        atom('UID'),
        atom('3'),
        { type: 'ATOM', value: 'BODY', section },
        { type: 'STRING', value: 'Subject: h\u00e9' },
      ),
      1,
      10,
    );
    expect(quoted?.header.toString('utf8')).toBe('Subject: h\u00e9');
  });

  it('gives unknown read state without FLAGS, an empty header for NIL, unread for an empty flag list', () => {
    expect(
      readFetchRow(fetch(atom('UID'), atom('4'), { type: 'ATOM', value: 'BODY', section }, null), 1, 10),
    ).toEqual({ uid: 4, seen: null, internalDate: null, header: Buffer.alloc(0) });
    expect(readFetchRow(fetch(atom('UID'), atom('4'), atom('FLAGS'), []), 1, 10)?.seen).toBe(false);
    expect(readFetchRow(fetch(atom('UID'), atom('4'), atom('FLAGS'), null), 1, 10)?.seen).toBe(null);
  });

  it('drops unsolicited FETCHes, rows outside the range and unusable UIDs', () => {
    // Another client changing flags: no UID.
    expect(
      readFetchRow(fetch(atom('MODSEQ'), [atom('6')], atom('FLAGS'), [atom('\\Seen')]), 1, 10),
    ).toBeNull();
    expect(readFetchRow(fetch(atom('UID'), atom('11')), 1, 10)).toBeNull();
    expect(readFetchRow(fetch(atom('UID'), atom('0')), 0, 10)).toBeNull();
    for (const bad of ['007', '-1', '1e3', '4294967296', '99999999999', ' 5', '5 ', ''])
      expect(readFetchRow(fetch(atom('UID'), atom(bad)), 0, Number.MAX_SAFE_INTEGER)).toBeNull();
    expect(readFetchRow(fetch(atom('UID'), [atom('5')]), 1, 10)).toBeNull();
    expect(readFetchRow(fetch(atom('UID'), atom('4294967295')), 1, 4294967295)?.uid).toBe(4294967295);
  });

  it('survives malformed token lists: odd lengths, lists as names, no list at all', () => {
    expect(readFetchRow({}, 1, 10)).toBeNull();
    expect(readFetchRow({ attributes: [atom('FETCH')] }, 1, 10)).toBeNull();
    expect(readFetchRow({ attributes: [atom('FETCH'), atom('UID')] }, 1, 10)).toBeNull();
    expect(readFetchRow(fetch([atom('UID')], atom('3'), null, atom('x'), atom('UID')), 1, 10)).toBeNull();
    expect(readFetchRow(fetch(atom('UID'), atom('3'), atom('FLAGS')), 1, 10)).toEqual({
      uid: 3,
      seen: null,
      internalDate: null,
      header: Buffer.alloc(0),
    });
  });

  it('reads a row of many unknown pairs', () => {
    // A hostile server can send any number of name/value pairs in one row; each is looked at once.
    const pairs: unknown[] = [];
    for (let i = 0; i < 200_000; i++) pairs.push(atom('X-JUNK'), atom('1'));
    pairs.push(atom('UID'), atom('9'));
    expect(readFetchRow({ attributes: [atom('FETCH'), pairs] } as never, 1, 10)?.uid).toBe(9);
  });
});

/** A stand-in for ImapFlow's command channel: answers each exec with the given untagged rows, then OK. */
function channel(answers: Array<{ uids: string[] } | { error: object }>) {
  const sent: unknown[][] = [];
  let released = 0;
  const client = {
    async exec(
      command: string,
      attributes: unknown[],
      options: { untagged: { FETCH: (u: object) => void } },
    ) {
      sent.push([command, ...attributes]);
      const answer = answers.shift();
      if (!answer) throw new Error('no answer left');
      if ('error' in answer) throw answer.error;
      for (const uid of answer.uids) {
        options.untagged.FETCH(
          fetch(
            atom('UID'),
            atom(uid),
            atom('FLAGS'),
            [],
            { type: 'ATOM', value: 'BODY', section },
            {
              type: 'LITERAL',
              value: Buffer.from(`Subject: ${uid}\r\n\r\n`),
            },
          ),
        );
      }
      return { next: () => void released++ };
    },
  };
  return { client: client as unknown as ImapFlow, sent, released: () => released };
}

describe('fetchRows', () => {
  it('asks for UID, FLAGS, INTERNALDATE and the scan header fields, and releases the answer', async () => {
    const c = channel([{ uids: ['5', '3'] }]);
    const rows = await fetchRows(c.client, 1, 5, (row) => row.header.toString());
    expect(rows).toEqual([
      { uid: 5, value: 'Subject: 5\r\n\r\n' },
      { uid: 3, value: 'Subject: 3\r\n\r\n' },
    ]);
    expect(c.released()).toBe(1);
    const [command, range, query] = c.sent[0] as [string, { value: string }, Array<{ value: string }>];
    expect(command).toBe('UID FETCH');
    expect(range.value).toBe('1:5');
    expect(query.map((q) => q.value)).toEqual(['UID', 'FLAGS', 'INTERNALDATE', 'BODY.PEEK']);
  });

  it('keeps each UID once and none outside the range, however many rows the server sends', async () => {
    const flood = Array.from({ length: 10_000 }, (_, i) => String((i % 7) + 1));
    const c = channel([{ uids: ['2', ...flood, '99', '2'] }]);
    let reads = 0;
    const rows = await fetchRows(c.client, 2, 4, (row) => {
      reads += 1;
      return row.uid;
    });
    expect(rows.map((r) => r.uid).sort()).toEqual([2, 3, 4]);
    // Only the rows kept are turned into messages.
    expect(reads).toBe(3);
  });

  it('tries a throttled FETCH again (ImapFlow has waited out the back-off), up to three times', async () => {
    const throttled = { error: Object.assign(new Error('throttled'), { code: 'ETHROTTLE' }) };
    const c = channel([throttled, throttled, { uids: ['1'] }]);
    expect((await fetchRows(c.client, 1, 1, (r) => r.uid)).map((r) => r.uid)).toEqual([1]);
    expect(c.sent).toHaveLength(3);
    const always = channel([throttled, throttled, throttled, throttled, { uids: ['1'] }]);
    await expect(fetchRows(always.client, 1, 1, (r) => r.uid)).rejects.toThrow('throttled');
    expect(always.sent).toHaveLength(4);
  });

  it('fails the FETCH when a row cannot be read, instead of losing the row', async () => {
    const broken = new Error('unreadable');
    const c = channel([{ uids: ['1', '2', '3'] }]);
    await expect(
      fetchRows(c.client, 1, 3, (row) => {
        if (row.uid === 2) throw broken;
        return row.uid;
      }),
    ).rejects.toBe(broken);
    // The answer was still taken, so the connection's reader goes on.
    expect(c.released()).toBe(1);
  });

  it('passes a refused FETCH on as it came', async () => {
    const no = Object.assign(new Error('Command failed'), { responseStatus: 'NO' });
    await expect(fetchRows(channel([{ error: no }]).client, 1, 1, (r) => r.uid)).rejects.toBe(no);
  });
});

// Lines as Dovecot frames its answer to the scan's FETCH (ImapFlow's stream keeps `{size}` CRLF in the line
// and hands the literal's bytes apart), with CONDSTORE's MODSEQ and without.
const FIELDS = 'BODY[HEADER.FIELDS (FROM DATE SUBJECT LIST-UNSUBSCRIBE LIST-ID PRECEDENCE)]';
const literal = Buffer.from('From: "A, Inc." <a@x.com>\r\nSubject: =?utf-8?q?h=C3=A9?=\r\n\r\n');
const framed = (text: string, literals: Buffer[] = []) => ({ line: Buffer.from(text, 'latin1'), literals });
const dovecot = [
  framed(
    `* 1 FETCH (UID 7 FLAGS (\\Seen) INTERNALDATE "25-Nov-2026 10:41:17 +0000" ${FIELDS} {${literal.length}}\r\n)`,
    [literal],
  ),
  framed(
    `* 12 FETCH (UID 4000000000 MODSEQ (93) FLAGS () INTERNALDATE " 5-Jan-2026 01:02:03 -0700" ${FIELDS} {${literal.length}}\r\n)`,
    [literal],
  ),
  framed(
    `* 3 FETCH (FLAGS (\\Recent $Forwarded \\SEEN) UID 9 ${FIELDS} "Subject: \\"q\\" \\\\ x" INTERNALDATE "1-Feb-2026 00:00:00 +0000")`,
  ),
  framed(`* 4 FETCH (UID 10 FLAGS (\\Answered) ${FIELDS} NIL)`),
  framed(`* 5 fetch (uid 11 flags (\\seen) body[header.fields (from)] {2}\r\n)`, [Buffer.from('\r\n')]),
  // Another client's flag change while the FETCH runs: no UID, understood and dropped.
  framed('* 6 FETCH (FLAGS (\\Seen) MODSEQ (100))'),
];

async function tokensOf(line: Buffer, literals: Buffer[]) {
  const { default: parse } = await import('imapflow/lib/handler/imap-parser.js');
  return parse(line, { literals }) as Promise<Parameters<typeof readFetchRow>[0]>;
}

describe('readFetchLine', () => {
  it("reads Dovecot's answers to the same rows as ImapFlow's tokens read by readFetchRow", async () => {
    for (const { line, literals } of dovecot) {
      const fast = readFetchLine(line, literals);
      expect(fast, line.toString('latin1')).not.toBeNull();
      const slow = readFetchRow(await tokensOf(line, literals), 1, 4_294_967_295);
      expect(fast!.uid === 0 ? null : fast).toEqual(slow);
    }
    expect(readFetchLine(dovecot[0]!.line, dovecot[0]!.literals)).toEqual({
      uid: 7,
      seen: true,
      internalDate: '25-Nov-2026 10:41:17 +0000',
      header: literal,
    });
    expect(readFetchLine(dovecot[2]!.line, [])?.header.toString()).toBe('Subject: "q" \\ x');
    expect(readFetchLine(dovecot[3]!.line, [])).toEqual({
      uid: 10,
      seen: false,
      internalDate: null,
      header: Buffer.alloc(0),
    });
  });

  it('leaves every line of another shape to the tokens', () => {
    const refused = [
      '\0* 1 FETCH (UID 1)', // NUL padding, which ImapFlow strips
      '* 1 FETCH (UID 1 X-GM-MSGID 5)', // an attribute not asked for
      '* 1 FETCH (UID 1 BODY[HEADER]<0> NIL)', // a partial
      '* 1 FETCH (UID 1 BODY NIL)', // no section
      '* 1 FETCH (UID 1  FLAGS ())', // two spaces
      '* 1 FETCH (UID 1 FLAGS (\\Seen ))',
      '* 1 FETCH (UID 1 FLAGS (\\))',
      '* 1 FETCH (UID 1 INTERNALDATE "1-Feb-2026 \u00e9")',
      '* 1 FETCH (UID 1 BODY[HEADER.FIELDS ("FROM")] NIL)',
      '* 1 FETCH (UID 1 BODY[] "caf\u00e9")', // beyond ASCII in a quoted string: the tokenizer decodes it
      '* 1 FETCH (UID 1 BODY[] "a\\b")', // an escape that is not one
      '* 1 FETCH (UID 1)x',
      '* 1 FETCH (UID 1',
      '* 1 FETCH UID 1)',
      '* 1 EXPUNGE',
      '* OK [READ-ONLY] done',
      'A7 OK FETCH done',
    ];
    for (const text of refused) expect(readFetchLine(Buffer.from(text, 'latin1'), []), text).toBeNull();
    // A literal the line does not announce, or announced with another size, or missing.
    const one = framed('* 1 FETCH (UID 1 BODY[] {3}\r\n)', [Buffer.from('abc')]);
    expect(readFetchLine(one.line, [...one.literals, Buffer.from('x')])).toBeNull();
    expect(readFetchLine(one.line, [Buffer.from('ab')])).toBeNull();
    expect(readFetchLine(one.line, [])).toBeNull();
    expect(readFetchLine(Buffer.from('* 1 FETCH (UID 1 BODY[] {3}\n)'), [Buffer.from('abc')])).toBeNull();
  });

  it('agrees with the tokens on every mutated line it accepts', async () => {
    // Deterministic mutations of Dovecot's lines: a byte dropped, doubled or replaced by one that matters
    // to IMAP's grammar. Whatever readFetchLine accepts must read as the tokens do.
    const specials = [
      ' ',
      '(',
      ')',
      '"',
      '\\',
      '[',
      ']',
      '{',
      '}',
      '0',
      '1',
      'A',
      'x',
      '*',
      '%',
      '\r',
      '\n',
      '\u00e9',
    ];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let accepted = 0;
    let compared = 0;
    for (let round = 0; round < 3000; round++) {
      const base = dovecot[random(dovecot.length)]!;
      const bytes = [...base.line];
      for (let k = 1 + random(2); k > 0; k--) {
        const at = random(bytes.length);
        const kind = random(3);
        const special = Buffer.from(specials[random(specials.length)]!, 'latin1')[0]!;
        if (kind === 0) bytes.splice(at, 1);
        else if (kind === 1) bytes.splice(at, 0, bytes[at]!);
        else bytes[at] = special;
      }
      const line = Buffer.from(bytes);
      const fast = readFetchLine(line, base.literals);
      if (fast === null) continue;
      accepted++;
      let tokens: Parameters<typeof readFetchRow>[0];
      try {
        tokens = await tokensOf(line, base.literals);
      } catch (err) {
        throw new Error(`accepted a line the tokenizer refuses: ${JSON.stringify(line.toString('latin1'))}`, {
          cause: err,
        });
      }
      compared++;
      expect(fast.uid === 0 ? null : fast, JSON.stringify(line.toString('latin1'))).toEqual(
        readFetchRow(tokens, 1, 4_294_967_295),
      );
    }
    // The mutations must leave enough lines readable for the comparison to mean something.
    expect(accepted).toBeGreaterThan(300);
    expect(compared).toBe(accepted);
  });

  it('reads a line of many flags in one pass', () => {
    const flags = Array.from({ length: 100_000 }, (_, i) => `$K${i}`).join(' ');
    const row = readFetchLine(Buffer.from(`* 1 FETCH (UID 2 FLAGS (${flags} \\Seen))`), []);
    expect(row).toEqual({ uid: 2, seen: true, internalDate: null, header: Buffer.alloc(0) });
  });
});

describe("fetchRows on ImapFlow's connection", () => {
  it("hands the command's framed lines to readFetchLine first and the rest to ImapFlow, as ImapFlow routes them", async () => {
    const tokenized: string[] = [];
    const connection = {
      currentRequest: null as null | { options: { untagged: { FETCH: (u: object) => void } } },
      // ImapFlow's own handler: tokenizes the line and calls the current command's FETCH handler.
      async handleResponse(data: { payload: Buffer; literals: Buffer[] }) {
        tokenized.push(data.payload.toString('latin1'));
        const tokens = await tokensOf(data.payload, data.literals);
        this.currentRequest?.options.untagged.FETCH(tokens);
        return true;
      },
      async exec(
        _command: string,
        _attributes: unknown[],
        options: { untagged: { FETCH: (u: object) => void } },
      ) {
        this.currentRequest = { options };
        for (const { line, literals } of [
          ...dovecot.slice(0, 2),
          framed('* 2 FETCH (UID 8 X-UNKNOWN 1 FLAGS (\\Seen))'),
        ])
          expect(await this.handleResponse({ payload: line, literals })).toBe(true);
        this.currentRequest = null;
        return { next: () => {} };
      },
    };
    const client = connection as unknown as ImapFlow;
    const rows = await fetchRows(client, 1, 4_294_967_295, (row) => [row.seen, row.header.length]);
    expect(rows.map((r) => r.uid).sort((a, b) => a - b)).toEqual([7, 8, 4000000000]);
    expect(rows.find((r) => r.uid === 8)?.value).toEqual([true, 0]);
    // Only the line readFetchLine refused was tokenized.
    expect(tokenized).toEqual(['* 2 FETCH (UID 8 X-UNKNOWN 1 FLAGS (\\Seen))']);
    // Outside the command, lines go to ImapFlow as before.
    await connection.handleResponse({ payload: Buffer.from('* 9 EXISTS'), literals: [] }).catch(() => {});
    expect(tokenized).toHaveLength(2);
  });
});
