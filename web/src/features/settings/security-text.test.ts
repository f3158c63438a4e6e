import { describe, expect, it } from 'vitest';
import { describeUserAgent, formatWhen, groupedKey, recoveryCodesFile } from './security-text';

const UA = {
  chromeLinux:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 Edg/125.0.2535.67',
  firefoxMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeIpad:
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  operaWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0',
  chromebook:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
};

describe('describeUserAgent', () => {
  it('names the browser and the system of common agents', () => {
    expect(describeUserAgent(UA.chromeLinux)).toBe('Chrome on Linux');
    expect(describeUserAgent(UA.headless)).toBe('Chrome on Linux');
    expect(describeUserAgent(UA.edgeWindows)).toBe('Edge on Windows');
    expect(describeUserAgent(UA.firefoxMac)).toBe('Firefox on macOS');
    expect(describeUserAgent(UA.safariMac)).toBe('Safari on macOS');
    expect(describeUserAgent(UA.safariIphone)).toBe('Safari on iPhone');
    expect(describeUserAgent(UA.chromeIpad)).toBe('Chrome on iPad');
    expect(describeUserAgent(UA.chromeAndroid)).toBe('Chrome on Android');
    expect(describeUserAgent(UA.samsung)).toBe('Samsung Internet on Android');
    expect(describeUserAgent(UA.operaWindows)).toBe('Opera on Windows');
    expect(describeUserAgent(UA.chromebook)).toBe('Chrome on ChromeOS');
  });

  it('says what it can of the rest', () => {
    expect(describeUserAgent(null)).toBe('Unknown browser');
    expect(describeUserAgent('')).toBe('Unknown browser');
    expect(describeUserAgent('curl/8.5.0')).toBe('Unknown browser');
    expect(describeUserAgent('SomeApp/1.0 (Linux)')).toBe('A browser on Linux');
    expect(describeUserAgent('Mozilla/5.0 Firefox/127.0')).toBe('Firefox');
  });
});

describe('formatWhen', () => {
  it('writes a date and time, in the given zone', () => {
    expect(formatWhen('2026-06-03T14:05:00.000Z', 'UTC')).toBe('Jun 3, 2026, 2:05 PM');
  });

  it('leaves a text that is no date as it is', () => {
    expect(formatWhen('soon')).toBe('soon');
  });
});

describe('recoveryCodesFile', () => {
  it('lists every code on a line of its own under a heading', () => {
    const text = recoveryCodesFile(['AAAA-BBBB1', 'CCCC-DDDD2'], 'genie.example');
    expect(text.split('\n')).toContain('AAAA-BBBB1');
    expect(text.split('\n')).toContain('CCCC-DDDD2');
    expect(text.startsWith('Inbox Genie recovery codes (genie.example)')).toBe(true);
  });
});

describe('groupedKey', () => {
  it('writes the secret in groups of four', () => {
    expect(groupedKey('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(groupedKey('ABCDEF')).toBe('ABCD EF');
    expect(groupedKey(' AB CD ')).toBe('ABCD');
  });
});
