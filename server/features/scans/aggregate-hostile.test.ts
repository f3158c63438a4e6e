import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH } from '#server/mail/headers/detect.js';
import { parseHeaderBlock } from '#server/mail/headers/headers.js';
import { MAX_URIS } from '#server/mail/headers/list-unsubscribe.js';
import type { MessageHeaders } from '#server/mail/provider.js';
import {
  corpusBlocks,
  corpusPresent,
  FLOODS,
  fieldsWith,
  insertAll,
  insertions,
  within,
} from '#test/helpers/hostile-headers.js';
import { tallyBatch } from './aggregate.js';

// The batch tally runs the header parsers on every message of a scan, on the server's one event loop:
// the hostile input of the parser tests (server/mail/headers/parser-budget and parser-fuzz) through it.

describe.each(Object.entries(FLOODS))('1 MB of %s', (_, flood) => {
  it('the batch tally', () => {
    const messages: MessageHeaders[] = [
      { id: '1', folder: 'INBOX', date: 1, fields: fieldsWith(flood) },
      { id: '2', folder: 'INBOX', date: 2, fields: { ...fieldsWith(flood), from: `<a@x.example>` } },
    ];
    within('tallyBatch', () => tallyBatch(messages));
  });
});

describe.runIf(corpusPresent)('the batch tally, fuzzed from the real corpus', () => {
  it('tallies a batch of mangled real messages into bounded senders', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...corpusBlocks), insertions(fc.string({ maxLength: 20 }))), {
          minLength: 1,
          maxLength: 20,
        }),
        (picked) => {
          const messages: MessageHeaders[] = picked.map(([block, pieces], i) => ({
            id: String(i),
            folder: 'INBOX',
            date: i,
            fields: parseHeaderBlock(Buffer.from(insertAll(block, pieces), 'latin1')),
          }));
          const tallies = tallyBatch(messages);
          let counted = 0;
          for (const t of tallies.values()) {
            counted += t.count;
            expect(t.name.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
            expect(
              (t.unsubscribe?.http.length ?? 0) + (t.unsubscribe?.mailto.length ?? 0),
            ).toBeLessThanOrEqual(MAX_URIS);
            expect(t.messages).toHaveLength(t.count);
          }
          expect(counted).toBeLessThanOrEqual(messages.length);
        },
      ),
      // A third of the parser fuzz's runs: each case is a whole batch.
      { numRuns: 34 },
    );
  });
});
