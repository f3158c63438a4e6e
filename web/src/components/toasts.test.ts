import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-client';
import { ERROR_TOAST_MS, errorToast, LASTING_MS, noteLifetime, TOAST_MS } from './toasts';

const mailDown = new ApiError(502, 'Could not reach the mail server at imap.example:993.');

describe('errorToast', () => {
  it("is an error note with Retry, under the action's id, except that every rate limit shares one note", () => {
    const retry = () => {};
    expect(errorToast('x', retry, 'unsubscribe:s1', mailDown)).toEqual({
      text: 'x',
      id: 'unsubscribe:s1',
      error: true,
      action: { label: 'Retry', run: retry },
    });
    expect(errorToast('y', undefined, 'select-all').action).toBeUndefined();
    const limited = (id: string) => errorToast('z', retry, id, new ApiError(429, 'x')).id;
    expect(limited('unsubscribe:s1')).toBe(limited('logout'));
  });
});

describe('how long a note stays', () => {
  it('keeps a failure and a note with a way back for 30 s, others for 6 s', () => {
    const undo = { label: 'Undo', run: () => {} };
    expect(noteLifetime({})).toBe(TOAST_MS);
    expect(noteLifetime({ action: undo })).toBe(LASTING_MS);
    expect(noteLifetime({ error: true, action: undo })).toBe(ERROR_TOAST_MS);
    expect(LASTING_MS).toBe(30_000);
  });
});
