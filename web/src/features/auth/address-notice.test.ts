import { describe, expect, it } from 'vitest';
import { addressNotice } from './address-notice';

describe('addressNotice', () => {
  it('reads the redirects of a confirmation link and of a sign-in that took an account over', () => {
    expect(addressNotice('?email=verified')).toBe('verified');
    expect(addressNotice('?email=link-expired')).toBe('linkExpired');
    expect(addressNotice('?account=secured')).toBe('secured');
    expect(addressNotice('?tab=1&account=secured')).toBe('secured');
  });

  it('ignores anything else', () => {
    for (const search of ['', '?email=', '?email=<b>hi</b>', '?account=other', '?notice=secured']) {
      expect(addressNotice(search), search).toBeNull();
    }
  });
});
