import { describe, expect, it } from 'vitest';
import { NOTICES, noticeOf, noticeState } from './notice';

describe('the one-time notices', () => {
  it('travel in the router state and are read back by id', () => {
    expect(noticeOf(noticeState('passwordChanged'))).toBe('passwordChanged');
    expect(NOTICES[noticeOf(noticeState('accountDeleted')) ?? 'passwordChanged']).toBe(
      'Your account and everything stored with it has been deleted.',
    );
  });

  it('ignore any other state', () => {
    for (const state of [null, undefined, 'passwordChanged', 1, {}, { notice: 'toString' }, { notice: 3 }]) {
      expect(noticeOf(state)).toBeNull();
    }
  });
});
