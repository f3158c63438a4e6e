import { randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { describe, expect, it, vi } from 'vitest';
import { SECURITY_MESSAGES } from '#contract/api/security.js';
import { MESSAGES } from '#contract/validation.js';
import { withTestApp } from '#test/fixtures/app.js';
import { consentWithGoogle, googleSignInEnv } from '#test/fixtures/oauth.js';
import { withGoogleEmulator } from '#test/fixtures/peers.js';
import {
  Client,
  DIALECTS,
  isResetMail,
  readOutbox,
  resetTokenFrom,
  type TestApp,
  uniqueEmail,
} from '#test/helpers/app.js';
import { softAuthenticator } from '#test/helpers/webauthn-authenticator.js';

// Two-step sign-in (TOTP), passkeys and sessions through the API (docs/decisions/091-second-factors-
// passkeys-and-sessions.md). Codes come from otpauth, passkeys from a software authenticator; the
// browser-level passkey flow is e2e/security.e2e.test.ts.

const emu = withGoogleEmulator();
const ORIGIN = 'http://localhost:3000';

const codeAt = (secret: string, offsetMs = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offsetMs,
  });

async function signedUp(t: TestApp, email = uniqueEmail('sec'), password = 'correct horse') {
  const client = new Client(t.app);
  expect((await client.post('/auth/signup', { email, password })).statusCode).toBe(200);
  return { client, email, password };
}

/** Turns two-step sign-in on for the signed-in `client`: the secret and the recovery codes. */
async function withTotp(client: Client): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await client.post('/auth/totp/setup');
  expect(setup.statusCode).toBe(200);
  const { secret, otpauthUrl } = setup.json();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Inbox%20Genie:.+\?/);
  expect(new URL(otpauthUrl).searchParams.get('issuer')).toBe('Inbox Genie');
  expect((await client.post('/auth/totp/enable', { code: '000000' })).statusCode).toBe(401);
  // A code of the previous step: the step now may be used by the sign-ins that follow.
  const enabled = await client.post('/auth/totp/enable', { code: codeAt(secret, -30_000) });
  expect(enabled.statusCode).toBe(200);
  const { recoveryCodes } = enabled.json();
  expect(recoveryCodes).toHaveLength(10);
  expect(new Set(recoveryCodes).size).toBe(10);
  return { secret, recoveryCodes };
}

describe.each(DIALECTS)('two-step sign-in on %s', (dialect) => {
  const t = withTestApp(dialect);

  it('asks for the code after the password, gives no session until then, and takes each code once', async () => {
    const { client, email, password } = await signedUp(t);
    const { secret } = await withTotp(client);
    expect((await client.get('/auth/totp')).json()).toEqual({ enabled: true, recoveryCodesLeft: 10 });

    const browser = new Client(t.app);
    const first = await browser.post('/auth/signin', { email, password });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ totpRequired: true });
    expect(browser.hasCookie('ig_session')).toBe(false);
    expect((await browser.get('/signin-status/')).json()).toEqual({ status: false });
    expect((await browser.post('/auth/signin/totp', { code: '123456' })).statusCode).toBe(401);
    const code = codeAt(secret);
    const second = await browser.post('/auth/signin/totp', { code });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ redirectUrl: '/connect-mailbox' });
    expect((await browser.get('/signin-status/')).json()).toEqual({ status: true });
    // The waiting sign-in is spent, and the same code does not open another.
    expect((await browser.post('/auth/signin/totp', { code })).statusCode).toBe(401);
    const replay = new Client(t.app);
    expect((await replay.post('/auth/signin', { email, password })).json()).toEqual({ totpRequired: true });
    const replayed = await replay.post('/auth/signin/totp', { code });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toEqual({ message: SECURITY_MESSAGES.wrongCode });
    // Another browser never had the waiting sign-in.
    const stranger = await new Client(t.app).post('/auth/signin/totp', { code: codeAt(secret, 30_000) });
    expect(stranger.json()).toEqual({ message: SECURITY_MESSAGES.signinExpired });
  });

  it('takes each recovery code once, and answers 429 after five wrong codes', async () => {
    const { client, email, password } = await signedUp(t);
    const { recoveryCodes } = await withTotp(client);
    const code = recoveryCodes[0]!;
    const browser = new Client(t.app);
    await browser.post('/auth/signin', { email, password });
    expect((await browser.post('/auth/signin/totp', { code: code.toUpperCase() })).statusCode).toBe(200);
    expect((await client.get('/auth/totp')).json().recoveryCodesLeft).toBe(9);
    const again = new Client(t.app);
    await again.post('/auth/signin', { email, password });
    expect((await again.post('/auth/signin/totp', { code })).statusCode).toBe(401);
    for (let i = 0; i < 4; i++)
      expect((await again.post('/auth/signin/totp', { code: `1111${i}0` })).statusCode).toBe(401);
    const locked = await again.post('/auth/signin/totp', { code: recoveryCodes[1]! });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ message: MESSAGES.tooManyCodes });
  });

  it('needs the code to reset the password, and to turn two-step sign-in off', async () => {
    const { client, email } = await signedUp(t);
    const { secret, recoveryCodes } = await withTotp(client);
    await new Client(t.app).post('/auth/forgot-password', { email });
    const mail = await vi.waitFor(async () => {
      const found = (await readOutbox(t.dataDir)).find((m) => m.to === email && isResetMail(m));
      if (!found) throw new Error('no reset mail yet');
      return found;
    });
    const token = resetTokenFrom(mail);
    const bare = await new Client(t.app).post('/auth/reset-password', { token, password: 'new password!' });
    expect(bare.statusCode).toBe(401);
    expect(bare.json()).toEqual({ message: SECURITY_MESSAGES.codeRequired, totpRequired: true });
    const wrong = await new Client(t.app).post('/auth/reset-password', {
      token,
      password: 'new password!',
      code: '999999',
    });
    expect(wrong.json()).toEqual({ message: SECURITY_MESSAGES.wrongCode, totpRequired: true });
    const done = await new Client(t.app).post('/auth/reset-password', {
      token,
      password: 'new password!',
      code: recoveryCodes[2],
    });
    expect(done.statusCode).toBe(200);

    const signedIn = new Client(t.app);
    expect((await signedIn.post('/auth/signin', { email, password: 'new password!' })).json()).toEqual({
      totpRequired: true,
    });
    expect((await signedIn.post('/auth/signin/totp', { code: codeAt(secret) })).statusCode).toBe(200);
    expect((await signedIn.delete('/auth/totp', { code: '000000' })).statusCode).toBe(401);
    expect((await signedIn.delete('/auth/totp', { code: recoveryCodes[3] })).statusCode).toBe(200);
    expect((await signedIn.get('/auth/totp')).json()).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect(
      (await new Client(t.app).post('/auth/signin', { email, password: 'new password!' })).json(),
    ).toEqual({
      redirectUrl: '/connect-mailbox',
    });
  });
});

