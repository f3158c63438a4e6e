import { describe, expect, it } from 'vitest';
import {
  MAILTO_BODY_MAX,
  MAILTO_DEFAULT_BODY,
  MAILTO_MAX_LENGTH,
  MAILTO_SUBJECT_MAX,
  parseMailto,
} from './mailto.js';

const ok = (uri: string) => {
  const parsed = parseMailto(uri);
  if (!parsed.ok) throw new Error(`refused ${uri.slice(0, 80)}: ${parsed.reason}`);
  return parsed.request;
};
const refused = (uri: string) => expect(parseMailto(uri).ok, uri).toBe(false);

describe('parseMailto: one recipient, chosen by the path only', () => {
  it('reads the address, subject and a plain body', () => {
    expect(ok('mailto:leave-123@lists.example.com?subject=unsubscribe%20me&body=unsubscribe%20news')).toEqual(
      {
        to: 'leave-123@lists.example.com',
        subject: 'unsubscribe me',
        body: 'unsubscribe news',
      },
    );
  });

  it('ignores to=, cc= and bcc= and sends the sender text nowhere else', () => {
    const r = ok(
      'mailto:unsub@a.example?to=x@victim.example,y@victim.example&cc=z@victim.example&bcc=w@v.example&body=BUY%20NOW',
    );
    expect(r.to).toBe('unsub@a.example');
    expect(JSON.stringify(r)).not.toContain('victim');
  });

  it('uses only the first address of a comma list; 2,000 recipients are refused outright', () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `r${i}@spam.example`).join(',');
    expect(ok(`mailto:${list(100)}`).to).toBe('r0@spam.example');
    refused(`mailto:${list(2000)}`);
  });

  it('refuses an address that decodes to CR/LF, a comma, a group or a display name', () => {
    refused('mailto:unsub@a.example%0d%0aBcc:%20x@victim.example');
    refused('mailto:unsub@a.example%0aBcc:x@victim.example');
    refused('mailto:unsub@a.example%2cx@victim.example');
    refused('mailto:friends:x@victim.example,y@victim.example;');
    refused('mailto:Name%20%3cunsub@a.example%3e');
    refused('mailto:%22quoted%20local%22@a.example');
    refused('mailto:unsub@a.example%00');
  });

  it('refuses links with no usable address', () => {
    refused('mailto:');
    refused('mailto:?to=x@victim.example');
    refused('mailto:no-at-sign');
    refused('mailto:user@localhost');
    refused('mailto:user@[127.0.0.1]');
    refused('mailto:user@10.0.0.1');
    refused('mailto:user@bad_host.example');
    refused('mailto:%E0%A4%A@a.example');
    refused('https://a.example/u');
    refused(`mailto:${'a'.repeat(MAILTO_MAX_LENGTH)}@a.example`);
  });

  it('keeps the local part exactly (tokens are case-sensitive) and lowercases the domain', () => {
    expect(ok('mailto:Leave-AbC+123@Lists.Example.COM').to).toBe('Leave-AbC+123@lists.example.com');
  });
});

describe('parseMailto: subject and body', () => {
  it('gives a default subject and body', () => {
    expect(ok('mailto:u@a.example')).toMatchObject({ subject: 'unsubscribe', body: MAILTO_DEFAULT_BODY });
    expect(ok('mailto:u@a.example?subject=&body=')).toMatchObject({
      subject: 'unsubscribe',
      body: MAILTO_DEFAULT_BODY,
    });
  });

  it('keeps the subject on one line, without controls or bidi overrides, capped', () => {
    expect(ok('mailto:u@a.example?subject=a%0d%0aBcc:%20x@v.example').subject).toBe('a Bcc: x@v.example');
    expect(ok('mailto:u@a.example?subject=%E2%80%AEevil').subject).toBe('evil');
    expect(Array.from(ok(`mailto:u@a.example?subject=${'é'.repeat(500)}`).subject)).toHaveLength(
      MAILTO_SUBJECT_MAX,
    );
  });

  it('sends the fixed body instead of a long one or one with links', () => {
    expect(ok(`mailto:u@a.example?body=${'x'.repeat(MAILTO_BODY_MAX + 1)}`).body).toBe(MAILTO_DEFAULT_BODY);
    expect(ok('mailto:u@a.example?body=BUY%20NOW%20https://pills.example').body).toBe(MAILTO_DEFAULT_BODY);
    expect(ok('mailto:u@a.example?body=visit%20www.pills').body).toBe(MAILTO_DEFAULT_BODY);
    expect(ok('mailto:u@a.example?body=cheap-pills.com%20now').body).toBe(MAILTO_DEFAULT_BODY);
    expect(ok('mailto:u@a.example?body=unsubscribe%20linux-kernel').body).toBe('unsubscribe linux-kernel');
    expect(ok('mailto:u@a.example?body=line%0d%0aline').body).toBe('line\nline');
  });

  it('takes the first subject and body, whatever the case of their names', () => {
    expect(ok('mailto:u@a.example?SUBJECT=one&subject=two&Body=first&body=second')).toMatchObject({
      subject: 'one',
      body: 'first',
    });
  });
});

describe('parseMailto: real list addresses', () => {
  it('reads recipient, subject and body with percent-decoding', () => {
    expect(ok('mailto:Majordomo@example.org?body=unsubscribe%20cert-advisory')).toEqual({
      to: 'Majordomo@example.org',
      subject: 'unsubscribe',
      body: 'unsubscribe cert-advisory',
    });
    expect(ok('mailto:news@example.com?subject=unsubscribe%20params%3Db0%2B1&body=bye')).toMatchObject({
      subject: 'unsubscribe params=b0+1',
      body: 'bye',
    });
  });

  it('keeps + and = in the address and treats field names case-insensitively', () => {
    expect(ok('MAILTO:gcc-help-unsubscribe-x.klub=gmail.com@gcc.example?SUBJECT=Bye')).toMatchObject({
      to: 'gcc-help-unsubscribe-x.klub=gmail.com@gcc.example',
      subject: 'Bye',
    });
    expect(ok('mailto:list+unsubscribe@example.com').to).toBe('list+unsubscribe@example.com');
  });

  it('survives escapes in the subject that are not UTF-8', () => {
    expect(ok('mailto:u@example.com?subject=Caf%E9%20ok').subject).toBe('Caf\uFFFD ok');
  });
});
