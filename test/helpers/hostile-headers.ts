import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { HeaderFields } from '#server/mail/headers/headers.js';

// Hostile and real header input shared by the unit tests of the header parsers (server/mail/headers/)
// and of the scan's batch tally (server/features/scans/), which runs those parsers on every message.

/**
 * Well under a second for 1 MB: a linear parser needs tens of milliseconds, a quadratic one tens of
 * seconds, so the margin only absorbs a loaded machine, never hides a blow-up.
 */
export const BUDGET_MS = 500;
export const MB = 1 << 20;

/** `unit` repeated to 1 MB. */
export const fill = (unit: string, size = MB) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

export const FLOODS: Record<string, string> = {
  'comments after a URI': `<https://x.example/u>, ${fill('() ')}`,
  comments: fill('() '),
  'unclosed comments': fill('(a '),
  'nested comments': fill('(', MB / 2) + fill(')', MB / 2),
  'comments with URIs': fill('(https://x.example/u) '),
  '< flood': fill('<'),
  '> flood': fill('>'),
  'unclosed brackets with URIs': fill('<https://x.example/u '),
  'quote flood': fill('"'),
  'quoted text': fill('"a'),
  'quoted pairs': fill('"\\'),
  commas: fill(','),
  'commas and spaces': fill(', '),
  'commas before schemes': fill(',a:'),
  backslashes: fill('\\'),
  spaces: `${fill(' ')}x`,
  'folding whitespace': fill('\r\n '),
  'scheme-like words': fill('abc '),
  'bare URIs': fill('https://x.example/u '),
  'bare mailto': fill('mailto:a@x.example,'),
  'distinct bracketed URIs': Array.from({ length: 40_000 }, (_, i) => `<https://x.example/${i}>`)
    .join(', ')
    .slice(0, MB),
  'long URI': `<https://x.example/${fill('a')}>`,
  'encoded-word openers': fill('=?'),
  'encoded words': fill('=?utf-8?q?a?= '),
  'base64 words': fill('=?utf-8?b?YQ==?='),
  'unclosed encoded words': fill('=?utf-8?q?'),
  'percent signs': fill('%'),
  'invalid escapes': fill('%E9'),
  'angle addresses': fill('a <b@c.example>, '),
  'at signs and colons': fill('@:;'),
  everything: fill('"(<\\,=?%>):@; '),
};

/**
 * Fails when `fn` takes longer than BUDGET_MS, on the faster of two tries: a garbage collection or another
 * process can stall one try, but a super-linear parser is slow every time.
 */
export const within = (name: string, fn: () => unknown) => {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 2 && best >= BUDGET_MS; attempt++) {
    const started = performance.now();
    fn();
    best = Math.min(best, performance.now() - started);
  }
  expect(best, `${name}: ${best.toFixed(0)} ms`).toBeLessThan(BUDGET_MS);
};

/** Every field of a message set to `value`. */
export const fieldsWith = (value: string): HeaderFields => ({
  from: value,
  listUnsubscribe: [value],
  listUnsubscribePost: [value],
  listId: value,
  precedence: value,
  listPost: value,
  subject: value,
  date: value,
  messageId: value,
});

// Real mail, some of it under licences that keep it out of this repository: read in place, never copied
// (see server/mail/headers/corpus.test.ts).
const CORPUS = path.resolve(process.cwd(), '../shared/corpus/real');
export const corpusPresent = existsSync(CORPUS);

/** The header block of each corpus file, as latin1 text (one character per byte, so bytes survive). */
export const corpusBlocks: string[] = corpusPresent
  ? readdirSync(CORPUS)
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .map((f) => {
        const text = readFileSync(path.join(CORPUS, f)).toString('latin1');
        const end = text.search(/\r?\n\r?\n/);
        return end === -1 ? text : text.slice(0, end + 1);
      })
  : [];

/** Inserts each piece at its position (taken modulo the length of the text it goes into). */
export function insertAll(text: string, pieces: ReadonlyArray<{ at: number; piece: string }>): string {
  let out = text;
  for (const { at, piece } of pieces) {
    const i = at % (out.length + 1);
    out = out.slice(0, i) + piece + out.slice(i);
  }
  return out;
}

/** Up to 30 pieces drawn from `piece`, each at a random position (for insertAll). */
export const insertions = (piece: fc.Arbitrary<string>) =>
  fc.array(fc.record({ at: fc.nat(), piece }), { minLength: 1, maxLength: 30 });
