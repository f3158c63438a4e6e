import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '#contract/validation.js';
import type { Mailer, OutgoingMail } from '#server/email/mailer.js';
import { RESET_COOLDOWN_MS, RESET_TTL_MS } from '#server/features/accounts/service.js';
import { hashToken } from '#server/lib/crypto.js';
import { withTestApp } from '#test/fixtures/app.js';
import {
  Client,
  createTestApp,
  DIALECTS,
  isResetMail,
  readOutbox,
  resetTokenFrom,
  type TestApp,
  uniqueEmail,
} from '#test/helpers/app.js';

describe.each(DIALECTS)('accounts API on %s', (dialect) => {
  const t = withTestApp(dialect);

  /** The reset mail is sent after the answer: waits until `count` mails to `email` are in the outbox. */
  function mailsTo(email: string, count: number) {
    return vi.waitFor(async () => {
      const mails = (await readOutbox(t.dataDir)).filter((m) => m.to === email && isResetMail(m));
      expect(mails).toHaveLength(count);
      return mails;
    });
  }

  async function signedUp(password = 'correct horse') {
    const client = new Client(t.app);
    const email = uniqueEmail();
    const res = await client.post('/auth/signup', { email, password });
    expect(res.statusCode).toBe(200);
    return { client, email, password };
  }

  describe('GET /csrf-token and the CSRF header', () => {
    it('answers a token and sets its secret cookie', async () => {
      const client = new Client(t.app);
      const res = await client.get('/csrf-token');
      expect(res.statusCode).toBe(200);
      expect(res.json().csrfToken).toEqual(expect.any(String));
      expect(client.hasCookie('ig_csrf')).toBe(true);
    });

    it('refuses a non-GET call without the X-CSRF-Token header with 403', async () => {
      const client = new Client(t.app);
      await client.token();
      const res = await client.post(
        '/auth/signup',
        { email: uniqueEmail(), password: 'long enough' },
        { csrf: false },
      );
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: MESSAGES.csrf });
    });

    it('refuses a token from another browser', async () => {
      const victim = new Client(t.app);
      const attacker = new Client(t.app);
      const stolen = await attacker.token();
      await victim.token();
      const res = await victim.request({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: uniqueEmail(), password: 'long enough' },
        headers: { 'x-csrf-token': stolen },
        csrf: false,
      });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('POST /auth/signup', () => {
    it('creates the account, starts a session and sends the user to /connect-mailbox', async () => {
      const client = new Client(t.app);
      const res = await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ redirectUrl: '/connect-mailbox' });
      const cookie = res.cookies.find((c) => c.name === 'ig_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie?.secure).toBeFalsy();
      expect((await client.get('/signin-status/')).json()).toEqual({ status: true });
    });

    it.each([
      [{ email: 'not-an-email', password: 'long enough' }, MESSAGES.invalidEmail],
      [{ email: 'a@b', password: 'long enough' }, MESSAGES.invalidEmail],
      [{ email: 'a b@c.de', password: 'long enough' }, MESSAGES.invalidEmail],
      [{ password: 'long enough' }, MESSAGES.invalidEmail],
      [{ email: 'ok@example.com', password: 'short' }, MESSAGES.passwordTooShort],
      [{ email: 'ok@example.com' }, MESSAGES.passwordRequired],
      [{ email: 42, password: 'long enough' }, MESSAGES.invalidEmail],
      [{ email: 'admin\u202egro.elpmaxe@example.com', password: 'long enough' }, MESSAGES.invalidEmail],
      [{ email: 'ada\u0000@example.com', password: 'long enough' }, MESSAGES.invalidEmail],
      [{ email: 'ada@example.com\u0007', password: 'long enough' }, MESSAGES.invalidEmail],
    ])('answers 400 with the spec message for %j', async (body, message) => {
      const res = await new Client(t.app).post('/auth/signup', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    });

    it('answers 400 for a body that is not JSON', async () => {
      const client = new Client(t.app);
      const res = await client.request({
        method: 'POST',
        url: '/auth/signup',
        payload: '{"email": ',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    });

    it('answers an address that already has an account as a new one, and mails its owner instead', async () => {
      const { email, client: owner } = await signedUp();
      const visitor = new Client(t.app);
      const res = await visitor.post('/auth/signup', {
        email: `  ${email.toUpperCase()} `,
        password: 'other password',
      });
      // The same answer as for a new address: 200, the add-mailbox redirect and a session cookie...
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ redirectUrl: '/connect-mailbox' });
      expect(visitor.hasCookie('ig_session')).toBe(true);
      // ...that opens a stand-in account of its own, which answers as a new account's session does (the
      // address typed, unproven), while the owner's account is as it was.
      const fresh = new Client(t.app);
      const newcomer = uniqueEmail('newcomer');
      await fresh.post('/auth/signup', { email: newcomer, password: 'other password' });
      for (const [client, address] of [
        [visitor, email],
        [fresh, newcomer],
      ] as const) {
        expect((await client.get('/signin-status/')).json()).toEqual({ status: true });
        const status = await client.get('/auth/email-verification');
        expect(status.statusCode).toBe(200);
        expect(status.json()).toEqual({ email: address, emailVerified: false });
        expect((await client.get('/get-email-accounts')).json()).toEqual({ data: [] });
        expect((await client.post('/auth/email-verification')).statusCode).toBe(200);
      }
      expect((await owner.get('/signin-status/')).json()).toEqual({ status: true });
      expect(
        (await new Client(t.app).post('/auth/signin', { email, password: 'other password' })).statusCode,
      ).toBe(401);
      // The stand-in goes with its session; the owner's account stays.
      const standIns = () =>
        t.db.selectFrom('users').select('id').where('duplicate_signup_email', '=', email).execute();
      expect(await standIns()).toHaveLength(1);
      expect((await visitor.post('/auth/logout')).statusCode).toBe(200);
      expect(await standIns()).toEqual([]);
      expect((await owner.get('/signin-status/')).json()).toEqual({ status: true });
      await t.app.ready();
      await vi.waitFor(async () => {
        const mails = (await readOutbox(t.dataDir)).filter((m) => m.to.includes(email));
        expect(mails.map((m) => m.subject)).toContain(
          'Someone tried to create an Inbox Genie account with your address',
        );
      });
    });

    it('stores the address composed (NFC), so another spelling of it is the same account', async () => {
      const local = uniqueEmail('zoe').split('@')[0];
      const decomposed = `${local}-Zoe\u0308@Example.com`;
      const composed = `${local}-zo\u00eb@example.com`;
      const client = new Client(t.app);
      expect(
        (await client.post('/auth/signup', { email: decomposed, password: 'long enough' })).statusCode,
      ).toBe(200);
      const rows = await t.db
        .selectFrom('users')
        .select('email')
        .where('email', 'like', `${local}-%`)
        .execute();
      expect(rows.map((r) => r.email)).toEqual([composed]);
      const again = await new Client(t.app).post('/auth/signup', {
        email: composed,
        password: 'long enough',
      });
      expect(again.statusCode).toBe(200);
      expect(
        (await t.db.selectFrom('users').select('id').where('email', 'like', `${local}-%`).execute()).length,
      ).toBe(1);
      const signin = await new Client(t.app).post('/auth/signin', {
        email: composed,
        password: 'long enough',
      });
      expect(signin.statusCode).toBe(200);
    });

    it('stores an argon2id hash, never the password', async () => {
      const { email, password } = await signedUp('my secret password');
      const row = await t.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.password_hash).not.toContain(password);
    });
  });

  describe('POST /auth/signin and /auth/logout', () => {
    it('signs in with the right password and out again', async () => {
      const { email, password } = await signedUp();
      const client = new Client(t.app);
      const res = await client.post('/auth/signin', { email: email.toUpperCase(), password });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ redirectUrl: '/connect-mailbox' });
      expect((await client.get('/signin-status/')).json()).toEqual({ status: true });
      const out = await client.post('/auth/logout');
      expect(out.statusCode).toBe(200);
      expect((await client.get('/signin-status/')).json()).toEqual({ status: false });
    });

    it('sends a user who has a mailbox to /genie/subscriptions', async () => {
      const { email, password } = await signedUp();
      const user = await t.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      await t.db
        .insertInto('mailboxes')
        .values({
          id: `mb-${user.id}`,
          user_id: user.id,
          email,
          provider: 'yahoo',
          secret: null,
          created_at: Date.now(),
        })
        .execute();
      const res = await new Client(t.app).post('/auth/signin', { email, password });
      expect(res.json()).toEqual({ redirectUrl: '/genie/subscriptions' });
    });

    it('answers 401 for a wrong password and for an unknown address alike', async () => {
      const { email } = await signedUp();
      const wrong = await new Client(t.app).post('/auth/signin', { email, password: 'wrong password' });
      const unknown = await new Client(t.app).post('/auth/signin', {
        email: uniqueEmail(),
        password: 'whatever1',
      });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ message: MESSAGES.wrongCredentials });
      expect(unknown.json()).toEqual(wrong.json());
    });

    it.each([
      [{ email: 'bad', password: 'x' }, MESSAGES.invalidEmail],
      [{ email: 'ok@example.com', password: '' }, MESSAGES.passwordRequired],
      [{ email: 'ok\u202e@example.com', password: 'x' }, MESSAGES.invalidEmail],
    ])('answers 400 for %j', async (body, message) => {
      const res = await new Client(t.app).post('/auth/signin', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    });

    it('deletes the session row on logout, so the cookie is useless afterwards', async () => {
      const { client, email } = await signedUp();
      const user = await t.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const sessionsOf = () =>
        t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();
      expect(await sessionsOf()).toHaveLength(1);
      await client.post('/auth/logout');
      expect(await sessionsOf()).toHaveLength(0);
      expect((await client.get('/get-settings')).statusCode).toBe(403);
    });
  });

  describe('proving the address, and the per-address backoff', () => {
    const confirmMails = (email: string) =>
      vi.waitFor(async () => {
        const mails = (await readOutbox(t.dataDir)).filter(
          (m) => m.to === email && m.subject === 'Confirm your email address for Inbox Genie',
        );
        expect(mails.length).toBeGreaterThan(0);
        return mails;
      });
    const tokenIn = (text: string) => {
      const match = /http:\/\/localhost:3000\/confirm-email\?token=([\w%-]+)/.exec(text);
      if (!match) throw new Error(`no link in ${text}`);
      return decodeURIComponent(match[1]!);
    };

    it('mails a link at sign-up that proves the address once, on a POST from a session of the account', async () => {
      const { client, email } = await signedUp();
      expect((await client.get('/auth/email-verification')).json()).toEqual({ email, emailVerified: false });
      const [mail] = await confirmMails(email);
      const token = tokenIn(mail!.text);
      // Resend within the cooldown adds no mail; the answer is the same.
      const resent = await client.post('/auth/email-verification');
      expect(resent.statusCode).toBe(200);
      expect(resent.json().message).toMatch(/confirmation link/);

      // Links of older mails only lead to the confirm screen.
      const opened = await new Client(t.app).get(`/auth/verify-email?token=${token}`);
      expect(opened.statusCode).toBe(302);
      expect(opened.headers.location).toBe(`/confirm-email?token=${token}`);
      const confirmed = await client.post('/auth/verify-email', { token });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json()).toEqual({ redirectUrl: '/genie/subscriptions?email=verified' });
      expect((await client.get('/auth/email-verification')).json()).toEqual({ email, emailVerified: true });
      const again = await client.post('/auth/verify-email', { token });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toMatch(/invalid or has expired/);
      expect((await client.post('/auth/verify-email', { token: 'nope' })).statusCode).toBe(400);
      expect((await new Client(t.app).get('/auth/email-verification')).statusCode).toBe(403);
    });

    it('counts a password reset as proof of the address', async () => {
      const { client, email } = await signedUp();
      await new Client(t.app).post('/auth/forgot-password', { email });
      const [mail] = await mailsTo(email, 1);
      const reset = await new Client(t.app).post('/auth/reset-password', {
        token: resetTokenFrom(mail!),
        password: 'a new password',
        confirmPassword: 'a new password',
      });
      expect(reset.statusCode).toBe(200);
      const again = new Client(t.app);
      await again.post('/auth/signin', { email, password: 'a new password' });
      expect((await again.get('/auth/email-verification')).json()).toEqual({ email, emailVerified: true });
      expect((await client.get('/signin-status/')).json()).toEqual({ status: false });
    });

    it('makes an address wait after five failed sign-ins, known or unknown alike, and forgets on success', async () => {
      const { email, password } = await signedUp();
      const stranger = uniqueEmail('nobody');
      for (const address of [email, stranger]) {
        // A new browser (and IP) each time: the per-IP limit is not what answers.
        for (let i = 0; i < 5; i++) {
          const wrong = await new Client(t.app).post('/auth/signin', {
            email: address,
            password: 'wrong guess',
          });
          expect(wrong.statusCode).toBe(401);
        }
        const locked = await new Client(t.app).post('/auth/signin', {
          email: address,
          password: 'wrong guess',
        });
        expect(locked.statusCode).toBe(429);
        expect(locked.json()).toEqual({ message: MESSAGES.tooManySignins });
      }
      // While it waits even the right password is refused.
      expect((await new Client(t.app).post('/auth/signin', { email, password })).statusCode).toBe(429);
      // Once the wait is over (moved into the past here), the right password signs in and clears the count.
      await t.db.updateTable('signin_failures').set({ locked_until: 0 }).execute();
      expect((await new Client(t.app).post('/auth/signin', { email, password })).statusCode).toBe(200);
      const wrong = await new Client(t.app).post('/auth/signin', { email, password: 'wrong again' });
      expect(wrong.statusCode).toBe(401);
    });
  });

  describe('forgot and reset password', () => {
    it('answers the same for a known and an unknown address, and mails only the known one', async () => {
      const { email } = await signedUp();
      const stranger = uniqueEmail('stranger');
      const known = await new Client(t.app).post('/auth/forgot-password', { email });
      const unknown = await new Client(t.app).post('/auth/forgot-password', { email: stranger });
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toEqual(known.json());
      const [mail] = await mailsTo(email, 1);
      expect((await readOutbox(t.dataDir)).filter((m) => m.to === stranger)).toHaveLength(0);
      const link = mail!.text;
      expect(link).toContain('http://localhost:3000/reset-password/confirm?token=');
    });

    it('answers 400 for a malformed address', async () => {
      const res = await new Client(t.app).post('/auth/forgot-password', { email: 'nope' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: MESSAGES.invalidEmail });
    });

    async function requestReset(email: string, count = 1): Promise<string> {
      await new Client(t.app).post('/auth/forgot-password', { email });
      return resetTokenFrom((await mailsTo(email, count)).at(-1)!);
    }

    it('ends every older reset link of the user when one of them is used', async () => {
      const { email } = await signedUp();
      const older = await requestReset(email);
      // Past the per-address cooldown, a second link is mailed.
      await t.db
        .updateTable('password_resets')
        .set((eb) => ({ created_at: eb('created_at', '-', RESET_COOLDOWN_MS + 1) }))
        .where('token_hash', '=', hashToken(older))
        .execute();
      const newer = await requestReset(email, 2);
      expect(newer).not.toBe(older);

      const used = await new Client(t.app).post('/auth/reset-password', {
        token: newer,
        password: 'brand new password',
      });
      expect(used.statusCode).toBe(200);
      const stale = await new Client(t.app).post('/auth/reset-password', {
        token: older,
        password: 'attacker password',
      });
      expect(stale.statusCode).toBe(400);
      expect(stale.json()).toEqual({ message: MESSAGES.resetTokenInvalid });
      expect(
        (await new Client(t.app).post('/auth/signin', { email, password: 'brand new password' })).statusCode,
      ).toBe(200);
    });

    it('resets the password once, ends the other sessions and refuses the used token', async () => {
      const { client: oldBrowser, email, password } = await signedUp();
      const token = await requestReset(email);
      const stored = await t.db.selectFrom('password_resets').select('token_hash').execute();
      expect(stored.map((r) => r.token_hash)).toContain(hashToken(token));
      expect(stored.map((r) => r.token_hash)).not.toContain(token);

      const res = await new Client(t.app).post('/auth/reset-password', {
        token,
        password: 'brand new password',
      });
      expect(res.statusCode).toBe(200);
      expect((await oldBrowser.get('/signin-status/')).json()).toEqual({ status: false });

      const reused = await new Client(t.app).post('/auth/reset-password', {
        token,
        password: 'another password',
      });
      expect(reused.statusCode).toBe(400);
      expect(reused.json()).toEqual({ message: MESSAGES.resetTokenInvalid });

      expect((await new Client(t.app).post('/auth/signin', { email, password })).statusCode).toBe(401);
      expect(
        (await new Client(t.app).post('/auth/signin', { email, password: 'brand new password' })).statusCode,
      ).toBe(200);
    });

    it('refuses an expired token', async () => {
      const { email } = await signedUp();
      const token = await requestReset(email);
      await t.db
        .updateTable('password_resets')
        .set({ expires_at: Date.now() - 1 })
        .where('token_hash', '=', hashToken(token))
        .execute();
      const res = await new Client(t.app).post('/auth/reset-password', {
        token,
        password: 'brand new password',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: MESSAGES.resetTokenInvalid });
    });

    it('gives links valid for one hour', async () => {
      const { email } = await signedUp();
      const before = Date.now();
      const token = await requestReset(email);
      const row = await t.db
        .selectFrom('password_resets')
        .select(['expires_at', 'created_at'])
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirstOrThrow();
      expect(row.expires_at - row.created_at).toBe(RESET_TTL_MS);
      expect(row.created_at).toBeGreaterThanOrEqual(before);
    });

    it.each([
      [{ token: 'made-up-token', password: 'long enough' }, MESSAGES.resetTokenInvalid],
      [{ token: '', password: 'long enough' }, MESSAGES.resetTokenInvalid],
      [{ token: 'x', password: 'short' }, MESSAGES.passwordTooShort],
    ])('answers 400 for %j', async (body, message) => {
      const res = await new Client(t.app).post('/auth/reset-password', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    });
  });

  describe('settings, status and account deletion', () => {
    it('keeps both alerts on by default and saves changes', async () => {
      const { client } = await signedUp();
      expect((await client.get('/get-settings')).json()).toEqual({
        alertManualUnsubscribe: true,
        alertAfterUnsubscribe: true,
        autoBlockStillSending: false,
        weeklyReport: false,
      });
      const put = await client.put('/update-settings', {
        alertManualUnsubscribe: false,
        alertAfterUnsubscribe: true,
      });
      expect(put.statusCode).toBe(200);
      expect((await client.get('/get-settings')).json()).toEqual({
        alertManualUnsubscribe: false,
        alertAfterUnsubscribe: true,
        autoBlockStillSending: false,
        weeklyReport: false,
      });
    });

    it('saves the auto-block setting, and keeps it when an older client leaves it out', async () => {
      const { client } = await signedUp();
      const on = {
        alertManualUnsubscribe: true,
        alertAfterUnsubscribe: true,
        autoBlockStillSending: true,
        weeklyReport: false,
      };
      expect((await client.put('/update-settings', on)).json()).toEqual(on);
      await client.put('/update-settings', { alertManualUnsubscribe: false, alertAfterUnsubscribe: true });
      expect((await client.get('/get-settings')).json()).toEqual({ ...on, alertManualUnsubscribe: false });
      const bad = await client.put('/update-settings', { ...on, autoBlockStillSending: 'yes' });
      expect(bad.statusCode).toBe(400);
    });

    it('refuses settings that are not booleans', async () => {
      const { client } = await signedUp();
      const res = await client.put('/update-settings', {
        alertManualUnsubscribe: 'no',
        alertAfterUnsubscribe: true,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('alertManualUnsubscribe');
    });

    it.each(['/get-settings', '/subscription-status/'])(
      'answers 403 to %s without a session',
      async (url) => {
        const res = await new Client(t.app).get(url);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: MESSAGES.notSignedIn });
      },
    );

    // The session is checked before the body: a signed-out call is refused whatever it sent.
    it.each([
      ['PUT', '/update-settings', { alertManualUnsubscribe: 'no' }],
      ['POST', '/unsubscribe', {}],
      ['POST', '/auth/yahoo', { email: 'not-an-email' }],
    ] as const)(
      'answers 403 to %s %s without a session, even with a body it would refuse',
      async (method, url, payload) => {
        const res = await new Client(t.app).request({ method, url, payload });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: MESSAGES.notSignedIn });
      },
    );

    it('reports every feature available when the server sells no plans (billing off)', async () => {
      // With billing on, a new account has no active subscription (test/features/billing/billing.int.test.ts).
      const { client } = await signedUp();
      expect((await client.get('/subscription-status/')).json()).toEqual({ status: true });
    });

    it('deletes the account with every row that belongs to it, and nobody else', async () => {
      const other = await signedUp();
      const { client, email } = await signedUp();
      await new Client(t.app).post('/auth/forgot-password', { email });
      await vi.waitFor(async () =>
        expect((await readOutbox(t.dataDir)).filter((m) => m.to === email && isResetMail(m))).toHaveLength(1),
      );
      const user = await t.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      await t.db
        .insertInto('mailboxes')
        .values({
          id: `mb-${user.id}`,
          user_id: user.id,
          email,
          provider: 'imap',
          secret: 'sealed',
          created_at: Date.now(),
        })
        .execute();

      const res = await client.delete('/delete-account');
      expect(res.statusCode).toBe(200);
      for (const table of ['sessions', 'password_resets', 'mailboxes'] as const) {
        const rows = await t.db.selectFrom(table).select('user_id').where('user_id', '=', user.id).execute();
        expect(rows, table).toHaveLength(0);
      }
      expect(await t.db.selectFrom('users').select('id').where('id', '=', user.id).execute()).toHaveLength(0);
      expect((await client.get('/signin-status/')).json()).toEqual({ status: false });
      expect((await other.client.get('/signin-status/')).json()).toEqual({ status: true });
    });
  });

  describe('POST /send-email', () => {
    it('forwards the contact form to SUPPORT_EMAIL with the visitor as Reply-To', async () => {
      const subject = `Question ${uniqueEmail()}`;
      const res = await new Client(t.app).post('/send-email', {
        from: 'Ada <ada@example.com>',
        subject,
        text: 'Hello!',
      });
      expect(res.statusCode).toBe(200);
      const mail = (await readOutbox(t.dataDir)).find((m) => m.subject === `[Contact] ${subject}`);
      expect(mail?.to).toBe(t.config.supportEmail);
      expect(mail?.replyTo).toMatch(/^"?Ada"? <ada@example\.com>$/);
      expect(mail?.text).toContain('Hello!');
    });

    it.each([
      { from: 'Ada <ada-at-example.com>', subject: 's', text: 't' },
      { from: 'ada@example.com', subject: ' ', text: 't' },
      { from: 'ada@example.com', subject: 's', text: '' },
      { subject: 's', text: 't' },
    ])('answers 400 for an incomplete form %j', async (body) => {
      const res = await new Client(t.app).post('/send-email', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: MESSAGES.contactIncomplete });
    });
  });
});

