import { describe, expect, it } from 'vitest';
import {
  RETURN_PATH_KEY,
  RETURN_PATH_TTL_MS,
  rememberReturnPath,
  safeReturnPath,
  signedInDestination,
  signupReturningTo,
  takeReturnPath,
} from './return-path';

const origin = 'https://genie.example';

function memoryStore() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe('safeReturnPath', () => {
  it('keeps a path of this site, with its query and hash', () => {
    expect(safeReturnPath('/pricing', origin)).toBe('/pricing');
    expect(safeReturnPath('/genie/billing?x=1#top', origin)).toBe('/genie/billing?x=1#top');
  });

  it('refuses other sites, schemes and server paths', () => {
    for (const value of [
      null,
      '',
      'pricing',
      'https://evil.example/pricing',
      '//evil.example/pricing',
      '/\\evil.example',
      '/\t/evil.example',
      '\n/pricing',
      'javascript:alert(1)',
      '/auth/google?intent=signup',
      '/get-billing-portal-link',
      '/stripe/checkout-return',
    ]) {
      expect(safeReturnPath(value, origin), String(value)).toBeNull();
    }
  });
});

describe('the remembered return path', () => {
  it('is read once', () => {
    const store = memoryStore();
    rememberReturnPath('/pricing', { store, origin, now: 1000 });
    expect(takeReturnPath({ store, origin, now: 2000 })).toBe('/pricing');
    expect(takeReturnPath({ store, origin, now: 2000 })).toBeNull();
  });

  it('is never an unsafe one, even when written by someone else', () => {
    const store = memoryStore();
    rememberReturnPath('https://evil.example/', { store, origin, now: 0 });
    expect(store.map.size).toBe(0);
    store.setItem(RETURN_PATH_KEY, JSON.stringify({ path: '//evil.example', at: 0 }));
    expect(takeReturnPath({ store, origin, now: 1 })).toBeNull();
    store.setItem(RETURN_PATH_KEY, 'not json');
    expect(takeReturnPath({ store, origin, now: 1 })).toBeNull();
  });

  it('is forgotten after 30 minutes', () => {
    const store = memoryStore();
    rememberReturnPath('/pricing', { store, origin, now: 0 });
    expect(takeReturnPath({ store, origin, now: RETURN_PATH_TTL_MS + 1 })).toBeNull();
    expect(store.map.size).toBe(0);
  });

  it('is carried by the sign-up link', () => {
    expect(signupReturningTo('/pricing')).toBe('/signup?next=%2Fpricing');
  });
});

describe('a signed-in visitor on a sign-in or sign-up screen', () => {
  it('goes to ?next= when it is a path of this site, else to the app', () => {
    expect(signedInDestination('/pricing', origin)).toBe('/pricing');
    expect(signedInDestination(null, origin)).toBe('/genie/subscriptions');
    expect(signedInDestination('https://evil.example/', origin)).toBe('/genie/subscriptions');
    expect(signedInDestination('//evil.example/x', origin)).toBe('/genie/subscriptions');
    expect(signedInDestination('/auth/google', origin)).toBe('/genie/subscriptions');
  });
});
