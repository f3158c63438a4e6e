import { describe, expect, it } from 'vitest';
import { MESSAGES } from '#contract/validation.js';
import { withTestApp } from '#test/fixtures/app.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';

describe.each(DIALECTS)('auth rate limit on %s', (dialect) => {
  const t = withTestApp(dialect, () => ({ AUTH_RATE_LIMIT: '3/1m' }));

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

describe.each(DIALECTS)(
  'per-user limit of the calls that reach a mail server or a sender on %s',
  (dialect) => {
    const t = withTestApp(dialect, () => ({ USER_RATE_LIMIT: '3/1m' }));

    it('counts one budget per user over those routes, whatever the IP, and not against another user', async () => {
      const user = new Client(t.app);
      await user.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
      const unknown = { subscriptionId: '00000000-0000-4000-8000-000000000000' };
      const statuses = [
        (await user.post('/keep-subscription', unknown)).statusCode,
        (await user.post('/get-message-preview', { ...unknown, messageId: 'x' })).statusCode,
        (await user.post('/block-subscription', unknown)).statusCode,
        (await user.post('/unsubscribe', unknown)).statusCode,
      ];
      expect(statuses).toEqual([404, 404, 404, 429]);
      // The same session from another address is the same user.
      user.ip = '10.9.9.9';
      const moved = await user.post('/get-messages-by-sender-address', { senderAddress: 'a@b.example' });
      expect(moved.statusCode).toBe(429);
      expect(moved.json()).toEqual({ message: MESSAGES.tooManyRequests });
      // The list itself is not limited, and another user has their own budget.
      expect((await user.get('/get-unsubscribe-emails')).statusCode).toBe(200);
      const other = new Client(t.app);
      await other.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
      expect((await other.post('/keep-subscription', unknown)).statusCode).toBe(404);
    });
  },
);
