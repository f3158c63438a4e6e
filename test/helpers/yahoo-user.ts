import { expect } from 'vitest';
import { Client, createTestApp, type Dialect, type TestApp, uniqueEmail } from './app.js';
import type { Dovecot } from './dovecot.js';
import { type SmtpPeer, startSmtpPeer } from './smtp-peer.js';

// A signed-up user whose Yahoo mailbox (IMAP on the file's Dovecot, SMTP on its own local peer) holds
// `messages` and has been connected and scanned through the API, on a fresh app.

export interface YahooUser {
  t: TestApp;
  client: Client;
  smtp: SmtpPeer;
  email: string;
  password: string;
  /** Closes the app and the SMTP peer. */
  close(): Promise<void>;
}

export async function yahooUser(
  dovecot: Dovecot,
  dialect: Dialect,
  messages: string[],
  env: Record<string, string> = {},
): Promise<YahooUser> {
  const email = uniqueEmail('yahoo').replace('@example.com', '@yahoo.com');
  const password = 'app password';
  await dovecot.addUser({ user: email, password });
  for (const m of messages) await dovecot.deliver(email, 'INBOX', m);
  const smtp = await startSmtpPeer({ user: email, password });
  const t = await createTestApp(dialect, {
    MAIL_PROVIDER_OVERRIDES: dovecot.yahooOverrides(smtp.port),
    SCAN_INTERVAL: '1s',
    ...env,
  });
  const client = new Client(t.app);
  await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
  expect((await client.post('/auth/yahoo', { email, appPassword: password })).statusCode).toBe(200);
  await t.app.jobs.idle();
  return {
    t,
    client,
    smtp,
    email,
    password,
    async close() {
      await t.close();
      await smtp.stop();
    },
  };
}
