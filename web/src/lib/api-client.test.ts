import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { errorDetailsSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { MESSAGES } from '#contract/validation.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A fresh client module (its token cache starts empty) over a fake fetch answering `answer`. */
async function clientWith(answer: (path: string, init: RequestInit) => Response) {
  vi.resetModules();
  const fetch = vi.fn(async (path: string, init: RequestInit) => answer(path, init));
  vi.stubGlobal('fetch', fetch);
  const { api } = await import('./api-client');
  const calls = (path: string) => fetch.mock.calls.filter(([p]) => p === path);
  return { api, fetch, calls };
}

/** Any answer: these cases are about the token, not the answers' shapes. */
const anything = z.unknown();

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the CSRF token', () => {
  it('is fetched once and reused by every state-changing call', async () => {
    let issued = 0;
    const { api, calls } = await clientWith((path, init) => {
      if (path === API.csrfToken) return json(200, { csrfToken: `t${++issued}` });
      return json(200, { header: new Headers(init.headers).get('X-CSRF-Token') });
    });
    const answers = await Promise.all([
      api.post('/a', {}, anything),
      api.send('PUT', '/b').then(() => new Headers(calls('/b')[0]?.[1].headers).get('X-CSRF-Token')),
      api.send('DELETE', '/c').then(() => new Headers(calls('/c')[0]?.[1].headers).get('X-CSRF-Token')),
    ]);
    await api.post('/d', {}, anything);
    await api.get('/e', anything);
    expect(calls(API.csrfToken)).toHaveLength(1);
    expect(answers).toEqual([{ header: 't1' }, 't1', 't1']);
    expect(calls('/e')[0]?.[1].headers).not.toHaveProperty('X-CSRF-Token');
  });

  it('is fetched again after a CSRF refusal, and the call retried once', async () => {
    let issued = 0;
    const { api, calls } = await clientWith((path, init) => {
      if (path === API.csrfToken) return json(200, { csrfToken: `t${++issued}` });
      const token = new Headers(init.headers).get('X-CSRF-Token');
      return token === 't1' ? json(403, { message: MESSAGES.csrf }) : json(200, { token });
    });
    await expect(api.post('/a', {}, anything)).resolves.toEqual({ token: 't2' });
    expect(calls(API.csrfToken)).toHaveLength(2);
    expect(calls('/a')).toHaveLength(2);
  });

  it('gives up after one retry, and keeps other 403s as they are', async () => {
    const { api, calls } = await clientWith((path) => {
      if (path === API.csrfToken) return json(200, { csrfToken: 't' });
      if (path === '/signed-out') return json(403, { message: MESSAGES.notSignedIn });
      return json(403, { message: MESSAGES.csrf });
    });
    await expect(api.post('/a', {}, anything)).rejects.toMatchObject({ status: 403, message: MESSAGES.csrf });
    expect(calls('/a')).toHaveLength(2);
    await expect(api.post('/signed-out', {}, anything)).rejects.toMatchObject({
      status: 403,
      message: MESSAGES.notSignedIn,
    });
    expect(calls('/signed-out')).toHaveLength(1);
  });

  it('is not kept when its fetch failed', async () => {
    let fail = true;
    const { api, calls } = await clientWith((path) => {
      if (path === API.csrfToken) return fail ? json(500, {}) : json(200, { csrfToken: 't' });
      return json(200, {});
    });
    await expect(api.post('/a', {}, anything)).rejects.toMatchObject({ status: 500 });
    fail = false;
    await expect(api.post('/a', {}, anything)).resolves.toEqual({});
    expect(calls(API.csrfToken)).toHaveLength(2);
  });
});

describe('a rate-limited token fetch', () => {
  it("fails the call with the spec's words, shows nothing itself, and is asked again next time", async () => {
    const alert = vi.fn();
    vi.stubGlobal('window', { alert });
    let limited = true;
    const { api, calls } = await clientWith((path) => {
      if (path === API.csrfToken)
        return limited ? json(429, { message: 'slow' }) : json(200, { csrfToken: 't' });
      return json(200, {});
    });
    // Two calls of one click share the one refused fetch: the same failure, for the screen to show once.
    const [first, second] = await Promise.all([
      api.post('/a', {}, anything).catch((e: unknown) => e),
      api.send('PUT', '/b').catch((e: unknown) => e),
    ]);
    expect(first).toMatchObject({ status: 429, message: MESSAGES.tooManyRequests });
    expect(second).toBe(first);
    expect(calls(API.csrfToken)).toHaveLength(1);
    expect(alert).not.toHaveBeenCalled();
    limited = false;
    await expect(api.post('/a', {}, anything)).resolves.toEqual({});
  });
});

describe('the details of a failed call', () => {
  it("are read once from the answer, as the contract's schema reads them", async () => {
    const answers: unknown[] = [
      { message: 'Sign in again.', redirectUrl: '/auth/google' },
      { message: 'Confirm.', confirmBlock: true, unlistedMessages: 3 },
      { message: 'Could not send.', offerBlock: true },
      { message: 'Code needed.', totpRequired: true },
      { message: 'Plain.' },
    ];
    for (const answer of answers) {
      const { api } = await clientWith(() => json(409, answer));
      const error = await api.get('/a', anything).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 409, details: errorDetailsSchema.parse(answer) });
    }
  });

  it('drop a field of the wrong type, and are empty without an object answer', async () => {
    const { ApiError } = await import('./api-client');
    const odd = { message: 'x', redirectUrl: '', confirmBlock: 'yes', offerBlock: 1, totpRequired: false };
    expect(new ApiError(409, 'x', odd).details).toEqual({});
    expect(new ApiError(502, 'x', 'Bad Gateway').details).toEqual({});
    expect(new ApiError(0, '').details).toEqual({});
  });
});
