import { describe, expect, it } from 'vitest';
import {
  blogPageCount,
  blogPageSlice,
  formatBlogDate,
  pageIndexFromSearch,
  searchForPageIndex,
} from './blog-pages';

describe('the date of a post', () => {
  it('reads as long month, two-digit day and full year in US English', () => {
    expect(formatBlogDate('2025-03-04')).toBe('March 04, 2025');
    expect(formatBlogDate('2024-12-31')).toBe('December 31, 2024');
    expect(formatBlogDate('2024-02-29')).toBe('February 29, 2024');
  });

  it('stays the same calendar day in every time zone', () => {
    // The formatter works in UTC whatever the machine's zone; a local-time parse would show March 03
    // west of Greenwich.
    const original = process.env.TZ;
    try {
      for (const zone of ['America/Los_Angeles', 'Pacific/Kiritimati', 'UTC']) {
        process.env.TZ = zone;
        expect(formatBlogDate('2025-01-01')).toBe('January 01, 2025');
      }
    } finally {
      process.env.TZ = original;
    }
  });

  it('shows what is not a date as given', () => {
    expect(formatBlogDate('')).toBe('');
    expect(formatBlogDate('2025-02-30')).toBe('2025-02-30');
    expect(formatBlogDate('2025-13-01')).toBe('2025-13-01');
    expect(formatBlogDate('2025-03-04T10:00:00Z')).toBe('2025-03-04T10:00:00Z');
    expect(formatBlogDate('March 4')).toBe('March 4');
  });

  it('keeps years before 100 as written', () => {
    expect(formatBlogDate('0099-07-04')).toBe('July 04, 99');
  });
});

describe('the pages of the list', () => {
  it('counts pages of nine', () => {
    expect(blogPageCount(0)).toBe(0);
    expect(blogPageCount(1)).toBe(1);
    expect(blogPageCount(9)).toBe(1);
    expect(blogPageCount(10)).toBe(2);
    expect(blogPageCount(20)).toBe(3);
  });

  it('slices the chosen page', () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    expect(blogPageSlice(items, 0)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(blogPageSlice(items, 1)).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(blogPageSlice(items, 2)).toEqual([18, 19]);
    expect(blogPageSlice(items, 3)).toEqual([]);
  });
});

describe('the page in the URL', () => {
  const index = (search: string, pageCount = 3) =>
    pageIndexFromSearch(new URLSearchParams(search), pageCount);

  it('counts from 1 in the URL and from 0 on screen', () => {
    expect(index('')).toBe(0);
    expect(index('?page=1')).toBe(0);
    expect(index('?page=2')).toBe(1);
    expect(index('?page=3')).toBe(2);
  });

  it('reads anything else as the first page', () => {
    for (const search of [
      '?page=',
      '?page=0',
      '?page=-1',
      '?page=abc',
      '?page=1.5',
      '?page=2e1',
      '?page= 2',
    ]) {
      expect(index(search)).toBe(0);
    }
    expect(index('?page=99999999999999999999')).toBe(0);
  });

  it('keeps a page past the end on the last one, once the count is known', () => {
    expect(index('?page=9')).toBe(2);
    expect(index('?page=9', 0)).toBe(8);
  });

  it('writes page 1 as no parameter and keeps the others', () => {
    expect(searchForPageIndex(0).toString()).toBe('');
    expect(searchForPageIndex(1).toString()).toBe('page=2');
    expect(searchForPageIndex(0, new URLSearchParams('page=3&x=1')).toString()).toBe('x=1');
    expect(searchForPageIndex(2, new URLSearchParams('x=1')).toString()).toBe('x=1&page=3');
  });
});
