import { describe, it } from 'vitest';
import { FLOODS, fieldsWith, fill, within } from '#test/helpers/hostile-headers.js';
import { detectSubscription, hasListSignal, parseFrom } from './detect.js';
import { decodeWords, headerFieldsFromPairs, parseHeaderBlock, unfold } from './headers.js';
import { isOneClick, parseListUnsubscribe } from './list-unsubscribe.js';
import { parseMailto } from './mailto.js';

// Every header parser of the scanner against 1 MB of hostile text. Headers come from strangers and
// the scan runs on the server's one event loop, so a parser that is quadratic in some run of its
// input blocks every user (a 120 KB List-Unsubscribe of "() " froze the server for 35 s). The budget
// is generous on purpose: a linear parser needs a few milliseconds here, a quadratic one minutes.

const chunks = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

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

  // The batch tally of a scan runs detectSubscription on every message (features/scans/aggregate.test.ts).
  it('detection', () => {
    within('detectSubscription', () => detectSubscription(fieldsWith(flood)));
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
