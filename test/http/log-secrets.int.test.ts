import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { withTestApp } from '#test/fixtures/app.js';
import { Client, readOutbox, resetTokenFrom, uniqueEmail } from '#test/helpers/app.js';

// Links that carry a secret in their query string (a reset token, an OAuth code and state, a Checkout
// session id) are opened by browsers; the server's log, at its default level, must not hold them.

describe('the log holds no secret of a query string', () => {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const t = withTestApp(
    'sqlite',
    () => ({
      LOG_LEVEL: 'info',
      GOOGLE_CLIENT_ID: 'log-test-client.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'log-test-secret',
    }),
    () => ({ logStream: stream }),
  );

  it('logs the paths of a reset, an OAuth callback and a checkout return without their secrets', async () => {
    const client = new Client(t.app);
    const email = uniqueEmail('logs');
    expect((await client.post('/auth/signup', { email, password: 'correct horse 1' })).statusCode).toBe(200);
    expect((await client.post('/auth/forgot-password', { email })).statusCode).toBe(200);
    let token = '';
    for (let i = 0; i < 100 && !token; i++) {
      const mail = (await readOutbox(t.dataDir)).find((m) => m.subject.includes('Reset'));
      if (mail) token = resetTokenFrom(mail);
      else await new Promise((r) => setTimeout(r, 20));
    }
    expect(token).not.toBe('');
    await client.get(`/reset-password/confirm?token=${encodeURIComponent(token)}`);
    const code = 'oauth-code-4f9a1c';
    const state = 'oauth-state-77d0e2';
    await client.get(`/auth/google/callback?code=${code}&state=${state}`);
    const sessionId = 'cs_test_secret_session_5b1e';
    await client.get(`/stripe/checkout-return?session_id=${sessionId}`);

    const log = lines.join('\n');
    // The requests were logged (so the check below reads real lines), by path.
    expect(log).toContain('"url":"/reset-password/confirm"');
    expect(log).toContain('"url":"/auth/google/callback"');
    expect(log).toContain('"url":"/stripe/checkout-return"');
    for (const secret of [token, encodeURIComponent(token), code, state, sessionId]) {
      expect(log).not.toContain(secret);
    }
  });
});