describe.each(DIALECTS)('the reset mail on %s', (dialect) => {
  async function signUp(app: TestApp): Promise<string> {
    const email = uniqueEmail();
    expect(
      (await new Client(app.app).post('/auth/signup', { email, password: 'long enough' })).statusCode,
    ).toBe(200);
    return email;
  }

  it('is sent after the answer: a mailer that has not finished does not hold the answer back', async () => {
    const started: OutgoingMail[] = [];
    const sent: OutgoingMail[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Takes as long as the test wants: a mail is finished only once the gate opens.
    const slowMailer: Mailer = {
      target: 'a slow SMTP server',
      async send(mail) {
        // The sign-up's confirmation link is not what this test watches.
        if (!mail.subject.startsWith('Reset')) return;
        started.push(mail);
        await gate;
        sent.push(mail);
      },
    };
    const t = await createTestApp(dialect, {}, () => ({ mailer: slowMailer }));
    try {
      const email = await signUp(t);
      const answer = await Promise.race([
        new Client(t.app).post('/auth/forgot-password', { email }),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
      ]);
      expect(answer?.statusCode).toBe(200);
      expect(sent).toEqual([]);
      await vi.waitFor(() => expect(started.map((m) => m.to)).toEqual([email]));
      release();
      await vi.waitFor(() => expect(sent.map((m) => m.to)).toEqual([email]));
      expect(sent[0]!.text).toContain('http://localhost:3000/reset-password/confirm?token=');
    } finally {
      release();
      await t.close();
    }
  });

  it('goes out once per address within the cooldown, however often it is asked for', async () => {
    const t = await createTestApp(dialect);
    try {
      const email = await signUp(t);
      const other = await signUp(t);
      const ask = (address: string) => new Client(t.app).post('/auth/forgot-password', { email: address });
      // A double click, then another request once the first mail is out: still one mail.
      const answers = await Promise.all([ask(email), ask(email)]);
      await vi.waitFor(async () =>
        expect((await readOutbox(t.dataDir)).filter((m) => m.to === email && isResetMail(m))).toHaveLength(1),
      );
      answers.push(await ask(email.toUpperCase()));
      answers.push(await ask(other));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      // Closing waits for the mails still being sent (the other address's proves it did).
      await t.app.close();
      const outbox = await readOutbox(t.dataDir);
      expect(outbox.filter((m) => m.to === email && isResetMail(m))).toHaveLength(1);
      expect(outbox.filter((m) => m.to === other && isResetMail(m))).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
