import { describe, expect, it } from 'vitest';
import { withTestApp, yahooOnDovecot } from '#test/fixtures/app.js';
import { withDovecot } from '#test/fixtures/peers.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';

// A mailbox that logs in proves the account's address when it is that address at the provider's own
// server; a server the user typed proves nothing (anyone can run one that takes any password).

const dovecot = withDovecot();

describe.each(DIALECTS)('proving the address with a mailbox on %s', (dialect) => {
  // Yahoo and AOL at their presets (pointed at this Dovecot), Proton Mail Bridge's preset on it too.
  const t = withTestApp(dialect, () => {
    const at = { host: '127.0.0.1', port: dovecot.port, secure: false };
    return {
      ...yahooOnDovecot(dovecot),
      MAIL_PROVIDER_OVERRIDES: JSON.stringify({
        yahoo: { imap: at },
        aol: { imap: at },
        protonmail: { imap: at },
      }),
    };
  });

  async function signedUpAs(email: string): Promise<Client> {
    const client = new Client(t.app);
    expect((await client.post('/auth/signup', { email, password: 'long enough' })).statusCode).toBe(200);
    expect((await client.get('/auth/email-verification')).json().emailVerified).toBe(false);
    return client;
  }

  it("counts a Yahoo mailbox at the account's own address, not another one", async () => {
    const own = uniqueEmail('own').replace('@example.com', '@yahoo.com');
    const other = uniqueEmail('other').replace('@example.com', '@yahoo.com');
    for (const user of [own, other]) await dovecot.addUser({ user, password: 'app password' });
    const client = await signedUpAs(own);
    expect((await client.post('/auth/yahoo', { email: other, appPassword: 'app password' })).statusCode).toBe(
      200,
    );
    expect((await client.get('/auth/email-verification')).json().emailVerified).toBe(false);
    expect((await client.post('/auth/yahoo', { email: own, appPassword: 'app password' })).statusCode).toBe(
      200,
    );
    expect((await client.get('/auth/email-verification')).json().emailVerified).toBe(true);
    await t.app.jobs.idle();
  });

  it('does not count a login at an IMAP server the user typed', async () => {
    const email = uniqueEmail('typed');
    await dovecot.addUser({ user: email, password: 'app password' });
    const client = await signedUpAs(email);
    const added = await client.post('/auth/imap', {
      email,
      appPassword: 'app password',
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
    });
    expect(added.statusCode).toBe(200);
    expect((await client.get('/auth/email-verification')).json().emailVerified).toBe(false);
    await t.app.jobs.idle();
  });

  it("does not count an AOL or Proton Mail login for an address outside the provider's own domains", async () => {
    // Someone else's Gmail address, accepted by a server that takes any account (as Bridge does for
    // whatever its operator signed in with, or a preset pointed at a server that is not the provider's).
    const victim = uniqueEmail('victim').replace('@example.com', '@gmail.com');
    await dovecot.addUser({ user: victim, password: 'app password' });
    const client = await signedUpAs(victim);
    for (const provider of ['aol', 'protonmail']) {
      const added = await client.post(`/auth/${provider}`, { email: victim, appPassword: 'app password' });
      expect(added.statusCode).toBe(200);
      expect((await client.get('/auth/email-verification')).json().emailVerified).toBe(false);
    }
    const rows = await t.db
      .selectFrom('mailboxes')
      .select('address_proven')
      .where('email', '=', victim)
      .execute();
    expect(rows.map((r) => Number(r.address_proven))).toEqual([0]);
    await t.app.jobs.idle();
  });

  it("counts an AOL login at AOL's own server for an aol.com address, and never Proton Mail Bridge", async () => {
    const own = uniqueEmail('own').replace('@example.com', '@aol.com');
    const proton = uniqueEmail('bridge').replace('@example.com', '@proton.me');
    for (const user of [own, proton]) await dovecot.addUser({ user, password: 'app password' });
    const bridgeUser = await signedUpAs(proton);
    expect(
      (await bridgeUser.post('/auth/protonmail', { email: proton, appPassword: 'app password' })).statusCode,
    ).toBe(200);
    expect((await bridgeUser.get('/auth/email-verification')).json().emailVerified).toBe(false);
    const aolUser = await signedUpAs(own);
    expect((await aolUser.post('/auth/aol', { email: own, appPassword: 'app password' })).statusCode).toBe(
      200,
    );
    expect((await aolUser.get('/auth/email-verification')).json().emailVerified).toBe(true);
    await t.app.jobs.idle();
  });
});
