import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '#server/lib/crypto.js';
import { withTestApp } from '#test/fixtures/app.js';
import {
  consentWithMicrosoft,
  MICROSOFT_CALLBACK,
  MICROSOFT_PUBLIC_URL,
  microsoftSignInEnv,
} from '#test/fixtures/oauth.js';
import { outlookMessage } from '#test/fixtures/outlook.js';
import { withGraphFake } from '#test/fixtures/peers.js';
import { Client, DIALECTS } from '#test/helpers/app.js';
import type { FakeMailbox, FakeUserOptions } from '#test/helpers/graph-fake.js';

// Sign-up, sign-in and add-account with Microsoft end to end: the product's /auth/outlook routes against
// the Graph / identity platform fake (authorize page, authorization_code grant with PKCE, id_token), then
// the scan of the granted Outlook mailbox through Graph, on SQLite and PostgreSQL.

const SCOPES = 'openid email offline_access Mail.ReadWrite Mail.Send MailboxSettings.ReadWrite';

const fake = withGraphFake({ redirectUris: [MICROSOFT_CALLBACK] });

/** An Outlook mailbox: a newsletter in Inbox and a subfolder (3), a list (2), a friend, junk. */
function outlookUser(label: string, options?: FakeUserOptions): { email: string; box: FakeMailbox } {
  const email = `${label}-${randomBytes(4).toString('hex')}@outlook.test`;
  const box = fake.addUser(email, options);
  const inbox = box.wellKnown('inbox');
  const letters = box.addFolder('Newsletters');
  const news = { name: 'Daily News', address: 'news@daily.example' };
  const unsub = [
    { name: 'List-Unsubscribe', value: '<https://daily.example/u/1>, <mailto:leave@daily.example>' },
  ];
  const dev = { name: 'Dev List', address: 'dev@lists.example' };
  const listId = [{ name: 'List-Id', value: '<dev.lists.example>' }];
  const friend = { name: 'Friend', address: 'friend@example.org' };
  box.addMessage(inbox, outlookMessage(news, 'News 3', 1, unsub));
  box.addMessage(inbox, outlookMessage(dev, 'Release 2.1', 2, listId));
  box.addMessage(inbox, outlookMessage(friend, 'Lunch?', 3));
  box.addMessage(letters, outlookMessage(news, 'News 2', 4, unsub));
  box.addMessage(inbox, outlookMessage(dev, 'Release 2.0', 5, listId));
  box.addMessage(letters, outlookMessage(news, 'News 1', 7, unsub));
  box.addMessage(
    box.wellKnown('junkemail'),
    outlookMessage({ name: 'Winner', address: 'win@junk.example' }, 'You won', 1, [
      { name: 'List-Unsubscribe', value: '<https://junk.example/u>' },
    ]),
  );
  return { email, box };
}

const COUNTS = [
  ['news@daily.example', 3],
  ['dev@lists.example', 2],
];

const consent = (authorizeUrl: string, email: string, tamper?: (url: URL) => void) =>
  consentWithMicrosoft(authorizeUrl, email, tamper);

