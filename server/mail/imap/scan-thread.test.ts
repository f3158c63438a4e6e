import { describe, expect, it } from 'vitest';
import { MailAuthError, MailConnectionError } from '../provider.js';
import { MailHostForbiddenError } from './connection.js';
import { fromWire, toWire } from './scan-thread.js';

// A scan's failure crosses from its worker thread as plain data; the scans service decides by class
// (MailAuthError: the mailbox needs re-authentication; anything else: retried later).
describe('scan thread errors', () => {
  it('keeps the port errors by class and message', () => {
    const auth = fromWire(
      toWire(new MailAuthError('The mail server refused the email address or app password.')),
    );
    expect(auth).toBeInstanceOf(MailAuthError);
    expect(auth.message).toBe('The mail server refused the email address or app password.');
    const lost = fromWire(toWire(new MailConnectionError('The connection to the mail server was lost.')));
    expect(lost).toBeInstanceOf(MailConnectionError);
    expect(lost).not.toBeInstanceOf(MailAuthError);
    expect(lost.message).toBe('The connection to the mail server was lost.');
    // A subclass travels as its port error: the worker never resolves hosts, so this one is only a check.
    expect(fromWire(toWire(new MailHostForbiddenError('private')))).toBeInstanceOf(MailConnectionError);
  });

  it('keeps the message and code of anything else, and never makes it a port error', () => {
    const other = fromWire(
      toWire(Object.assign(new Error('Connection lost during UID FETCH'), { code: 'EConnectionClosed' })),
    );
    expect(other).not.toBeInstanceOf(MailConnectionError);
    expect(other.message).toBe('Connection lost during UID FETCH');
    expect((other as { code?: string }).code).toBe('EConnectionClosed');
    expect(fromWire(toWire('a string'))).toMatchObject({ message: 'a string' });
    expect(
      (fromWire(toWire(Object.assign(new Error('x'), { code: 42 }))) as { code?: unknown }).code,
    ).toBeUndefined();
  });
});
