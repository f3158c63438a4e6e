// The pure parts of the blog screens: the card's date, the page count and slice, and the page kept in the
// URL (`?page=2`, counted from 1 for people; the screens count from 0 as the paginator does).
import { BLOG_PAGE_SIZE } from '#contract/api.js';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

// A post's date is a calendar date, not an instant: it is read and written in UTC so that no visitor's
// time zone moves it to the day before.
const US_DATE = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "2025-03-04" → "March 04, 2025"; anything else is shown as given. */
export function formatBlogDate(iso: string): string {
  const match = ISO_DATE.exec(iso);
  if (!match) return iso;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls "2025-02-30" over into March: such a date is not one.
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return iso;
  // Date.UTC reads years 0-99 as 1900-1999.
  date.setUTCFullYear(year);
  return US_DATE.format(date);
}

/** Pages of `total` posts, BLOG_PAGE_SIZE a page. */
export function blogPageCount(total: number, pageSize = BLOG_PAGE_SIZE): number {
  return total > 0 ? Math.ceil(total / pageSize) : 0;
}

/** The posts of page `index` (from 0). */
export function blogPageSlice<T>(items: readonly T[], index: number, pageSize = BLOG_PAGE_SIZE): T[] {
  return items.slice(index * pageSize, (index + 1) * pageSize);
}

/**
 * The page index (from 0) that `?page=` names: a whole number from 1; anything else is the first page,
 * and a number past the last page is the last one (once the count is known: `pageCount` > 0).
 */
export function pageIndexFromSearch(search: URLSearchParams, pageCount: number): number {
  const value = search.get('page');
  if (value === null || !/^\d{1,6}$/.test(value)) return 0;
  const index = Number(value) - 1;
  if (index < 0) return 0;
  return pageCount > 0 ? Math.min(index, pageCount - 1) : index;
}

/** The search of page `index` (from 0): the first page has none, so /blog stays /blog. */
export function searchForPageIndex(index: number, search = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(search);
  if (index <= 0) next.delete('page');
  else next.set('page', String(index + 1));
  return next;
}