describe.each(DIALECTS)('OAuth with Microsoft on %s', (dialect) => {
  const t = withTestApp(dialect, () => microsoftSignInEnv(fake));
  let secrets: SecretBox;
  beforeAll(() => {
    secrets = new SecretBox(t.config.secretKey);
  });

  async function start(client: Client, intent: string): Promise<string> {
    const res = await client.get(`/auth/outlook?intent=${intent}`);
    expect(res.statusCode).toBe(302);
    return res.headers.location as string;
  }

  async function signInWithMicrosoft(client: Client, intent: string, email: string) {
    return client.get(await consent(await start(client, intent), email));
  }

  const usersWith = (email: string) =>
    t.db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', email).execute();
  const mailboxesOf = (email: string) =>
    t.db
      .selectFrom('mailboxes')
      .select(['id', 'user_id', 'provider', 'secret', 'status'])
      .where('email', '=', email)
      .execute();
  const listed = async (client: Client) =>
    (await client.call('GET /get-unsubscribe-emails')).data.map((s) => [s.address, s.messageCount]);
  const signedUpOwner = async () => {
    const client = new Client(t.app);
    const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
    expect((await client.post('/auth/signup', { email, password: 'long enough' })).statusCode).toBe(200);
    return { client, email };
  };

  it('sends the browser to the identity platform v2 with PKCE S256 and the Outlook scopes', async () => {
    const client = new Client(t.app);
    const url = new URL(await start(client, 'signup'));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/common/oauth2/v2.0/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: fake.clientId,
      redirect_uri: MICROSOFT_CALLBACK,
      response_type: 'code',
      scope: SCOPES,
      code_challenge_method: 'S256',
      response_mode: 'query',
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(client.hasCookie('ig_oauth_outlook')).toBe(true);
  });

  it('signs up with a personal account, scans the mailbox and keeps the rotated refresh token sealed', async () => {
    const { email, box } = outlookUser('signup');
    const client = new Client(t.app);
    const done = await signInWithMicrosoft(client, 'signup', email);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/genie/subscriptions');
    expect(client.hasCookie('ig_session')).toBe(true);
    expect(fake.authorizations.filter((a) => a.userId === box.id)).toEqual([
      { userId: box.id, scope: SCOPES, codeChallengeMethod: 'S256' },
    ]);

    const users = await usersWith(email);
    expect(users).toEqual([{ id: expect.any(String), password_hash: null }]);
    const [stored] = await mailboxesOf(email);
    expect(stored).toMatchObject({ user_id: users[0]!.id, provider: 'outlook' });
    // The refresh token of the code grant, sealed.
    const granted = box.refreshTokens();
    expect(granted).toHaveLength(1);
    expect(stored!.secret).toMatch(/^v1\./);
    expect(stored!.secret).not.toContain(granted[0]!);
    expect(secrets.open(stored!.secret!)).toBe(granted[0]);

    await t.app.jobs.idle();
    expect(await listed(client)).toEqual(COUNTS);
    const data = (await client.call('GET /get-unsubscribe-emails')).data;
    expect(data[0]).toMatchObject({ senderName: 'Daily News', account: email });

    // The scan's refresh was answered with a new refresh token (Microsoft rotates them): that one is
    // saved, sealed, in place of the first.
    const issued = box.refreshTokens();
    expect(issued.length).toBeGreaterThan(1);
    const [after] = await mailboxesOf(email);
    expect(after!.secret).not.toBe(stored!.secret);
    expect(after!.secret).toMatch(/^v1\./);
    expect(after!.secret).not.toContain(issued.at(-1)!);
    expect(secrets.open(after!.secret!)).toBe(issued.at(-1));
  });

  it('signs in again as the same user; a revoked grant then asks for Microsoft again', async () => {
    const { email, box } = outlookUser('again');
    const first = new Client(t.app);
    await signInWithMicrosoft(first, 'signup', email);
    await t.app.jobs.idle();
    const [user] = await usersWith(email);

    const second = new Client(t.app);
    expect((await signInWithMicrosoft(second, 'signin', email)).headers.location).toBe(
      '/genie/subscriptions',
    );
    expect(await usersWith(email)).toEqual([user]);
    const [mailbox, ...more] = await mailboxesOf(email);
    expect(more).toEqual([]);
    await t.app.jobs.idle();
    expect(await listed(second)).toEqual(COUNTS);

    box.revokeGrants();
    await t.app.jobs.enqueue('scan-mailbox', { mailboxId: mailbox!.id }, { key: `mailbox:${mailbox!.id}` });
    await t.app.jobs.idle();
    const refused = await second.get('/get-unsubscribe-emails');
    expect(refused.statusCode).toBe(401);
    expect(refused.json().redirectUrl).toBe('/auth/outlook?intent=add');
    expect((await mailboxesOf(email))[0]!.status).toBe('reauth');

    expect((await signInWithMicrosoft(second, 'add', email)).headers.location).toBe('/genie/subscriptions');
    await t.app.jobs.idle();
    expect((await mailboxesOf(email))[0]!.status).toBe('active');
    expect(await listed(second)).toEqual(COUNTS);
  });

  it('does not sign in with a work account whose address Microsoft does not vouch for; adding it works', async () => {
    const { email } = outlookUser('org', { tenantId: randomUUID() });
    const client = new Client(t.app);
    const res = await signInWithMicrosoft(client, 'signin', email);
    expect(res.headers.location).toBe('/signin?error=oauth&reason=unverified_work_account&provider=outlook');
    expect(client.hasCookie('ig_session')).toBe(false);
    expect(await usersWith(email)).toEqual([]);
    expect(await mailboxesOf(email)).toEqual([]);

    // Signed in some other way, the same account can be added as a mailbox.
    const owner = await signedUpOwner();
    expect((await signInWithMicrosoft(owner.client, 'add', email)).headers.location).toBe(
      '/genie/subscriptions',
    );
    const [ownerRow] = await usersWith(owner.email);
    expect((await mailboxesOf(email))[0]!.user_id).toBe(ownerRow!.id);
    await t.app.jobs.idle();
    expect(await listed(owner.client)).toEqual(COUNTS);
  });

  it('signs in with a work account whose tenant verified the domain (xms_edov)', async () => {
    const { email } = outlookUser('edov', { tenantId: randomUUID(), emailDomainVerified: true });
    const client = new Client(t.app);
    expect((await signInWithMicrosoft(client, 'signup', email)).headers.location).toBe(
      '/genie/subscriptions',
    );
    expect(await usersWith(email)).toHaveLength(1);
  });

  it('refuses a grant without a refresh token (offline_access declined) and stores nothing', async () => {
    const { email } = outlookUser('offline');
    const client = new Client(t.app);
    const callback = await consent(await start(client, 'signup'), email, (url) => {
      url.searchParams.set('scope', url.searchParams.get('scope')!.replace(' offline_access', ''));
    });
    const res = await client.get(callback);
    expect(res.headers.location).toBe('/signin?error=oauth&reason=no_refresh_token&provider=outlook');
    expect(await usersWith(email)).toEqual([]);
    expect(await mailboxesOf(email)).toEqual([]);
  });

  it('sends a failed add back to Email Accounts, and a state mismatch stores nothing', async () => {
    const { email } = outlookUser('mismatch');
    const owner = await signedUpOwner();
    const callback = new URL(await consent(await start(owner.client, 'add'), email), MICROSOFT_PUBLIC_URL);
    callback.searchParams.set('state', 'forged');
    const res = await owner.client.get(`${callback.pathname}${callback.search}`);
    expect(res.headers.location).toBe('/genie/accounts?error=oauth&reason=expired&provider=outlook');
    expect(await mailboxesOf(email)).toEqual([]);
    expect((await owner.client.get('/get-email-accounts')).json()).toEqual({ data: [] });
  });

  it('answers 404 with the user-facing reason for Google, which has no keys here (no variable named)', async () => {
    const res = await new Client(t.app).get('/auth/google?intent=signup');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Google sign-in is not set up on this server.');
    const config = (await new Client(t.app).get('/get-public-config')).json();
    expect(config.providers).toEqual({
      google: { available: false, reason: 'Google sign-in is not set up on this server.' },
      outlook: { available: true },
    });
  });
});