describe.each(DIALECTS)('passkeys on %s', (dialect) => {
  const t = withTestApp(dialect);

  async function registerPasskey(client: Client, authenticator = softAuthenticator(), name = 'Laptop') {
    const options = await client.post('/auth/passkeys/registration-options');
    expect(options.statusCode).toBe(200);
    const json = options.json();
    expect(json.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    expect(json.rp.id).toBe('localhost');
    const done = await client.post('/auth/passkeys/registration', {
      response: authenticator.register(json, ORIGIN),
      name,
    });
    expect(done.statusCode).toBe(200);
    return { authenticator, passkey: done.json() };
  }

  async function signInWithPasskey(browser: Client, authenticator: ReturnType<typeof softAuthenticator>) {
    const options = (await browser.post('/auth/passkeys/authentication-options')).json();
    expect(options.allowCredentials).toEqual([]);
    return browser.post('/auth/passkeys/authentication', {
      response: authenticator.authenticate(options, ORIGIN),
    });
  }

  it('registers a passkey and signs in with it alone, with no address typed, even with two-step sign-in on', async () => {
    const { client } = await signedUp(t);
    const { authenticator, passkey } = await registerPasskey(client);
    expect(passkey).toMatchObject({ name: 'Laptop', lastUsedAt: null });
    await withTotp(client);
    const browser = new Client(t.app);
    const signedIn = await signInWithPasskey(browser, authenticator);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({ redirectUrl: '/connect-mailbox' });
    expect((await browser.get('/signin-status/')).json()).toEqual({ status: true });
    const [listed] = (await client.get('/auth/passkeys')).json().data;
    expect(listed.id).toBe(passkey.id);
    expect(listed.lastUsedAt).toEqual(expect.any(String));
  });

  it('uses each challenge once, in the browser it was given to, and refuses an assertion for another origin', async () => {
    const { client } = await signedUp(t);
    const { authenticator } = await registerPasskey(client);
    const browser = new Client(t.app);
    const options = (await browser.post('/auth/passkeys/authentication-options')).json();
    const response = authenticator.authenticate(options, ORIGIN);
    const elsewhere = await new Client(t.app).post('/auth/passkeys/authentication', { response });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toEqual({ message: SECURITY_MESSAGES.passkeyExpired });
    expect((await browser.post('/auth/passkeys/authentication', { response })).statusCode).toBe(200);
    expect((await browser.post('/auth/passkeys/authentication', { response })).statusCode).toBe(400);
    const phished = new Client(t.app);
    const phishedOptions = (await phished.post('/auth/passkeys/authentication-options')).json();
    const forged = await phished.post('/auth/passkeys/authentication', {
      response: authenticator.authenticate(phishedOptions, 'https://inbox-genie.evil.example'),
    });
    expect(forged.statusCode).toBe(401);
    expect((await phished.get('/signin-status/')).json()).toEqual({ status: false });
  });

  it("lists and removes only the user's own passkeys; a removed passkey signs in no more", async () => {
    const { client } = await signedUp(t);
    const other = await signedUp(t);
    const { authenticator, passkey } = await registerPasskey(client);
    expect((await other.client.delete(`/auth/passkeys/${passkey.id}`)).statusCode).toBe(404);
    expect((await other.client.get('/auth/passkeys')).json()).toEqual({ data: [] });
    expect((await client.delete(`/auth/passkeys/${passkey.id}`)).statusCode).toBe(200);
    const refused = await signInWithPasskey(new Client(t.app), authenticator);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: SECURITY_MESSAGES.passkeyUnknown });
  });
});

