import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImapProviderOptions } from '#server/mail/imap/adapter.js';
import { MailAuthError, MailConnectionError, type MailProvider } from '#server/mail/provider.js';
import { withDovecot } from '#test/fixtures/peers.js';
import { newImapUser } from '#test/helpers/imap-user.js';

// verify() against a real Dovecot. A file of its own: after a refused login Dovecot delays every later
// login from 127.0.0.1 by seconds, which would slow the scan tests down.

const dovecot = withDovecot();
const servers: Server[] = [];
const providers: MailProvider[] = [];

afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function provider(label: string, overrides: Partial<ImapProviderOptions> = {}): Promise<MailProvider> {
  return (await newImapUser(dovecot, label, providers)).provider(overrides);
}

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as { port: number }).port;
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as Error,
  );

describe('verify', () => {
  it('logs in and out with the right app password', async () => {
    const p = await provider('verify');
    await expect(p.verify()).resolves.toBeUndefined();
    // verify() leaves nothing open, and the provider still works after it.
    expect((await p.listFolders()).map((f) => f.path)).toContain('INBOX');
  });

  it('answers MailConnectionError naming host and port when nothing listens there', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure((await provider('closed', { port })).verify());
    expect(err).toBeInstanceOf(MailConnectionError);
    expect(err?.message).toBe(`Could not reach the mail server at 127.0.0.1:${port}.`);
  });

  it('answers MailConnectionError for a host name that does not resolve', async () => {
    const err = await failure((await provider('dns', { host: 'imap.does-not-exist.invalid' })).verify());
    expect(err).toBeInstanceOf(MailConnectionError);
    expect(err?.message).toBe(
      `Could not reach the mail server at imap.does-not-exist.invalid:${dovecot.port}.`,
    );
  });

  it('answers MailConnectionError when TLS is expected but the server speaks plain IMAP', async () => {
    const err = await failure((await provider('tls', { secure: true })).verify());
    expect(err).toBeInstanceOf(MailConnectionError);
    expect(err?.message).toMatch(/^Could not reach the mail server at 127\.0\.0\.1:\d+/);
  });

  it('gives up on a server that accepts the connection but never greets', async () => {
    const port = await listen(createServer(() => {}));
    const started = Date.now();
    const err = await failure((await provider('silent', { port, timeouts: { greeting: 300 } })).verify());
    expect(err).toBeInstanceOf(MailConnectionError);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  // Last: the refusal earns 127.0.0.1 a login penalty in this Dovecot.
  it('answers MailAuthError with a message for the user when the password is wrong', async () => {
    const p = await provider('wrongpw', { password: 'not-the-password' });
    const err = await failure(p.verify());
    expect(err).toBeInstanceOf(MailAuthError);
    expect(err?.message).toBe('The mail server refused the email address or app password.');
    // Scans report the same error, so a revoked app password marks the mailbox for re-authentication.
    const scanErr = await failure(
      (async () => {
        for await (const _ of p.scan(null)) break;
      })(),
    );
    expect(scanErr).toBeInstanceOf(MailAuthError);
  });
});
