import { describe, expect, it } from 'vitest';
import type { HostLookup } from '#server/lib/address-policy.js';
import { MailConnectionError } from '../provider.js';
import { connectTarget, imapFlowOptions, MailHostForbiddenError, toMailError } from './connection.js';
import { smtpTransportOptions } from './send.js';

// Every connection to a mail server resolves its host at that moment, judges the addresses and
// connects to the judged one, keeping the name for TLS (SNI and the certificate check).

/** A resolver answering from a table, as DNS would at the time of the connect. */
function fakeDns(table: Record<string, string[]>): HostLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    const answer = table[host];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer;
  };
  return Object.assign(lookup, { asked });
}

describe('connectTarget', () => {
  it('answers the checked address and keeps the name for TLS', async () => {
    const lookup = fakeDns({ 'imap.mail.example': ['93.184.216.34'] });
    await expect(connectTarget({ host: 'imap.mail.example', port: 993 }, { lookup })).resolves.toEqual({
      addresses: ['93.184.216.34'],
      servername: 'imap.mail.example',
    });
  });

  it('resolves again at every connect: a name re-pointed at a private address is refused', async () => {
    const table: Record<string, string[]> = { 'imap.rebind.example': ['93.184.216.34'] };
    const lookup = fakeDns(table);
    await connectTarget({ host: 'imap.rebind.example', port: 993 }, { lookup });
    for (const address of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '::1']) {
      table['imap.rebind.example'] = ['93.184.216.34', address];
      const refused = await connectTarget({ host: 'imap.rebind.example', port: 993 }, { lookup }).catch(
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(MailHostForbiddenError);
      // Callers treat it as a server that cannot be reached (502, mailbox status error), never as a bug.
      expect(refused).toBeInstanceOf(MailConnectionError);
    }
    expect(lookup.asked).toHaveLength(5);
  });

  it('lets a host or address the operator allowed through', async () => {
    const lookup = fakeDns({ 'mail.lan': ['10.0.0.7'] });
    await expect(
      connectTarget({ host: 'mail.lan', port: 143 }, { lookup, allowedHosts: new Set(['mail.lan']) }),
    ).resolves.toEqual({ addresses: ['10.0.0.7'], servername: 'mail.lan' });
    await expect(
      connectTarget({ host: 'mail.lan', port: 143 }, { lookup, allowedHosts: new Set(['10.0.0.7']) }),
    ).resolves.toEqual({ addresses: ['10.0.0.7'], servername: 'mail.lan' });
  });

  it('sends no server name for an address literal', async () => {
    const lookup = fakeDns({});
    await expect(connectTarget({ host: '93.184.216.34', port: 993 }, { lookup })).resolves.toEqual({
      addresses: ['93.184.216.34'],
      servername: undefined,
    });
    expect(lookup.asked).toEqual([]);
  });

  it('reports a name that does not resolve as a server that cannot be reached', async () => {
    const failure = await connectTarget(
      { host: 'nowhere.example', port: 993 },
      { lookup: fakeDns({}) },
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MailConnectionError);
    expect(failure).not.toBeInstanceOf(MailHostForbiddenError);
    expect((failure as Error).message).toBe('Could not reach the mail server at nowhere.example:993.');
  });
});

describe('connect options', () => {
  it('ImapFlow connects to the address and presents the name', () => {
    const options = imapFlowOptions(
      { host: 'imap.mail.example', port: 993, secure: true, user: 'u@example.com', password: 'pw' },
      { address: '93.184.216.34', servername: 'imap.mail.example' },
    );
    expect(options).toMatchObject({
      host: '93.184.216.34',
      servername: 'imap.mail.example',
      port: 993,
      secure: true,
      auth: { user: 'u@example.com', pass: 'pw' },
    });
  });

  it('nodemailer connects to the address and presents the name (TLS and STARTTLS alike)', () => {
    const options = smtpTransportOptions(
      {
        smtp: { host: 'smtp.mail.example', port: 587, secure: false },
        user: 'u@example.com',
        password: 'pw',
      },
      { address: '93.184.216.34', servername: 'smtp.mail.example' },
    );
    expect(options).toMatchObject({
      host: '93.184.216.34',
      port: 587,
      secure: false,
      tls: { servername: 'smtp.mail.example' },
      auth: { user: 'u@example.com', pass: 'pw' },
    });
  });
});

describe('toMailError', () => {
  const at = { host: 'imap.example.com', port: 993 };

  it('says a command ImapFlow refused before sending it is our error, not the server’s', () => {
    const refused = Object.assign(new Error('Invalid sequence set value'), { code: 'InvalidSequenceSet' });
    const err = toMailError(refused, at, 'session');
    expect(err).not.toBeInstanceOf(MailConnectionError);
    expect(err.message).toMatch(/^Inbox Genie made an invalid request/);
    expect(err.message).toContain("an error on our side, not the server's");
    expect(err.message).toContain('Invalid sequence set value');
    expect(err.message).not.toMatch(/server at imap\.example\.com:993 failed/);
  });

  it('still reports a command the server answered NO or BAD as the server’s failure', () => {
    const no = Object.assign(new Error('Command failed'), {
      responseStatus: 'NO',
      responseText: 'Mailbox is locked',
      command: 'SELECT',
    });
    const err = toMailError(no, at, 'session');
    expect(err).toBeInstanceOf(MailConnectionError);
    expect(err.message).toBe('The mail server at imap.example.com:993 failed a command: Mailbox is locked');
  });
});
