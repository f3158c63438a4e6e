import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-client';
import { errorToast } from './toasts';

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
