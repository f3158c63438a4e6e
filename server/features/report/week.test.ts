import { describe, expect, it } from 'vitest';
import { reportedWeek, WEEK_MS, weekOf } from './week.js';

describe('ISO weeks in UTC', () => {
  it('names the week and its Monday-to-Monday bounds', () => {
    // Thursday 26 November 2026.
    const w = weekOf(Date.UTC(2026, 10, 26, 15, 30));
    expect(w).toEqual({ name: '2026-W48', start: Date.UTC(2026, 10, 23), end: Date.UTC(2026, 10, 30) });
    expect(weekOf(w.start).name).toBe('2026-W48');
    expect(weekOf(w.end - 1).name).toBe('2026-W48');
    expect(weekOf(w.end).name).toBe('2026-W49');
  });

  it('follows ISO years across New Year', () => {
    expect(weekOf(Date.UTC(2021, 0, 1)).name).toBe('2020-W53');
    expect(weekOf(Date.UTC(2024, 11, 30)).name).toBe('2025-W01');
    expect(weekOf(Date.UTC(2026, 0, 1)).name).toBe('2026-W01');
    expect(weekOf(Date.UTC(2027, 0, 3)).name).toBe('2026-W53');
  });

  it('reports on the last full week', () => {
    const monday = Date.UTC(2026, 10, 23);
    expect(reportedWeek(monday)).toEqual({ name: '2026-W47', start: monday - WEEK_MS, end: monday });
    expect(reportedWeek(monday - 1).name).toBe('2026-W46');
  });
});
