import { describe, expect, it } from 'vitest';
import { SECURITY_MESSAGES } from '#contract/api.js';
import { codeKind, codeProblem, normaliseCode } from './one-time-code';

describe('normaliseCode', () => {
  it('drops spaces and dashes, keeps letters, digits and their case', () => {
    expect(normaliseCode(' 123 456 ')).toBe('123456');
    expect(normaliseCode('abcde-12345')).toBe('abcde12345');
    expect(normaliseCode('ABCDE\u201112345')).toBe('ABCDE12345');
    expect(normaliseCode('12\u00a034\t56\n')).toBe('123456');
  });
});

describe('codeKind', () => {
  it('tells an app code from a recovery code', () => {
    expect(codeKind('123456')).toBe('totp');
    expect(codeKind('123 456')).toBe('totp');
    expect(codeKind('ABCDE-12345')).toBe('recovery');
    expect(codeKind('k7m2p9x4qz')).toBe('recovery');
    expect(codeKind('23456-78923')).toBe('recovery');
  });

  it('is neither for too few or too many digits, or other characters', () => {
    for (const raw of ['', '12345', '1234567', 'abc', 'ABCDE_12345', '<script>', 'a'.repeat(21)]) {
      expect(codeKind(raw), raw).toBeNull();
    }
  });
});

describe('codeProblem', () => {
  it('asks for a code when none or a malformed one was typed', () => {
    expect(codeProblem('')).toBe(SECURITY_MESSAGES.codeRequired);
    expect(codeProblem('  - ')).toBe(SECURITY_MESSAGES.codeRequired);
    expect(codeProblem('12345')).toBe(SECURITY_MESSAGES.codeRequired);
    expect(codeProblem('9'.repeat(50))).toBe(SECURITY_MESSAGES.codeRequired);
  });

  it('lets an app code or a recovery code through', () => {
    expect(codeProblem('123 456')).toBeNull();
    expect(codeProblem('ABCDE-12345')).toBeNull();
  });

  it('takes only an app code when turning two-step sign-in on', () => {
    expect(codeProblem('123456', { appOnly: true })).toBeNull();
    expect(codeProblem('ABCDE-12345', { appOnly: true })).toMatch(/6-digit code/);
  });
});
