import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { subscriptionsResponseSchema } from '#contract/api.js';
import { SecretBox } from '#server/lib/crypto.js';
import { withTestApp } from '#test/fixtures/app.js';
import { DEV_LIST, dailyNews } from '#test/fixtures/gmail.js';
import {
  consentWithGoogle,
  GOOGLE_CALLBACK,
  GOOGLE_PUBLIC_URL,
  googleSignInEnv,
} from '#test/fixtures/oauth.js';
import { withGoogleEmulator } from '#test/fixtures/peers.js';
import { Client, DIALECTS, readOutbox } from '#test/helpers/app.js';
import { GMAIL_SCOPES } from '#test/helpers/google-emulator.js';

// Sign-up, sign-in and add-account with Google end to end: the product's /auth/google routes against
// @emulators/google in-process (authorization code flow with PKCE, its consent form, token endpoint and
// Gmail API), then the scan of the granted mailbox, on SQLite and PostgreSQL.

const emu = withGoogleEmulator();

const day = (n: number) => new Date(Date.UTC(2025, 8, 1, 9) - n * 86_400_000);

/** A Gmail account with two newsletters (3 and 2 messages), a personal sender and spam. */
async function gmailUser(label: string): Promise<string> {
  const email = `${label}-${randomBytes(4).toString('hex')}@gmail.test`;
  await emu.addUser(email);
  const news = dailyNews('<https://daily.example/u/1>, <mailto:leave@daily.example>');
  const dev = DEV_LIST;
  const friend = { from: 'Friend <friend@example.org>', body: 'Lunch at noon?' };
  emu.insert(email, [
    { ...news, subject: 'News 3', date: day(1) },
    { ...dev, subject: 'Release 2.1', date: day(2) },
    { ...friend, subject: 'Lunch?', date: day(3) },
    { ...news, subject: 'News 2', date: day(4) },
    { ...dev, subject: 'Release 2.0', date: day(5) },
    { ...friend, subject: 'Re: Lunch?', date: day(6) },
    { ...news, subject: 'News 1', date: day(7) },
    {
      from: 'Winner <win@junk.example>',
      subject: 'You won',
      body: 'Claim now. unsubscribe',
      listUnsubscribe: '<https://junk.example/u>',
      labels: ['SPAM'],
      date: day(1),
    },
  ]);
  return email;
}

const consent = (authorizeUrl: string, email: string, tamper?: (fields: Record<string, string>) => void) =>
  consentWithGoogle(emu, authorizeUrl, email, tamper);

/** GET /auth/google?intent=… → the emulator's authorization URL (asserted to be a proper request). */
async function start(client: Client, intent: string): Promise<string> {
  const res = await client.get(`/auth/google?intent=${intent}`);
  expect(res.statusCode).toBe(302);
  return res.headers.location as string;
}

/** The whole dance: start, consent as `email`, callback. Answers the callback's response. */
async function signInWithGoogle(client: Client, intent: string, email: string) {
  const callback = await consent(await start(client, intent), email);
  return client.get(callback);
}

