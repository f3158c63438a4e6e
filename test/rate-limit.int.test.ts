import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../contract/validation.js';
import { Client, createTestApp, DIALECTS, type TestApp, uniqueEmail } from './helpers/app.js';

describe.each(DIALECTS)('auth rate limit on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { AUTH_RATE_LIMIT: '3/1m' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 with the spec message once an IP has guessed too often, and not for another IP', async () => {
    const guesser = new Client(t.app);
    const email = uniqueEmail();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await guesser.post('/auth/signin', { email, password: `guess ${i}` })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const res = await guesser.post('/auth/signin', { email, password: 'guess' });
    expect(res.json()).toEqual({ message: MESSAGES.tooManyRequests });
    expect(res.headers['retry-after']).toBeDefined();

    const someoneElse = new Client(t.app);
    expect((await someoneElse.post('/auth/signin', { email, password: 'guess' })).statusCode).toBe(401);
  });

  it('limits forgot-password requests too', async () => {
    const client = new Client(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await client.post('/auth/forgot-password', { email: uniqueEmail() })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
