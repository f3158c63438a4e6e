import { randomBytes, randomUUID } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { describe, expect, it, vi } from 'vitest';
import { SECURITY_MESSAGES } from '#contract/api/security.js';
import { MESSAGES } from '#contract/validation.js';
import { withTestApp } from '#test/fixtures/app.js';
import { BOTH_OUTLOOK_CALLBACK, bothSignInEnv, throughProvider } from '#test/fixtures/oauth.js';
import { withGoogleEmulator, withGraphFake } from '#test/fixtures/peers.js';
import { Client, DIALECTS, readOutbox, uniqueEmail } from '#test/helpers/app.js';

// The ways around the pre-registration fix (docs/decisions/090-accounts-that-stay-their-owners.md), each
// performed as the attacker would: someone signs up with the victim's address first, tries to get it
// marked proven, and waits for the victim to sign in with Google into the account they control.

const emu = withGoogleEmulator();
const fake = withGraphFake({ redirectUris: [BOTH_OUTLOOK_CALLBACK] });

describe.each(DIALECTS)('paths into an account its owner has not claimed yet, on %s', (dialect) => {
  const t = withTestApp(dialect, () => bothSignInEnv(emu, fake));

  /** The victim's Gmail address, known to the Google emulator. */
  async function victimAddress(label: string): Promise<string> {
    const email = `${label}-${randomBytes(4).toString('hex')}@gmail.test`;
    await emu.addUser(email);
    return email;
  }

  const oauth = (client: Client, provider: 'google' | 'outlook', intent: string, email: string) =>
    throughProvider({ emu, fake }, client, provider, intent, email);

  async function attackerSignsUp(email: string): Promise<Client> {
    const attacker = new Client(t.app);
    expect((await attacker.post('/auth/signup', { email, password: 'attacker pass' })).statusCode).toBe(200);
    return attacker;
  }

  const proven = async (client: Client) => (await client.call('GET /auth/email-verification')).emailVerified;

  /** The victim signs in with Google: the account must be taken from its maker. */
  async function victimSignsInWithGoogle(email: string, attacker: Client): Promise<void> {
    const victim = new Client(t.app);
    const done = await oauth(victim, 'google', 'signin', email);
    expect(done.headers.location).toBe('/genie/subscriptions?account=secured');
    expect((await attacker.get('/signin-status/')).json()).toEqual({ status: false });
    const again = await new Client(t.app).post('/auth/signin', { email, password: 'attacker pass' });
    expect(again.statusCode).toBe(401);
    await t.app.jobs.idle();
  }

  it("does not count a Microsoft work tenant's unverified email claim as proof, on the add intent either", async () => {
    const email = await victimAddress('ntenant');
    const attacker = await attackerSignsUp(email);
    // A tenant the attacker owns says its user's email is the victim's address (no xms_edov).
    fake.addUser(email, { tenantId: randomUUID() });
    const added = await oauth(attacker, 'outlook', 'add', email);
    expect(added.headers.location).toBe('/genie/subscriptions');
    expect(await proven(attacker)).toBe(false);
    const [mailbox] = await t.db
      .selectFrom('mailboxes')
      .select(['address_proven'])
      .where('email', '=', email)
      .execute();
    expect(Number(mailbox!.address_proven)).toBe(0);
    expect((await attacker.delete('/delete-email-account', { email })).statusCode).toBe(200);
    expect(await proven(attacker)).toBe(false);
    await t.app.jobs.idle();
    await victimSignsInWithGoogle(email, attacker);
  });

  it('changes nothing when the confirmation link is fetched (GET, HEAD), and needs the password to confirm', async () => {
    const email = await victimAddress('scanner');
    const attacker = await attackerSignsUp(email);
    const token = await vi.waitFor(async () => {
      const mail = (await readOutbox(t.dataDir)).find((m) => m.to === email && /Confirm/.test(m.subject));
      const match = mail && /\/confirm-email\?token=([\w%-]+)/.exec(mail.text);
      if (!match) throw new Error('no confirmation mail yet');
      return decodeURIComponent(match[1]!);
    });
    // A mail scanner, Safe Links or a link preview fetches the link, by both methods.
    const scanner = new Client(t.app);
    for (const method of ['GET', 'HEAD'] as const) {
      const fetched = await scanner.request({ method, url: `/auth/verify-email?token=${token}` });
      expect(fetched.statusCode).toBe(302);
      expect(fetched.headers.location).toBe(`/confirm-email?token=${token}`);
    }
    expect(await proven(attacker)).toBe(false);
    // The victim clicks Confirm on a mail they never asked for: no session of the account, no password.
    const victimBrowser = new Client(t.app);
    const clicked = await victimBrowser.post('/auth/verify-email', { token });
    expect(clicked.statusCode).toBe(403);
    expect(clicked.json()).toEqual({ message: SECURITY_MESSAGES.confirmNeedsPassword });
    const guessed = await victimBrowser.post('/auth/verify-email', { token, password: 'a guess' });
    expect(guessed.statusCode).toBe(401);
    expect(await proven(attacker)).toBe(false);
    await victimSignsInWithGoogle(email, attacker);
    // The takeover spent the link with everything else of the account.
    expect((await attacker.post('/auth/verify-email', { token })).statusCode).toBe(400);
  });

  it("removes the maker's second factor at the takeover, so the owner is not asked for the maker's code", async () => {
    const email = await victimAddress('twostep');
    const attacker = await attackerSignsUp(email);
    const { secret } = (await attacker.post('/auth/totp/setup')).json();
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
    expect((await attacker.post('/auth/totp/enable', { code })).statusCode).toBe(200);
    await victimSignsInWithGoogle(email, attacker);
    const status = await t.db.selectFrom('users').select('totp_secret').where('email', '=', email).execute();
    expect(status).toEqual([{ totp_secret: null }]);
  });

  it('stops a Microsoft sign-in into an account with two-step sign-in at the second step', async () => {
    const email = `twostep-${randomBytes(4).toString('hex')}@outlook.test`;
    fake.addUser(email);
    const owner = new Client(t.app);
    expect((await oauth(owner, 'outlook', 'signup', email)).headers.location).toBe('/genie/subscriptions');
    const { secret } = (await owner.post('/auth/totp/setup')).json();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
    expect((await owner.post('/auth/totp/enable', { code: totp.generate() })).statusCode).toBe(200);
    await t.app.jobs.idle();
    const browser = new Client(t.app);
    expect((await oauth(browser, 'outlook', 'signin', email)).headers.location).toBe('/signin/code');
    expect((await browser.get('/signin-status/')).json()).toEqual({ status: false });
    const code = totp.generate({ timestamp: Date.now() + 30_000 });
    expect((await browser.post('/auth/signin/totp', { code })).statusCode).toBe(200);
    expect((await browser.get('/signin-status/')).json()).toEqual({ status: true });
  });

  it('counts 30 concurrent wrong passwords for one address before checking any: 5 are checked', async () => {
    const email = uniqueEmail('raced');
    expect(
      (await new Client(t.app).post('/auth/signup', { email, password: 'right password' })).statusCode,
    ).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        new Client(t.app).post('/auth/signin', { email, password: 'wrong password' }),
      ),
    );
    const counts = answers.reduce<Record<number, number>>((c, a) => {
      c[a.statusCode] = (c[a.statusCode] ?? 0) + 1;
      return c;
    }, {});
    expect(counts).toEqual({ 401: 5, 429: 25 });
    const locked = answers.find((a) => a.statusCode === 429)!;
    expect(locked.json()).toEqual({ message: MESSAGES.tooManySignins });
  });

  it('mails one address at most 3 times an hour however many sign-ups name it, and limits Resend per IP', async () => {
    const email = uniqueEmail('bombed');
    const first = new Client(t.app);
    expect((await first.post('/auth/signup', { email, password: 'owner password' })).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) {
      const again = await new Client(t.app).post('/auth/signup', { email, password: `guess number ${i}` });
      expect(again.statusCode).toBe(200);
    }
    // Two Resends, each past the link's own one-minute cooldown (moved into the past here): the budget,
    // not the cooldown, is what holds them back.
    for (let i = 0; i < 2; i++) {
      await t.db.updateTable('email_verifications').set({ created_at: 0 }).execute();
      expect((await first.post('/auth/email-verification')).statusCode).toBe(200);
      // A mail still being sent takes the next Resend with it: let it go first.
      await new Promise((r) => setTimeout(r, 300));
    }
    await t.app.ready();
    // Mails are sent after the answers: wait until the queue is quiet, then count.
    await vi.waitFor(async () => {
      const mails = (await readOutbox(t.dataDir)).filter((m) => m.to === email);
      expect(mails.length).toBeGreaterThanOrEqual(3);
    });
    await new Promise((r) => setTimeout(r, 300));
    const mails = (await readOutbox(t.dataDir)).filter((m) => m.to === email);
    expect(mails).toHaveLength(3);
  });
});

describe('Resend of the confirmation link, per IP', () => {
  const t = withTestApp('sqlite', () => ({ AUTH_RATE_LIMIT: '3/1m' }));

  it('answers 429 once the IP used its calls', async () => {
    const client = new Client(t.app);
    const email = uniqueEmail('resend');
    expect((await client.post('/auth/signup', { email, password: 'long enough' })).statusCode).toBe(200);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await client.post('/auth/email-verification')).statusCode);
    expect(answers).toEqual([200, 200, 200, 429]);
  });
});
