import { describe, expect, it } from 'vitest';
import { isStillSending, STILL_SENDING_GRACE_MS } from './verification.js';

describe('isStillSending (the 2-day grace after an unsubscribe)', () => {
  const at = Date.UTC(2026, 10, 1);
  it('holds only for mail dated after the grace period', () => {
    expect(STILL_SENDING_GRACE_MS).toBe(2 * 86_400_000);
    expect(isStillSending(at + STILL_SENDING_GRACE_MS + 1, at)).toBe(true);
    expect(isStillSending(at + 3 * 86_400_000, at)).toBe(true);
    expect(isStillSending(at + STILL_SENDING_GRACE_MS, at)).toBe(false);
    expect(isStillSending(at + 86_400_000, at)).toBe(false);
    expect(isStillSending(at - 86_400_000, at)).toBe(false);
  });
  it('never holds without both dates', () => {
    expect(isStillSending(null, at)).toBe(false);
    expect(isStillSending(at + 10 * 86_400_000, null)).toBe(false);
  });
});
