import { describe, expect, it } from 'vitest';
import {
  ForbiddenAddressError,
  isPublicAddress,
  parseHostList,
  resolvePublicHost,
} from './address-policy.js';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.5',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
  ])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('resolvePublicHost', () => {
  // These spellings resolve locally (no network): the resolver turns each into 127.0.0.1.
  it.each([
    'localhost',
    '127.0.0.1',
    '2130706433',
    '0x7f000001',
    '0177.0.0.1',
    '127.1',
    '[::1]',
    '[::ffff:127.0.0.1]',
  ])('refuses %s', async (host) => {
    await expect(resolvePublicHost(host)).rejects.toBeInstanceOf(ForbiddenAddressError);
  });

  it('lets a listed host through', async () => {
    await expect(resolvePublicHost('127.0.0.1', parseHostList('127.0.0.1'))).resolves.toEqual(['127.0.0.1']);
    await expect(resolvePublicHost('[::1]', parseHostList(' ::1 , example.org'))).resolves.toEqual(['::1']);
  });

  it('answers the address of a public literal without asking a resolver', async () => {
    await expect(resolvePublicHost('93.184.216.34')).resolves.toEqual(['93.184.216.34']);
  });
});
