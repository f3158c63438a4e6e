import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SECURITY_MESSAGES } from '#contract/api/security.js';
import { MESSAGES } from '#contract/validation.js';
import { withTestApp } from '#test/fixtures/app.js';
import { consentWithGoogle, googleSignInEnv } from '#test/fixtures/oauth.js';
import { withGoogleEmulator } from '#test/fixtures/peers.js';
import { Client, DIALECTS, type TestApp, uniqueEmail } from '#test/helpers/app.js';

// POST /account/password from Settings (docs/decisions/102-settings-that-say-what-they-do.md): the current
// password is asked, the new one follows sign-up's rule, and the change keeps this session and ends the
// others.

const emu = withGoogleEmulator();

async function signedUp(t: TestApp, password = 'correct horse') {
  const client = new Client(t.app);
  const email = uniqueEmail('pw');
  expect((await client.post('/auth/signup', { email, password })).statusCode).toBe(200);
  return { client, email, password };
}

describe.each(DIALECTS)('changing the password on %s', (dialect) => {
  const t = withTestApp(dialect, () => googleSignInEnv(emu));

  it('refuses a wrong current password and a weak new one with 400 and changes nothing', async () => {
    const { client, email, password } = await signedUp(t);
    const wrong = await client.call('POST /account/password', {
      body: { currentPassword: 'not my password', newPassword: 'a brand new one' },
      status: 400,
    });
    expect(wrong).toEqual({ message: SECURITY_MESSAGES.wrongCurrentPassword });
    const weak = await client.call('POST /account/password', {
      body: { currentPassword: password, newPassword: 'short' },
      status: 400,
    });
    expect(weak.message).toBe(MESSAGES.passwordTooShort);
    const empty = await client.call('POST /account/password', {
      body: { currentPassword: '', newPassword: 'a brand new one' },
      status: 400,
    });
    expect(empty.message).toBe(SECURITY_MESSAGES.currentPasswordRequired);
    // Signed out, the call is refused before anything is read (docs/decisions/003).
    const stranger = new Client(t.app);
    const signedOut = await stranger.request({
      method: 'POST',
      url: '/account/password',
      payload: { currentPassword: password, newPassword: 'a brand new one' },
    });
    expect(signedOut.statusCode).toBe(403);
    // The old password still signs in.
    expect((await new Client(t.app).post('/auth/signin', { email, password })).statusCode).toBe(200);
  });

  it('keeps this session, ends the others, and only the new password signs in', async () => {
    const { client, email, password } = await signedUp(t);
    const phone = new Client(t.app);
    expect((await phone.post('/auth/signin', { email, password })).statusCode).toBe(200);
    expect((await phone.call('GET /account/sessions')).data).toHaveLength(2);

    const newPassword = 'another correct horse';
    const done = await client.call('POST /account/password', {
      body: { currentPassword: password, newPassword },
    });
    expect(done).toEqual({ message: SECURITY_MESSAGES.passwordChanged });

    // The other browser is signed out: its signed-in calls answer as signed out (403), its status false.
    expect((await phone.get('/get-settings')).statusCode).toBe(403);
    expect((await phone.get('/signin-status/')).json()).toEqual({ status: false });
    // This one goes on.
    expect((await client.call('GET /get-settings')).weeklyReport).toBe(false);
    const sessions = (await client.call('GET /account/sessions')).data;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.current).toBe(true);

    const old = await new Client(t.app).post('/auth/signin', { email, password });
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual({ message: MESSAGES.wrongCredentials });
    const fresh = new Client(t.app);
    expect((await fresh.post('/auth/signin', { email, password: newPassword })).statusCode).toBe(200);
    expect((await fresh.get('/signin-status/')).json()).toEqual({ status: true });
    // The address is as unconfirmed as before: knowing the password proves nothing of the mailbox.
    expect((await fresh.call('GET /auth/email-verification')).emailVerified).toBe(false);
  });

  it('tells an account made with Google that it has no password, and sets none', async () => {
    const email = `pwless-${randomBytes(4).toString('hex')}@gmail.test`;
    await emu.addUser(email);
    const client = new Client(t.app);
    const start = await client.get('/auth/google?intent=signin');
    await client.get(await consentWithGoogle(emu, start.headers.location as string, email));
    expect((await client.get('/signin-status/')).json()).toEqual({ status: true });
    for (const currentPassword of ['', 'anything at all']) {
      const refused = await client.call('POST /account/password', {
        body: { currentPassword, newPassword: 'a password of mine' },
        status: 400,
      });
      expect(refused).toEqual({ message: SECURITY_MESSAGES.noPasswordToChange });
    }
    const signin = await new Client(t.app).post('/auth/signin', { email, password: 'a password of mine' });
    expect(signin.statusCode).toBe(401);
    expect((await client.get('/signin-status/')).json()).toEqual({ status: true });
  });
});

describe.each(DIALECTS)('guessing the current password on %s', (dialect) => {
  const t = withTestApp(dialect, () => ({ AUTH_RATE_LIMIT: '3/1m' }));

  it('is limited per IP like the other account calls that check a secret, and per account', async () => {
    const { client, password } = await signedUp(t);
    const guess = (currentPassword: string) =>
      client.request({
        method: 'POST',
        url: '/account/password',
        payload: { currentPassword, newPassword: 'a brand new one' },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await guess(`guess ${i}`)).statusCode);
    const limited = await guess(password);
    expect([...statuses, limited.statusCode]).toEqual([400, 400, 400, 429]);
    expect(limited.json()).toEqual({ message: MESSAGES.tooManyRequests });

    // From other addresses, the account's own count goes on: 5 wrong guesses, then it waits.
    client.ip = '10.7.7.1';
    expect((await guess('guess 3')).statusCode).toBe(400);
    expect((await guess('guess 4')).statusCode).toBe(400);
    client.ip = '10.7.7.2';
    const waits = await guess(password);
    expect(waits.statusCode).toBe(429);
    expect(waits.json()).toEqual({ message: SECURITY_MESSAGES.tooManyPasswords });
  });
});
