import { describe, expect, it } from 'vitest';
import { isHostname, MAX_AUTOCONFIG_BYTES, parseAutoconfig } from './autoconfig-xml.js';

const server = (type: string, hostname: string, port: string, socketType: string) =>
  `<incomingServer type="${type}"><hostname>${hostname}</hostname><port>${port}</port><socketType>${socketType}</socketType></incomingServer>`;
const file = (...servers: string[]) =>
  `<?xml version="1.0"?><clientConfig version="1.1"><emailProvider id="x">${servers.join('')}</emailProvider></clientConfig>`;

describe('parseAutoconfig', () => {
  it('takes the first IMAP server with SSL or STARTTLS, with %EMAILDOMAIN% filled in', () => {
    const xml = file(
      server('pop3', 'pop.example.org', '995', 'SSL'),
      server('imap', 'plain.example.org', '143', 'plain'),
      server('imap', 'IMAP.%EMAILDOMAIN%', '993', 'SSL'),
      server('imap', 'second.example.org', '143', 'STARTTLS'),
    );
    expect(parseAutoconfig(xml, 'example.org')).toEqual({
      host: 'imap.example.org',
      port: 993,
      secure: true,
    });
    expect(parseAutoconfig(file(server('imap', 'm.example.org', '143', 'STARTTLS')), 'x.org')).toEqual({
      host: 'm.example.org',
      port: 143,
      secure: false,
    });
  });

  it('answers null for no IMAP server, a bad host or port, a DTD, an unclosed element or an oversized file', () => {
    expect(parseAutoconfig(file(server('pop3', 'pop.example.org', '995', 'SSL')), 'example.org')).toBeNull();
    for (const [host, port] of [
      ['%EMAILLOCALPART%.example.org', '993'],
      ['bad host.example.org', '993'],
      ['imap.example.org', '0'],
      ['imap.example.org', '70000'],
      ['imap.example.org', '993abc'],
      ['localhost', '993'],
    ]) {
      expect(parseAutoconfig(file(server('imap', host!, port!, 'SSL')), 'example.org')).toBeNull();
    }
    const good = file(server('imap', 'imap.example.org', '993', 'SSL'));
    expect(parseAutoconfig(`<!DOCTYPE a [<!ENTITY e "x">]>${good}`, 'example.org')).toBeNull();
    expect(parseAutoconfig(good.replace('</incomingServer>', ''), 'example.org')).toBeNull();
    expect(parseAutoconfig(good + ' '.repeat(MAX_AUTOCONFIG_BYTES), 'example.org')).toBeNull();
  });

  it('reads a large hostile file in linear time', () => {
    const hostile = '<incomingServer type="imap">'.repeat(1000) + '<hostname>'.repeat(500);
    const started = performance.now();
    expect(parseAutoconfig(hostile, 'example.org')).toBeNull();
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe('isHostname', () => {
  it('accepts DNS names of two labels or more, nothing else', () => {
    expect(isHostname('imap.example.org')).toBe(true);
    expect(isHostname('a-b.example.test')).toBe(true);
    for (const bad of [
      'example',
      '-a.example.org',
      'a-.example.org',
      'a..example.org',
      'a_b.example.org',
      '',
    ]) {
      expect(isHostname(bad)).toBe(false);
    }
  });
});
