import { describe, expect, it } from 'vitest';
import { checkFolderName, MAX_FOLDER_NAME } from './folder-name.js';
import { senderAddress } from './sender-address.js';

describe('senderAddress', () => {
  it('is the normalised address (trimmed, lower case, NFC)', () => {
    expect(senderAddress('  News@Daily.Example ')).toBe('news@daily.example');
    expect(senderAddress('zoe\u0308@x.example')).toBe('zo\u00eb@x.example');
  });

  it('refuses an empty, overlong or control-character address', () => {
    for (const bad of ['', '   ', `${'a'.repeat(315)}@x.example`, 'a\r\n@x.example', 'a\u007f@x.example']) {
      expect(() => senderAddress(bad), JSON.stringify(bad)).toThrow(/sender address/);
    }
    expect(senderAddress(`${'a'.repeat(310)}@x.example`)).toHaveLength(320);
  });
});

describe('checkFolderName', () => {
  it('takes the contract’s limit, trimmed', () => {
    expect(MAX_FOLDER_NAME).toBe(200);
    expect(checkFolderName('  News  ')).toBe('News');
    expect(checkFolderName('x'.repeat(200))).toHaveLength(200);
    expect(checkFolderName('Parent/Child * %')).toBe('Parent/Child * %');
  });

  it('refuses empty names, names over the limit (UTF-16 units) and C0, DEL and C1 controls', () => {
    for (const bad of [
      '',
      '   ',
      'x'.repeat(201),
      '😀'.repeat(101),
      'a\nb',
      'tab\there',
      'a\u007f',
      'a\u0085',
      'a\u009f',
    ]) {
      expect(() => checkFolderName(bad), JSON.stringify(bad)).toThrow(/folder name/);
    }
  });
});
