import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  corpusBlocks as blocks,
  corpusPresent,
  insertAll,
  insertions,
} from '#test/helpers/hostile-headers.js';
import { detectSubscription, MAX_NAME_LENGTH, parseFrom } from './detect.js';
import { type HeaderFields, headerFieldsFromPairs, parseHeaderBlock } from './headers.js';
import { type ListUnsubscribe, MAX_URI_LENGTH, MAX_URIS, parseListUnsubscribe } from './list-unsubscribe.js';

// Property-based fuzzing of the header parsers, seeded with the real-mail corpus (read in place, see
// corpus.test.ts): real header blocks, refolded, padded with whitespace, commented and mangled. Runs
// are few on purpose, so the unit tier stays fast; every run of CI draws new cases.

/** List-Unsubscribe values whose URIs are all bracketed and not encoded words: RFC 2369 says any
 *  whitespace inside or between them is ignored, so any whitespace inserted anywhere must change nothing. */
const bracketedValues: string[][] = blocks
  .map((b) => parseHeaderBlock(Buffer.from(b, 'latin1')).listUnsubscribe)
  .filter(
    (values) =>
      values.length > 0 &&
      values.every(
        (v) =>
          !v.includes('=?') &&
          v
            .replace(/<[^<>]*>/g, '')
            .replace(/\([^()]*\)/g, '')
            .trim()
            .replace(/[\s,]/g, '') === '',
      ),
  );

const RUNS = 100;
const BUDGET_MS = 250;

/** What must hold for any parse: bounded, no duplicates, each URI where its scheme says. */
function checkList(list: ListUnsubscribe): void {
  expect(list.all.length).toBeLessThanOrEqual(MAX_URIS);
  expect(new Set(list.all).size).toBe(list.all.length);
  expect([...list.https, ...list.mailto].sort()).toEqual([...list.all].sort());
  for (const uri of list.all) {
    expect(uri.length).toBeLessThanOrEqual(MAX_URI_LENGTH);
    expect(uri).not.toMatch(/\s/);
  }
  for (const uri of list.https) {
    expect(uri).toMatch(/^https?:\/\//i);
    expect(new URL(uri).hostname).not.toBe('');
  }
  for (const uri of list.mailto) expect(uri).toMatch(/^mailto:[^@]+@./i);
}

function checkFields(fields: HeaderFields): void {
  const d = detectSubscription(fields);
  checkList(parseListUnsubscribe(fields.listUnsubscribe));
  expect(d.httpsUrls.length + d.mailto.length).toBeLessThanOrEqual(MAX_URIS);
  expect(d.isNewsletter).toBe(d.httpsUrls.length + d.mailto.length > 0);
  if (d.sender) {
    expect(d.sender.name.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
    expect(d.sender.address).toBe(d.sender.address.toLowerCase());
  }
}

const whitespace = fc.constantFrom(' ', '\t', '  ', '\r\n ', '\r\n\t', '\n ');
const timed = <T>(fn: () => T): T => {
  const started = performance.now();
  const result = fn();
  expect(performance.now() - started).toBeLessThan(BUDGET_MS);
  return result;
};

describe.runIf(corpusPresent)('header parsers, fuzzed from the real corpus', () => {
  it('has corpus blocks to start from', () => {
    expect(blocks.length).toBe(72);
    expect(bracketedValues.length).toBeGreaterThan(20);
  });

  it('reads every real header block without throwing, within the limits', () => {
    for (const block of blocks) checkFields(parseHeaderBlock(Buffer.from(block, 'latin1')));
  });

  it('reads the same URIs whatever whitespace is inserted into bracketed List-Unsubscribe values', () => {
    fc.assert(
      fc.property(fc.constantFrom(...bracketedValues), insertions(whitespace), (values, pieces) => {
        const expected = parseListUnsubscribe(values);
        const padded = values.map((v) => insertAll(v, pieces));
        expect(parseListUnsubscribe(padded)).toEqual(expected);
        // The same values folded onto continuation lines, through both header readers.
        // A marker character first, so that no fold lands inside another one's CRLF.
        const folded = values.map((v) =>
          insertAll(
            v,
            pieces.map((p) => ({ ...p, piece: '\u0001' })),
          ).replaceAll('\u0001', '\r\n '),
        );
        const pairs = folded.map((value) => ({ name: 'List-Unsubscribe', value }));
        expect(parseListUnsubscribe(headerFieldsFromPairs(pairs).listUnsubscribe)).toEqual(expected);
        const raw = Buffer.from(
          `${folded.map((v) => `List-Unsubscribe: ${v}`).join('\r\n')}\r\n\r\n`,
          'latin1',
        );
        expect(parseListUnsubscribe(parseHeaderBlock(raw).listUnsubscribe)).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('ignores comments inserted between bracketed URIs', () => {
    const comment = fc.string({ maxLength: 20 }).map((s) => ` (${s.replace(/[()<>\\]/g, '')}) `);
    fc.assert(
      fc.property(fc.constantFrom(...bracketedValues), comment, fc.nat(), (values, text, n) => {
        const expected = parseListUnsubscribe(values);
        // Only at the boundaries between bracketed URIs, where a comment is allowed.
        const commented = values.map((v) => {
          const gaps = [...v.matchAll(/>/g)].map((m) => (m.index ?? 0) + 1);
          const at = gaps[n % gaps.length] ?? 0;
          return v.slice(0, at) + text + v.slice(at);
        });
        expect(parseListUnsubscribe(commented)).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('never throws and stays fast and bounded on mangled real header blocks', () => {
    const junk = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('(', ')', '<', '>', '"', '\\', ',', '=?', '?=', '%', '%E9', '\r\n', '\r\n ', ':', '@'),
      fc.constantFrom('() ', '<', '"'.repeat(3)).chain((u) => fc.nat({ max: 2000 }).map((n) => u.repeat(n))),
      fc.constantFrom('=?utf-8?q?', '=?utf-8?b?', '<mailto:', '<https://', 'mailto:', 'https://'),
    );
    fc.assert(
      fc.property(fc.constantFrom(...blocks), insertions(junk), (block, pieces) => {
        const mangled = insertAll(block, pieces);
        const fields = timed(() => parseHeaderBlock(Buffer.from(mangled, 'latin1')));
        timed(() => checkFields(fields));
        const pairs = timed(() =>
          headerFieldsFromPairs(
            mangled.split(/\r?\n(?![ \t])/).map((line) => ({
              name: line.slice(0, Math.max(0, line.indexOf(':'))),
              value: line.slice(line.indexOf(':') + 1),
            })),
          ),
        );
        checkFields(pairs);
      }),
      { numRuns: RUNS },
    );
  });

  it('never throws on random bytes as a header block', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4000 }), fc.constantFrom(...blocks), (bytes, block) => {
        checkFields(parseHeaderBlock(Buffer.from(bytes)));
        checkFields(parseHeaderBlock(Buffer.concat([Buffer.from(block, 'latin1'), Buffer.from(bytes)])));
      }),
      { numRuns: RUNS },
    );
  });

  it('reads any From without throwing, with a bounded name', () => {
    const froms = blocks.map((b) => parseHeaderBlock(Buffer.from(b, 'latin1')).from ?? '');
    fc.assert(
      fc.property(fc.constantFrom(...froms), insertions(fc.string({ maxLength: 30 })), (from, pieces) => {
        const sender = parseFrom(insertAll(from, pieces));
        if (sender) expect(sender.name.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
      }),
      { numRuns: RUNS },
    );
  });
});
