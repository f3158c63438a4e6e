import { describe, expect, it } from 'vitest';
import { brandName, brandOf, listIdentifier, registrableDomain } from './brand.js';

describe('registrableDomain', () => {
  it('groups the subdomains of a name under a multi-label public suffix', () => {
    expect(registrableDomain('news.shop.co.uk')).toBe('shop.co.uk');
    expect(registrableDomain('offers.shop.co.uk')).toBe('shop.co.uk');
    expect(registrableDomain('Mail.Example.COM.')).toBe('example.com');
  });

  it('keeps the sites of a private public suffix apart', () => {
    expect(registrableDomain('alice.github.io')).toBe('alice.github.io');
    expect(registrableDomain('bob.github.io')).toBe('bob.github.io');
  });

  it('gives an IDN domain one brand whether written in Unicode or punycode', () => {
    expect(registrableDomain('news.bücher.example')).toBe('xn--bcher-kva.example');
    expect(registrableDomain('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    expect(registrableDomain('NEWS.BÜCHER.de')).toBe('xn--bcher-kva.de');
  });

  it('has none for IP addresses, bare names, suffixes alone and over-long input', () => {
    expect(registrableDomain('192.0.2.1')).toBeNull();
    expect(registrableDomain('localhost')).toBeNull();
    expect(registrableDomain('co.uk')).toBeNull();
    expect(registrableDomain('')).toBeNull();
    expect(registrableDomain(`${'a.'.repeat(200)}example.com`)).toBeNull();
  });
});

describe('listIdentifier', () => {
  it('reads the identifier inside the angle brackets, lower-cased', () => {
    expect(listIdentifier('Weekly news <Weekly.Shop.co.uk>')).toBe('weekly.shop.co.uk');
    expect(listIdentifier('<list.example.org>')).toBe('list.example.org');
    expect(listIdentifier('bare.example.org')).toBe('bare.example.org');
  });

  it('refuses values that are not a dotted identifier', () => {
    expect(listIdentifier(null)).toBeNull();
    expect(listIdentifier('<>')).toBeNull();
    expect(listIdentifier('<nodots>')).toBeNull();
    expect(listIdentifier('<a b.example>')).toBeNull();
    expect(listIdentifier(`<${'a'.repeat(300)}.example>`)).toBeNull();
    expect(listIdentifier(`${'<'.repeat(100_000)}x.example`)).toBeNull();
  });
});

describe('brandOf', () => {
  it('is the registrable domain of the address without a List-Id', () => {
    expect(brandOf('deals@offers.shop.co.uk', null)).toBe('shop.co.uk');
    expect(brandOf('me@alice.github.io', null)).toBe('alice.github.io');
  });

  it('follows the List-Id over the sending domain (a list sent through a provider)', () => {
    expect(brandOf('bounce-123@esp-mailer.example', 'weekly.shop.co.uk')).toBe('shop.co.uk');
  });

  it('falls back to the address when the List-Id has no registrable domain, and to the host as written', () => {
    expect(brandOf('news@shop.co.uk', 'co.uk')).toBe('shop.co.uk');
    expect(brandOf('root@LOCALHOST', null)).toBe('localhost');
  });
});

describe('brandName', () => {
  it('names a brand by the sender name used on the most messages', () => {
    expect(
      brandName([
        { senderName: 'NYT Cooking', messageCount: 3 },
        { senderName: 'The New York Times', messageCount: 10 },
        { senderName: 'The New York Times', messageCount: 2 },
        { senderName: '', messageCount: 50 },
      ]),
    ).toBe('The New York Times');
    // A tie in messages: more senders, then code-point order.
    expect(
      brandName([
        { senderName: 'B', messageCount: 2 },
        { senderName: 'A', messageCount: 1 },
        { senderName: 'A', messageCount: 1 },
      ]),
    ).toBe('A');
    expect(
      brandName([
        { senderName: 'Zed', messageCount: 1 },
        { senderName: 'Abe', messageCount: 1 },
      ]),
    ).toBe('Abe');
  });

  it('treats the name as sender-written text: no controls, no bidi, capped; none when only an address', () => {
    expect(brandName([{ senderName: ' The\u202e Times\u0000 \n Daily ', messageCount: 1 }])).toBe(
      'The Times Daily',
    );
    expect(brandName([{ senderName: 'x'.repeat(500), messageCount: 1 }])).toHaveLength(100);
    expect(brandName([{ senderName: 'news@times.example', messageCount: 9 }])).toBeNull();
    expect(brandName([])).toBeNull();
  });
});
