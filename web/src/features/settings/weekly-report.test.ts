import { describe, expect, it } from 'vitest';
import { scheduleInWords } from './weekly-report';

// Reports go out on Monday 00:00 UTC (features/report); the switch says when that is on the user's clock.
const MONDAY_MIDNIGHT_UTC = '2026-11-30T00:00:00.000Z';

describe('scheduleInWords', () => {
  it('reads the schedule in the browser’s time zone, a day earlier west of UTC', () => {
    expect(scheduleInWords(MONDAY_MIDNIGHT_UTC, 'UTC')).toEqual({
      weekday: 'Monday',
      time: '00:00',
      zone: 'UTC',
    });
    expect(scheduleInWords(MONDAY_MIDNIGHT_UTC, 'Europe/Berlin')).toEqual({
      weekday: 'Monday',
      time: '01:00',
      zone: 'Europe/Berlin',
    });
    expect(scheduleInWords(MONDAY_MIDNIGHT_UTC, 'America/New_York')).toEqual({
      weekday: 'Sunday',
      time: '19:00',
      zone: 'America/New_York',
    });
    expect(scheduleInWords(MONDAY_MIDNIGHT_UTC, 'Asia/Kolkata').time).toBe('05:30');
  });
});
