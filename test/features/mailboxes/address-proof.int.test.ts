import { describe, expect, it } from 'vitest';
import { withTestApp, yahooOnDovecot } from '#test/fixtures/app.js';
import { withDovecot } from '#test/fixtures/peers.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';

// A mailbox that logs in proves the account's address when it is that address at the provider's own
// server; a server the user typed proves nothing (anyone can run one that takes any password).

const dovecot = withDovecot();

describe.each(DIALECTS)('proving the address with a mailbox on %s', (dialect) => {
  const t = withTestApp(dialect, () => yahooOnDovecot(dovecot));

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
});
