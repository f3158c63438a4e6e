import { describe, expect, it, vi } from 'vitest';
import {
  type AnalyticsEnv,
  CLIENT_ID_WAIT_MS,
  CONSENT_STORAGE_KEY,
  createAnalytics,
  trackAuthRedirect,
} from './analytics';

function fakeEnv(stored: Record<string, string> = {}) {
  const storage = new Map(Object.entries(stored));
  const scripts: string[] = [];
  const timers: Array<{ run: () => void; ms: number }> = [];
  const global: AnalyticsEnv['global'] = {};
  const env: AnalyticsEnv = {
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
    loadScript: (src) => void scripts.push(src),
    global,
    setTimeout: (run, ms) => timers.push({ run, ms }),
  };
  /** The gtag calls made, as arrays. */
  const calls = () => (global.dataLayer ?? []).map((args) => Array.from(args as ArrayLike<unknown>));
  return { env, storage, scripts, timers, global, calls };
}

describe('analytics consent', () => {
  it('loads nothing and sends nothing before the visitor answers', async () => {
    const page = fakeEnv();
    const analytics = createAnalytics(page.env);
    analytics.configure('G-TEST123');
    expect(analytics.shouldAsk()).toBe(true);
    analytics.track('sign_up', { method: 'Email' });
    expect(await analytics.clientId()).toBeNull();
    expect(page.scripts).toEqual([]);
    expect(page.global.dataLayer).toBeUndefined();
    expect(page.global.gtag).toBeUndefined();
  });

  it('loads gtag.js after Accept, then sends events', () => {
    const page = fakeEnv();
    const analytics = createAnalytics(page.env);
    analytics.configure('G-TEST123');
    analytics.track('dropped');
    analytics.setConsent('granted');
    expect(page.storage.get(CONSENT_STORAGE_KEY)).toBe('granted');
    expect(page.scripts).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-TEST123']);
    analytics.track('login', { method: 'Email' });
    const calls = page.calls();
    expect(calls).toContainEqual(['config', 'G-TEST123']);
    expect(calls).toContainEqual(['event', 'login', { method: 'Email' }]);
    // The event before consent was dropped, not queued.
    expect(calls.some((c) => c[1] === 'dropped')).toBe(false);
    expect(analytics.shouldAsk()).toBe(false);
  });

  it('remembers Decline: nothing loads, no banner again', () => {
    const first = fakeEnv();
    const analytics = createAnalytics(first.env);
    analytics.configure('G-TEST123');
    analytics.setConsent('denied');
    expect(first.storage.get(CONSENT_STORAGE_KEY)).toBe('denied');
    const again = fakeEnv({ [CONSENT_STORAGE_KEY]: 'denied' });
    const later = createAnalytics(again.env);
    later.configure('G-TEST123');
    later.track('login');
    expect(later.shouldAsk()).toBe(false);
    expect(again.scripts).toEqual([]);
    expect(again.global.dataLayer).toBeUndefined();
  });

  it('loads at once on a later visit after Accept, but never without a measurement id', () => {
    const page = fakeEnv({ [CONSENT_STORAGE_KEY]: 'granted' });
    const analytics = createAnalytics(page.env);
    analytics.configure(null);
    analytics.track('login');
    expect(analytics.shouldAsk()).toBe(false);
    expect(page.scripts).toEqual([]);
    analytics.configure('G-TEST123');
    analytics.configure('G-TEST123');
    expect(page.scripts).toHaveLength(1);
  });

  it('waits for the client id up to 500 ms', async () => {
    const page = fakeEnv({ [CONSENT_STORAGE_KEY]: 'granted' });
    const analytics = createAnalytics(page.env);
    analytics.configure('G-TEST123');
    const answered = analytics.clientId();
    const get = page.calls().find((c) => c[0] === 'get');
    expect(get?.slice(0, 3)).toEqual(['get', 'G-TEST123', 'client_id']);
    const callback = get?.[3] as (id: string) => void;
    callback('123.456');
    expect(await answered).toBe('123.456');

    const silent = analytics.clientId();
    expect(page.timers.at(-1)?.ms).toBe(CLIENT_ID_WAIT_MS);
    page.timers.at(-1)?.run();
    expect(await silent).toBeNull();
  });

  it('survives a storage that throws', () => {
    const page = fakeEnv();
    page.env.storage = {
      getItem: vi.fn(() => {
        throw new Error('denied');
      }),
      setItem: vi.fn(() => {
        throw new Error('denied');
      }),
    };
    const analytics = createAnalytics(page.env);
    analytics.configure('G-TEST123');
    expect(analytics.consent()).toBeNull();
    expect(() => analytics.setConsent('denied')).not.toThrow();
  });
});

describe('the event of a Google or Microsoft sign-in', () => {
  it('is sent once from the server’s cookie, which is deleted; a tampered value sends nothing', () => {
    const sent: unknown[] = [];
    const writes: string[] = [];
    const page = {
      get cookie() {
        return 'other=1; ig_auth_event=sign_up.Google';
      },
      set cookie(value: string) {
        writes.push(value);
      },
    };
    trackAuthRedirect(page, (event, params) => sent.push([event, params]));
    expect(sent).toEqual([['sign_up', { method: 'Google' }]]);
    expect(writes).toEqual(['ig_auth_event=; Max-Age=0; Path=/; SameSite=Lax']);

    const tampered = { cookie: 'ig_auth_event=purchase.Evil' };
    trackAuthRedirect(tampered, (event, params) => sent.push([event, params]));
    expect(sent).toHaveLength(1);
    const none = { cookie: 'other=1' };
    trackAuthRedirect(none, (event, params) => sent.push([event, params]));
    expect(none.cookie).toBe('other=1');
  });
});
