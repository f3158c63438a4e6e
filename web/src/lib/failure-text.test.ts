import { describe, expect, it } from 'vitest';
import { ALERTS } from '#contract/validation.js';
import { ApiError, failureText } from './api-client';

const mailDown = new ApiError(502, 'Could not reach the mail server at imap.example:993.');

describe('failureText', () => {
  it("puts the server's reason after a lead that trails off", () => {
    expect(failureText(ALERTS.unsubscribeFailed, mailDown)).toBe(
      'Failed to process the unsubscription request: Could not reach the mail server at imap.example:993.',
    );
  });

  it('puts it after a colon when the lead does not trail off', () => {
    expect(failureText(ALERTS.manualUnsubscribeFailed, mailDown)).toBe(
      'Failed to manually unsubscribe the subscription: Could not reach the mail server at imap.example:993.',
    );
  });

  it('keeps the lead alone without a reason: a network failure, a bug, an empty message', () => {
    expect(failureText(ALERTS.keepFailed, new ApiError(0, ''))).toBe(ALERTS.keepFailed);
    expect(failureText(ALERTS.keepFailed, new ApiError(500, '  '))).toBe(ALERTS.keepFailed);
    expect(failureText(ALERTS.keepFailed, new Error('a bug, not words for the user'))).toBe(
      ALERTS.keepFailed,
    );
    expect(failureText(ALERTS.keepFailed, undefined)).toBe(ALERTS.keepFailed);
  });

  it('uses the fallback reason when the answer carried none, and never repeats the lead', () => {
    expect(failureText(ALERTS.keepFailed, new ApiError(429, ''), ALERTS.rateLimited)).toBe(
      'Failed to keep the subscription: You have reached the rate limit. Please try again later.',
    );
    expect(failureText('Preview not found.', new ApiError(404, 'Preview not found.'))).toBe(
      'Preview not found.',
    );
  });
});
