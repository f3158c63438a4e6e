import { describe, expect, it } from 'vitest';
import { csvField, csvRow, exportFileName } from './service.js';

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\r\nlines', '"two\r\nlines"'],
    // A spreadsheet would run these as formulas: a leading apostrophe makes them text.
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['', ''],
  ])('%j → %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });

  it('writes numbers and empty values as they are', () => {
    expect(csvRow([1.5, null, 0, 'x'])).toBe('1.5,,0,x\r\n');
  });
});

describe('exportFileName', () => {
  it('names the day in UTC', () => {
    const at = new Date(Date.UTC(2026, 0, 2, 23, 59));
    expect(exportFileName(at, 'json')).toBe('inbox-genie-export-2026-01-02.json');
    expect(exportFileName(at, 'csv')).toBe('inbox-genie-subscriptions-2026-01-02.csv');
  });
});
