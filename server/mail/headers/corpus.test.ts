import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectSubscription } from './detect.js';
import { parseHeaderBlock } from './headers.js';

// Real mail, some of it under licences that keep it out of this repository: read in place, never copied.
const CORPUS = path.resolve(process.cwd(), '../shared/corpus/real');
const EXPECTED = path.join(CORPUS, 'EXPECTED.tsv');
const present = existsSync(EXPECTED);

interface Row {
  file: string;
  sender_address: string;
  sender_display_name: string;
  is_newsletter: string;
  one_click: string;
  unsubscribe_https_urls: string;
  unsubscribe_mailto: string;
  list_signal: string;
}

const COLUMNS = [
  'file',
  'sender_address',
  'sender_display_name',
  'is_newsletter',
  'one_click',
  'unsubscribe_https_urls',
  'unsubscribe_mailto',
  'list_signal',
] as const;

function readExpected(): Row[] {
  const [header, ...lines] = readFileSync(EXPECTED, 'utf8').split(/\r?\n/);
  expect(header?.split('\t')).toEqual([...COLUMNS]);
  return lines
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const cells = line.split('\t');
      return Object.fromEntries(COLUMNS.map((c, i) => [c, cells[i] ?? ''])) as unknown as Row;
    });
}

// URIs never contain spaces once parsed, so EXPECTED.tsv separates several with one.
const list = (cell: string) => (cell === '' ? [] : cell.split(' '));
const yes = (cell: string) => {
  expect(['yes', 'no']).toContain(cell);
  return cell === 'yes';
};

const rows = present ? readExpected() : [];

describe('real mail corpus', () => {
  it('is present', () => {
    expect(
      present,
      `corpus not found: expected ${EXPECTED} (the shared corpus checked out next to the project root)`,
    ).toBe(true);
  });

  it('has exactly one EXPECTED row per .eml file', () => {
    if (!present) return;
    const files = readdirSync(CORPUS).filter((f) => f.endsWith('.eml'));
    expect(rows.map((r) => r.file).sort()).toEqual(files.sort());
    expect(rows.length).toBe(72);
  });

  it.each(rows)('$file', (row) => {
    const fields = parseHeaderBlock(readFileSync(path.join(CORPUS, row.file)));
    const d = detectSubscription(fields);

    expect(d.sender?.address ?? '', 'sender_address').toBe(row.sender_address);
    expect(d.sender?.name ?? '', 'sender_display_name').toBe(row.sender_display_name);
    expect(d.isNewsletter, 'is_newsletter').toBe(yes(row.is_newsletter));
    expect(d.oneClick, 'one_click').toBe(yes(row.one_click));
    expect(d.httpsUrls, 'unsubscribe_https_urls').toEqual(list(row.unsubscribe_https_urls));
    expect(d.mailto, 'unsubscribe_mailto').toEqual(list(row.unsubscribe_mailto));
    expect(d.listSignal, 'list_signal').toBe(yes(row.list_signal));
    // The product rule, checked here too so the corpus pins it down end to end.
    expect(d.isSubscription, 'isSubscription').toBe(d.isNewsletter || d.listSignal);
  });
});
