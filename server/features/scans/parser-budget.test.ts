import { describe, expect, it } from 'vitest';
import type { MessageHeaders } from '../../mail/provider.js';
import { tallyBatch } from './aggregate.js';
import { detectSubscription, hasListSignal, parseFrom } from './detect.js';
import {
  decodeWords,
  type HeaderFields,
  headerFieldsFromPairs,
  parseHeaderBlock,
  unfold,
} from './headers.js';
import { isOneClick, parseListUnsubscribe } from './list-unsubscribe.js';
import { parseMailto } from './mailto.js';

// Every header parser of the scanner against 1 MB of hostile text. Headers come from strangers and
// the scan runs on the server's one event loop, so a parser that is quadratic in some run of its
// input blocks every user (a 120 KB List-Unsubscribe of "() " froze the server for 35 s). The budget
// is generous on purpose: a linear parser needs a few milliseconds here, a quadratic one minutes.

const BUDGET_MS = 250;
const MB = 1 << 20;

/** `unit` repeated to 1 MB. */
const fill = (unit: string, size = MB) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

const FLOODS: Record<string, string> = {
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

const chunks = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

const within = (name: string, fn: () => unknown) => {
  const started = performance.now();
  fn();
  const elapsed = performance.now() - started;
  expect(elapsed, `${name}: ${elapsed.toFixed(0)} ms`).toBeLessThan(BUDGET_MS);
};

const fieldsWith = (value: string): HeaderFields => ({
  from: value,
  listUnsubscribe: [value],
  listUnsubscribePost: [value],
  listId: value,
  precedence: value,
  subject: value,
  date: value,
  messageId: value,
});

describe.each(Object.entries(FLOODS))('1 MB of %s', (_, flood) => {
  it('List-Unsubscribe: parseListUnsubscribe and isOneClick', () => {
    within('parseListUnsubscribe', () => parseListUnsubscribe([flood]));
    within('parseListUnsubscribe, 1 KB values', () => parseListUnsubscribe(chunks(flood, 1024)));
    within('isOneClick', () => isOneClick({ listUnsubscribe: [flood], listUnsubscribePost: [flood] }));
  });

  it('parseMailto', () => {
    // Over 2 KiB a mailto is refused outright; under it every field is read.
    within('parseMailto path', () => parseMailto(`mailto:${flood}`));
    within('parseMailto query', () => parseMailto(`mailto:a@x.example?subject=${flood}&body=${flood}`));
    within('parseMailto query under the cap', () =>
      parseMailto(`mailto:a@x.example?subject=${flood.slice(0, 900)}&body=${flood.slice(0, 900)}`),
    );
  });

  it('From: parseFrom', () => {
    within('parseFrom', () => parseFrom(flood));
    within('parseFrom name', () => parseFrom(`"${flood}" <a@x.example>`));
  });

  it('decodeWords, unfold and hasListSignal', () => {
    within('decodeWords', () => decodeWords(flood));
    within('unfold', () => unfold(flood));
    within('hasListSignal', () => hasListSignal(fieldsWith(flood)));
  });

  it('the header block parsers', () => {
    within('parseHeaderBlock', () =>
      parseHeaderBlock(
        Buffer.from(`From: ${flood}\r\nList-Unsubscribe: ${flood}\r\nSubject: ${flood}\r\n\r\n`),
      ),
    );
    within('headerFieldsFromPairs', () =>
      headerFieldsFromPairs([
        { name: 'From', value: flood },
        { name: 'List-Unsubscribe', value: flood },
        { name: 'Subject', value: flood },
      ]),
    );
  });

  it('detection and the batch tally', () => {
    within('detectSubscription', () => detectSubscription(fieldsWith(flood)));
    const messages: MessageHeaders[] = [
      { id: '1', folder: 'INBOX', date: 1, fields: fieldsWith(flood) },
      { id: '2', folder: 'INBOX', date: 2, fields: { ...fieldsWith(flood), from: `<a@x.example>` } },
    ];
    within('tallyBatch', () => tallyBatch(messages));
  });
});

describe('1 MB header blocks', () => {
  it('of many fields', () => {
    within('many fields', () =>
      parseHeaderBlock(Buffer.from(fill('List-Unsubscribe: <https://x.example/u>\r\n'))),
    );
    within('many pairs', () =>
      headerFieldsFromPairs(
        Array.from({ length: 50_000 }, (_, i) => ({
          name: 'List-Unsubscribe',
          value: `<https://x.example/${i}>`,
        })),
      ),
    );
  });

  it('of long folded lines', () => {
    within('folded', () =>
      parseHeaderBlock(Buffer.from(`List-Unsubscribe: ${fill('<https://x.example/u>,\r\n ')}\r\n`)),
    );
    within('folded noise', () => parseHeaderBlock(Buffer.from(fill('noise line\r\n continued\r\n'))));
  });

  it('of many List-Unsubscribe values, through detection', () => {
    const values = Array.from({ length: 20_000 }, (_, i) => `<https://x.example/${i}>, () () ()`);
    within('many values', () =>
      detectSubscription({ ...fieldsWith(''), from: 'a@x.example', listUnsubscribe: values }),
    );
  });
});