describe.each(DIALECTS)('sessions on %s', (dialect) => {
  const t = withTestApp(dialect);

  const signIn = (client: Client, email: string, password: string, userAgent: string) =>
    client.request({
      method: 'POST',
      url: '/auth/signin',
      payload: { email, password },
      headers: { 'user-agent': userAgent },
    });

  it('lists the sessions, signs out one or all the others, and never another user’s', async () => {
    const { client, email, password } = await signedUp(t);
    const phone = new Client(t.app);
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
    expect((await signIn(phone, email, password, firefox)).statusCode).toBe(200);
    const tablet = new Client(t.app);
    expect((await signIn(tablet, email, password, 'Tablet')).statusCode).toBe(200);
    const list = (await client.call('GET /account/sessions')).data;
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    const phoneSession = list.find((s) => s.userAgent === firefox)!;
    expect(phoneSession.id).toMatch(/^[0-9a-f]{24}$/);

    const stranger = await signedUp(t);
    expect((await stranger.client.delete(`/account/sessions/${phoneSession.id}`)).statusCode).toBe(404);
    expect((await client.delete(`/account/sessions/${phoneSession.id}`)).statusCode).toBe(200);
    expect((await phone.get('/signin-status/')).json()).toEqual({ status: false });
    expect((await tablet.get('/signin-status/')).json()).toEqual({ status: true });
    expect((await client.post('/account/sessions/revoke-others')).statusCode).toBe(200);
    expect((await tablet.get('/signin-status/')).json()).toEqual({ status: false });
    expect((await client.get('/signin-status/')).json()).toEqual({ status: true });
    expect((await client.get('/account/sessions')).json().data).toHaveLength(1);
  });

  it('mails the owner when a browser it has not seen signs in, and not again for the same browser', async () => {
    const { client, email, password } = await signedUp(t);
    const notices = async () =>
      (await readOutbox(t.dataDir)).filter((m) => m.to === email && /new sign-in/.test(m.subject));
    // The browser that signed up is known: its next sign-in mails nothing.
    await client.post('/auth/logout');
    expect((await signIn(client, email, password, 'Same browser')).statusCode).toBe(200);
    const elsewhere = new Client(t.app);
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36';
    expect((await signIn(elsewhere, email, password, chrome)).statusCode).toBe(200);
    const [mail] = await vi.waitFor(async () => {
      const found = await notices();
      expect(found).toHaveLength(1);
      return found;
    });
    expect(mail!.text).toContain('Chrome on Windows');
    await elsewhere.post('/auth/logout');
    expect((await signIn(elsewhere, email, password, chrome)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(await notices()).toHaveLength(1);
  });
});

describe.each(DIALECTS)('two-step sign-in with Google on %s', (dialect) => {
  const t = withTestApp(dialect, () => googleSignInEnv(emu));

  it('asks for the code after Google too, and opens a session only with it', async () => {
    const email = `twostep-${randomBytes(4).toString('hex')}@gmail.test`;
    await emu.addUser(email);
    const signInWithGoogle = async (client: Client) => {
      const start = await client.get('/auth/google?intent=signin');
      return client.get(await consentWithGoogle(emu, start.headers.location as string, email));
    };
    const owner = new Client(t.app);
    expect((await signInWithGoogle(owner)).headers.location).toBe('/genie/subscriptions');
    const { secret } = await withTotp(owner);
    await t.app.jobs.idle();

    const browser = new Client(t.app);
    const back = await signInWithGoogle(browser);
    expect(back.headers.location).toBe('/signin/code');
    expect((await browser.get('/signin-status/')).json()).toEqual({ status: false });
    const done = await browser.post('/auth/signin/totp', { code: codeAt(secret) });
    expect(done.statusCode).toBe(200);
    expect((await browser.get('/signin-status/')).json()).toEqual({ status: true });
  });
});
