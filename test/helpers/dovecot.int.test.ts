import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dovecot, startDovecot } from '#test/helpers/dovecot.js';

// The test peer itself: if these fail, every IMAP test after them would fail for the wrong reason.
describe('the test Dovecot', () => {
  let dovecot: Dovecot;
  beforeAll(async () => {
    dovecot = await startDovecot([{ user: 'alice@example.com', password: 'app-password' }]);
  });
  afterAll(async () => {
    await dovecot?.stop();
  });

  function client(pass = 'app-password') {
    return new ImapFlow({
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      auth: { user: 'alice@example.com', pass },
      logger: false,
    });
  }

  it('logs in, lists special-use folders and reads delivered mail', async () => {
    await dovecot.deliver('alice@example.com', 'INBOX', 'From: a@b.c\r\nSubject: hi\r\n\r\nbody\r\n');
    await dovecot.deliver(
      'alice@example.com',
      'Newsletters/Tech',
      'From: n@b.c\r\nSubject: news\r\n\r\nbody\r\n',
    );
    const imap = client();
    await imap.connect();
    const folders = await imap.list();
    const byUse = Object.fromEntries(folders.filter((f) => f.specialUse).map((f) => [f.specialUse, f.path]));
    expect(byUse).toMatchObject({
      '\\Trash': 'Trash',
      '\\Junk': 'Junk',
      '\\Sent': 'Sent',
      '\\Drafts': 'Drafts',
    });
    expect(folders.map((f) => f.path)).toContain('Newsletters/Tech');
    const status = await imap.status('Newsletters/Tech', { messages: true });
    expect(status ? status.messages : 0).toBe(1);
    const lock = await imap.getMailboxLock('INBOX');
    const subjects: string[] = [];
    for await (const m of imap.fetch('1:*', { envelope: true })) subjects.push(m.envelope?.subject ?? '');
    lock.release();
    expect(subjects).toEqual(['hi']);
    expect(imap.capabilities.has('CONDSTORE')).toBe(true);
    expect(imap.capabilities.has('MOVE')).toBe(true);
    await imap.logout();
  });

  it('refuses a wrong password', async () => {
    const imap = client('wrong');
    await expect(imap.connect()).rejects.toMatchObject({ authenticationFailed: true });
  });
});
