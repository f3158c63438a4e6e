// The weeks of the weekly report: ISO 8601 weeks in UTC (Monday 00:00 to the next Monday), named
// `2026-W47`. Users have no time zone stored, so UTC is every user's week.

const DAY = 86_400_000;
export const WEEK_MS = 7 * DAY;

export interface Week {
  /** ISO week name, e.g. 2026-W47. */
  name: string;
  /** Monday 00:00 UTC, epoch ms (inclusive). */
  start: number;
  /** The next Monday 00:00 UTC (exclusive). */
  end: number;
}

/** The ISO week holding `at`. */
export function weekOf(at: number): Week {
  const day = Math.floor(at / DAY);
  // 1970-01-01 was a Thursday: (day + 3) % 7 is 0 on Mondays.
  const start = (day - ((day + 3) % 7)) * DAY;
  // The ISO year is the year of the week's Thursday.
  const thursday = new Date(start + 3 * DAY);
  const year = thursday.getUTCFullYear();
  const number = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / WEEK_MS) + 1;
  return { name: `${year}-W${String(number).padStart(2, '0')}`, start, end: start + WEEK_MS };
}

/** The week the report sent at `now` is about: the last full week, the one before `now`'s. */
export function reportedWeek(now: number): Week {
  return weekOf(weekOf(now).start - 1);
}
