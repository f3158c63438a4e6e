import SQLite from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHeaderBlock } from '#server/mail/headers/headers.js';
import type { MessageHeaders } from '#server/mail/provider.js';
import { corpusBlocks, corpusPresent } from '#test/helpers/hostile-headers.js';
import { isListSender, listSenderSql, tallyBatch } from './aggregate.js';

// The detection rule has two forms: isListSender decides a batch's tally, listSenderSql the running
// totals in the senders upsert. Both must say the same for every count.

const sqlite = new SQLite(':memory:');
afterAll(() => sqlite.close());
const inSql = sqlite.prepare<[number, number], { listed: number }>(
  `select case when ${listSenderSql('t.c', 't.l')} then 1 else 0 end as listed from (select ? as c, ? as l) as t`,
);
const sqlSays = (count: number, listCount: number) => inSql.get(count, listCount)?.listed === 1;

describe('the list sender rule in TypeScript and in SQL', () => {
  it('agrees on every count up to 40 messages', () => {
    for (let count = 0; count <= 40; count++) {
      for (let listCount = 0; listCount <= count; listCount++) {
        expect(sqlSays(count, listCount), `${listCount} of ${count}`).toBe(isListSender(count, listCount));
      }
    }
  });

  it('agrees on large totals', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.double({ min: 0, max: 1 }),
        (count, share) => {
          const listCount = Math.floor(count * share);
          expect(sqlSays(count, listCount)).toBe(isListSender(count, listCount));
        },
      ),
    );
  });

  describe.runIf(corpusPresent)('on the real corpus', () => {
    const messages: MessageHeaders[] = corpusBlocks.map((block, i) => ({
      id: `c${i}`,
      folder: 'INBOX',
      date: i,
      fields: parseHeaderBlock(Buffer.from(block, 'latin1')),
    }));
    /** A personal message from the same From as a corpus message (no list headers). */
    const personal = (of: MessageHeaders, k: number): MessageHeaders => ({
      id: `${of.id}p${k}`,
      folder: 'INBOX',
      date: of.date,
      fields: parseHeaderBlock(Buffer.from(`From: ${of.fields.from ?? ''}\r\nSubject: hi\r\n\r\n`, 'latin1')),
    });

    it('agrees on the tally of each sender, alone and among personal mail', () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.constantFrom(...messages), fc.integer({ min: 0, max: 3 })), {
            minLength: 1,
            maxLength: 30,
          }),
          (picked) => {
            const batch = picked.flatMap(([m, n], i) => [
              { ...m, id: `${m.id}-${i}` },
              ...Array.from({ length: n }, (_, k) => personal(m, i * 10 + k)),
            ]);
            for (const tally of tallyBatch(batch).values()) {
              expect(sqlSays(tally.count, tally.listCount), tally.address).toBe(tally.isSubscription);
            }
          },
        ),
        { numRuns: 50 },
      );
    });
  });
});
