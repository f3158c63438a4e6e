// The export's value conversions and its paging, pure: rows read by the repository become the file's values
// here (times as ISO 8601, 0/1 as booleans, JSON columns parsed), a page of at most PAGE rows at a time.

export const PAGE = 1000;

/** Epoch milliseconds (a string from PostgreSQL bigint) as ISO 8601, null kept. */
export function iso(ms: number | string | null): string | null {
  return ms === null ? null : new Date(Number(ms)).toISOString();
}
export const isoOf = (ms: number | string): string => new Date(Number(ms)).toISOString();
export const flag = (n: number | null): boolean | null => (n === null ? null : Number(n) === 1);
/** A count or an integer setting; null kept. */
export const count = (n: number | null): number | null => (n === null ? null : Number(n));

/** A JSON column as stored; a value that no longer parses is given as the text it is. */
export function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
export const strings = (text: string): string[] => {
  const value = parsed(text);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};

/** Pages of rows read after the key of the previous page's last row, until a short page. */
export async function* keyset<R, K>(read: (after: K) => Promise<R[]>, keyOf: (row: R) => K, start: K) {
  let after = start;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
    after = keyOf(rows[rows.length - 1] as R);
  }
}
