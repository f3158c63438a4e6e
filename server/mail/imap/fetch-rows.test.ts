import type { ImapFlow } from 'imapflow';
import { describe, expect, it } from 'vitest';
import { fetchRows, readFetchRow } from './fetch-rows.js';

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