describe('the fake identity platform', () => {
  it('checks the PKCE verifier (S256) and redeems a code once', async () => {
    const email = `pkce-${randomBytes(4).toString('hex')}@outlook.test`;
    fake.addUser(email);
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(`${fake.url}/common/oauth2/v2.0/authorize`);
    for (const [k, v] of Object.entries({
      client_id: fake.clientId,
      response_type: 'code',
      redirect_uri: MICROSOFT_CALLBACK,
      scope: SCOPES,
      state: 's',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      login_hint: email,
    })) {
      authorize.searchParams.set(k, v);
    }
    const code = async () => {
      const res = await fetch(authorize, { redirect: 'manual' });
      expect(res.status).toBe(302);
      return new URL(res.headers.get('location')!).searchParams.get('code')!;
    };
    const redeem = (c: string, v: string) =>
      fetch(`${fake.url}/common/oauth2/v2.0/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: c,
          redirect_uri: MICROSOFT_CALLBACK,
          client_id: fake.clientId,
          client_secret: fake.clientSecret,
          code_verifier: v,
        }),
      });
    const wrong = await redeem(await code(), randomBytes(32).toString('base64url'));
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_grant');

    const good = await code();
    const ok = await redeem(good, verifier);
    expect(ok.status).toBe(200);
    const tokens = (await ok.json()) as { refresh_token: string; id_token: string };
    expect(tokens.refresh_token).toMatch(/^rt-/);
    const claims = JSON.parse(Buffer.from(tokens.id_token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ aud: fake.clientId, email, tid: '9188040d-6c67-4c5b-b112-36a304b66dad' });
    expect(claims.iss).toBe(`${fake.url}/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0`);
    const replay = await redeem(good, verifier);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
  });
});