describe.each(DIALECTS)('OAuth with Google on %s', (dialect) => {
  const t = withTestApp(dialect, () => googleSignInEnv(emu));
  let secrets: SecretBox;
  beforeAll(() => {
    secrets = new SecretBox(t.config.secretKey);
  });

  /** The token of the confirmation link the product mailed to `email`. */
  async function verificationToken(email: string): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const mail = (await readOutbox(t.dataDir)).find(
        (m) => m.to.includes(email) && /Confirm/.test(m.subject),
      );
      const match = mail && /https?:\/\/[^/\s]+\/confirm-email\?token=([\w%-]+)/.exec(mail.text);
      if (match) return decodeURIComponent(match[1]!);
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no confirmation mail to ${email}`);
  }

  const usersWith = (email: string) =>
    t.db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', email).execute();
  const mailboxesOf = (email: string) =>
    t.db
      .selectFrom('mailboxes')
      .select(['id', 'user_id', 'provider', 'secret', 'status'])
      .where('email', '=', email)
      .execute();

  it('sends the browser to Google with PKCE S256, a random state and offline access', async () => {
    const client = new Client(t.app);
    const res = await client.get('/auth/google?intent=signup');
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    const url = new URL(res.headers.location as string);
    expect(`${url.origin}${url.pathname}`).toBe(`${emu.baseUrl}/o/oauth2/v2/auth`);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      client_id: emu.clientId,
      redirect_uri: GOOGLE_CALLBACK,
      response_type: 'code',
      scope: GMAIL_SCOPES,
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
    });
    expect(q.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A second start gets a new state and a new verifier.
    const again = new URL((await client.get('/auth/google?intent=signup')).headers.location as string);
    expect(again.searchParams.get('state')).not.toBe(q.state);
    expect(again.searchParams.get('code_challenge')).not.toBe(q.code_challenge);

    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^ig_oauth_google=[^;]+\.[^;]+;/); // signed: value.signature
    expect(cookie).toContain('Max-Age=600');
    expect(cookie).toContain('Path=/auth/google');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
  });

  it('signs up: creates the user, stores the Gmail mailbox sealed, and its scan lists the newsletters', async () => {
    const email = await gmailUser('signup');
    const client = new Client(t.app);
    const done = await signInWithGoogle(client, 'signup', email);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/genie/subscriptions');
    expect(client.hasCookie('ig_session')).toBe(true);
    expect(client.hasCookie('ig_oauth_google')).toBe(false);

    const users = await usersWith(email);
    expect(users).toHaveLength(1);
    expect(users[0]!.password_hash).toBeNull();
    const [mailbox, ...more] = await mailboxesOf(email);
    expect(more).toHaveLength(0);
    expect(mailbox).toMatchObject({ user_id: users[0]!.id, provider: 'gmail' });
    expect(mailbox!.secret).toMatch(/^v1\./);
    const refreshToken = secrets.open(mailbox!.secret!);
    expect(refreshToken).toMatch(/^google_refresh_/);
    expect(mailbox!.secret).not.toContain(refreshToken);

    await t.app.jobs.idle();
    const list = await client.get('/get-unsubscribe-emails');
    expect(list.statusCode).toBe(200);
    const { data } = client.json(list, subscriptionsResponseSchema);
    expect(data.map((s) => [s.address, s.messageCount])).toEqual([
      ['news@daily.example', 3],
      ['dev@lists.example', 2],
    ]);
    expect(data[0]).toMatchObject({ senderName: 'Daily News', account: email, category: 'uncategorized' });
    expect((await client.get('/get-email-accounts')).json().data).toEqual([
      expect.objectContaining({ email, provider: 'gmail', status: 'active' }),
    ]);
    expect((await client.get('/signin-status/')).json()).toEqual({ status: true });
  });

  it('signs in again with the same Google account as the same user, with one mailbox', async () => {
    const email = await gmailUser('again');
    const first = new Client(t.app);
    expect((await signInWithGoogle(first, 'signup', email)).headers.location).toBe('/genie/subscriptions');
    await t.app.jobs.idle();
    const [user] = await usersWith(email);
    const [before] = await mailboxesOf(email);

    const second = new Client(t.app);
    const done = await signInWithGoogle(second, 'signin', email);
    expect(done.headers.location).toBe('/genie/subscriptions');
    expect(second.hasCookie('ig_session')).toBe(true);
    expect(await usersWith(email)).toEqual([user]);
    const after = await mailboxesOf(email);
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(before!.id);
    // The new grant replaced the old one.
    expect(secrets.open(after[0]!.secret!)).not.toBe(secrets.open(before!.secret!));
    await t.app.jobs.idle();
    // Both browsers are signed in as that user; the rescan counted nothing twice.
    for (const client of [first, second]) {
      const data = (await client.call('GET /get-unsubscribe-emails')).data;
      expect(data.map((s) => [s.address, s.messageCount])).toEqual([
        ['news@daily.example', 3],
        ['dev@lists.example', 2],
      ]);
    }
  });

  it('signs a password account whose address was proven in, rather than creating another', async () => {
    const email = await gmailUser('password');
    const client = new Client(t.app);
    expect((await client.post('/auth/signup', { email, password: 'long enough' })).statusCode).toBe(200);
    const token = await verificationToken(email);
    expect((await client.post('/auth/verify-email', { token })).json()).toEqual({
      redirectUrl: '/genie/subscriptions?email=verified',
    });
    const [user] = await usersWith(email);
    const other = new Client(t.app);
    expect((await signInWithGoogle(other, 'signin', email)).headers.location).toBe('/genie/subscriptions');
    expect(await usersWith(email)).toEqual([user]);
    expect((await mailboxesOf(email))[0]!.user_id).toBe(user!.id);
    // Linked, not taken over: the password and the first session still work.
    expect((await client.get('/signin-status/')).json()).toEqual({ status: true });
    expect(
      (await new Client(t.app).post('/auth/signin', { email, password: 'long enough' })).statusCode,
    ).toBe(200);
  });

  it("takes an account made with the owner's address before they arrived away from whoever made it", async () => {
    const email = await gmailUser('pre-registered');
    // The attacker signs up the victim's address with a password of their own, and asks for a reset link.
    const attacker = new Client(t.app);
    expect((await attacker.post('/auth/signup', { email, password: 'attacker pass' })).statusCode).toBe(200);
    expect((await attacker.get('/signin-status/')).json()).toEqual({ status: true });
    expect((await attacker.get('/auth/email-verification')).json()).toEqual({ email, emailVerified: false });
    const [made] = await usersWith(email);
    await t.db
      .insertInto('password_resets')
      .values({
        token_hash: 'attacker-reset',
        user_id: made!.id,
        created_at: Date.now(),
        expires_at: Date.now() + 3_600_000,
        used_at: null,
      })
      .execute();

    // Weeks later the owner signs in with Google.
    const owner = new Client(t.app);
    const done = await signInWithGoogle(owner, 'signin', email);
    expect(done.headers.location).toBe('/genie/subscriptions?account=secured');
    const [user] = await usersWith(email);
    expect(user).toEqual({ id: made!.id, password_hash: null });
    expect((await owner.get('/auth/email-verification')).json()).toEqual({ email, emailVerified: true });
    expect((await mailboxesOf(email))[0]!.user_id).toBe(made!.id);

    // The attacker's session, password and reset link open nothing any more.
    expect((await attacker.get('/signin-status/')).json()).toEqual({ status: false });
    expect((await attacker.get('/get-unsubscribe-emails')).statusCode).toBe(403);
    const signin = await new Client(t.app).post('/auth/signin', { email, password: 'attacker pass' });
    expect(signin.statusCode).toBe(401);
    expect(
      await t.db.selectFrom('password_resets').select('token_hash').where('user_id', '=', made!.id).execute(),
    ).toEqual([]);
    // The owner's own session works; a second Google sign-in links as usual.
    expect((await owner.get('/signin-status/')).json()).toEqual({ status: true });
    expect((await signInWithGoogle(new Client(t.app), 'signin', email)).headers.location).toBe(
      '/genie/subscriptions',
    );
    await t.app.jobs.idle();
  });

  it('refuses a callback whose state does not match, and stores nothing', async () => {
    const email = await gmailUser('state');
    const client = new Client(t.app);
    const callback = await consent(await start(client, 'signup'), email);
    const url = new URL(callback, GOOGLE_PUBLIC_URL);
    url.searchParams.set('state', randomBytes(32).toString('base64url'));
    const res = await client.get(`${url.pathname}${url.search}`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/signin?error=oauth&reason=expired&provider=google');
    expect(client.hasCookie('ig_session')).toBe(false);
    // The attempt spent the flow: the genuine callback cannot be replayed after it.
    expect(client.hasCookie('ig_oauth_google')).toBe(false);
    expect((await client.get(callback)).headers.location).toBe(
      '/signin?error=oauth&reason=expired&provider=google',
    );
    expect(await usersWith(email)).toEqual([]);
    expect(await mailboxesOf(email)).toEqual([]);
  });

  it('refuses a callback in a browser that did not start the sign-in', async () => {
    const email = await gmailUser('csrf');
    const victim = new Client(t.app);
    const callback = await consent(await start(new Client(t.app), 'signup'), email);
    const res = await victim.get(callback);
    expect(res.headers.location).toBe('/signin?error=oauth&reason=expired&provider=google');
    expect(victim.hasCookie('ig_session')).toBe(false);
    expect(await usersWith(email)).toEqual([]);
  });

  it('returns to the picker with the reason when the user declines, as a code and no free text', async () => {
    const client = new Client(t.app);
    const state = new URL(await start(client, 'signin')).searchParams.get('state')!;
    const res = await client.get(
      `/auth/google/callback?error=access_denied&error_description=${encodeURIComponent('Call +1 555 0100')}&state=${encodeURIComponent(state)}`,
    );
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/signin?error=oauth&reason=denied&provider=google');
  });

  it("does not carry the provider's error text into the product", async () => {
    const client = new Client(t.app);
    const state = new URL(await start(client, 'signin')).searchParams.get('state')!;
    const res = await client.get(
      `/auth/google/callback?error=${encodeURIComponent('Your account is locked')}&state=${encodeURIComponent(state)}`,
    );
    expect(res.headers.location).toBe('/signin?error=oauth&reason=refused&provider=google');
  });

  it('refuses a grant without the Gmail scopes the user unticked', async () => {
    const email = await gmailUser('scopes');
    const client = new Client(t.app);
    const callback = await consent(await start(client, 'signup'), email, (fields) => {
      fields.scope = fields.scope!.replace(' https://www.googleapis.com/auth/gmail.settings.basic', '');
    });
    const res = await client.get(callback);
    expect(res.headers.location).toBe('/signin?error=oauth&reason=missing_scopes&provider=google');
    expect(await usersWith(email)).toEqual([]);
    expect(await mailboxesOf(email)).toEqual([]);
  });

  it('sends intent=add without a session to sign-in, at the start and at the callback', async () => {
    const signedOut = new Client(t.app);
    const res = await signedOut.get('/auth/google?intent=add');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/signin');
    expect(signedOut.hasCookie('ig_oauth_google')).toBe(false);

    // Started while signed in, finished after signing out: nothing is added to anyone.
    const email = await gmailUser('add-out');
    const client = new Client(t.app);
    await client.post('/auth/signup', {
      email: `owner-${randomBytes(4).toString('hex')}@example.com`,
      password: 'long enough',
    });
    const callback = await consent(await start(client, 'add'), email);
    expect((await client.post('/auth/logout')).statusCode).toBe(200);
    const done = await client.get(callback);
    expect(done.headers.location).toBe('/signin');
    expect(await mailboxesOf(email)).toEqual([]);
  });

  it('adds a Gmail mailbox to the signed-in user; a revoked grant asks for Google again', async () => {
    const email = await gmailUser('add');
    const client = new Client(t.app);
    const owner = `owner-${randomBytes(4).toString('hex')}@example.com`;
    await client.post('/auth/signup', { email: owner, password: 'long enough' });
    const done = await signInWithGoogle(client, 'add', email);
    expect(done.headers.location).toBe('/genie/subscriptions');
    const [ownerRow] = await usersWith(owner);
    const [mailbox] = await mailboxesOf(email);
    expect(mailbox!.user_id).toBe(ownerRow!.id);
    expect(await usersWith(email)).toEqual([]);
    await t.app.jobs.idle();
    const counts = [
      ['news@daily.example', 3],
      ['dev@lists.example', 2],
    ];
    const listed = async () =>
      (await client.call('GET /get-unsubscribe-emails')).data.map((s) => [s.address, s.messageCount]);
    expect(await listed()).toEqual(counts);

    // The user removes the app's access at Google; the next check finds the grant gone.
    await emu.revoke(secrets.open(mailbox!.secret!));
    await t.app.jobs.enqueue('scan-mailbox', { mailboxId: mailbox!.id }, { key: `mailbox:${mailbox!.id}` });
    await t.app.jobs.idle();
    expect((await mailboxesOf(email))[0]!.status).toBe('reauth');
    const refused = await client.get('/get-unsubscribe-emails');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      redirectUrl: '/auth/google?intent=add',
      message: `Please sign in to ${email} again.`,
    });

    // Following redirectUrl through Google again restores the mailbox with what was found.
    const again = await signInWithGoogle(client, 'add', email);
    expect(again.headers.location).toBe('/genie/subscriptions');
    await t.app.jobs.idle();
    const [restored] = await mailboxesOf(email);
    expect(restored).toMatchObject({ id: mailbox!.id, status: 'active' });
    expect(await listed()).toEqual(counts);
  });

  it('answers 400 for an unknown intent and 404 with the user-facing reason for a provider without keys', async () => {
    const client = new Client(t.app);
    const bad = await client.get('/auth/google?intent=steal');
    expect(bad.statusCode).toBe(400);
    const outlook = await client.get('/auth/outlook?intent=signin');
    expect(outlook.statusCode).toBe(404);
    // The user cannot set the server's variables: those go to the log, README and .env.example.
    expect(outlook.json().message).toBe('Microsoft sign-in is not set up on this server.');
    const callback = await client.get('/auth/outlook/callback?code=x&state=y');
    expect(callback.statusCode).toBe(404);
    expect(callback.json().message).toBe('Microsoft sign-in is not set up on this server.');
  });
});

describe('OAuth with Google on the free trial (billing on)', () => {
  // The mailbox limit reads the user's plan only: Stripe itself is never called here.
  const t = withTestApp('sqlite', () => ({
    ...googleSignInEnv(emu),
    STRIPE_SECRET_KEY: 'sk_test_unused',
    STRIPE_WEBHOOK_SECRET: 'whsec_unused',
    STRIPE_PRICE_MONTHLY: 'price_m',
    STRIPE_PRICE_YEARLY: 'price_y',
    STRIPE_API_URL: 'http://127.0.0.1:9',
  }));

  const mailboxesOf = (userEmail: string) =>
    t.db
      .selectFrom('mailboxes')
      .innerJoin('users', 'users.id', 'mailboxes.user_id')
      .select('mailboxes.email')
      .where('users.email', '=', userEmail)
      .execute();

  it('adds no second Gmail mailbox without a plan, re-connects the first, and still signs in', async () => {
    const first = await gmailUser('trial-first');
    const second = await gmailUser('trial-second');
    const client = new Client(t.app);
    const signedUp = await signInWithGoogle(client, 'signup', first);
    expect(signedUp.headers.location).toBe('/genie/subscriptions');
    // The page's analytics learn it was a sign-up with Google (a cookie the page reads once).
    expect(String(signedUp.headers['set-cookie'])).toMatch(
      /ig_auth_event=sign_up\.Google; Max-Age=60; Path=\//,
    );
    await t.app.jobs.idle();

    const refused = await signInWithGoogle(client, 'add', second);
    expect(refused.headers.location).toBe(
      '/genie/accounts?error=oauth&reason=subscription_required&provider=google',
    );
    expect((await mailboxesOf(first)).map((m) => m.email)).toEqual([first]);
    const again = await signInWithGoogle(client, 'add', first);
    expect(again.headers.location).toBe('/genie/subscriptions');

    // A password account whose one mailbox is another Gmail: signing in with Google as its own address
    // works, and that address is not connected as a second mailbox.
    const owner = await gmailUser('trial-owner');
    const other = await gmailUser('trial-other');
    const passwordUser = new Client(t.app);
    await passwordUser.post('/auth/signup', { email: owner, password: 'long enough' });
    expect((await signInWithGoogle(passwordUser, 'add', other)).headers.location).toBe(
      '/genie/subscriptions',
    );
    const browser = new Client(t.app);
    const signedIn = await signInWithGoogle(browser, 'signin', owner);
    // The password account never proved its address: Google's sign-in takes it over (and says so).
    expect(signedIn.headers.location).toBe('/genie/subscriptions?account=secured');
    expect(String(signedIn.headers['set-cookie'])).toContain('ig_auth_event=login.Google');
    expect((await browser.get('/signin-status/')).json()).toEqual({ status: true });
    expect((await mailboxesOf(owner)).map((m) => m.email)).toEqual([other]);
    await t.app.jobs.idle();
  });
});
