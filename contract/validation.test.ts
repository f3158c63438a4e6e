import { describe, expect, it } from 'vitest';
import {
  CONTACT_MESSAGES,
  contactFieldErrors,
  MESSAGES,
  normalizeEmail,
  validateContact,
  validateEmail,
} from './validation.js';

describe('validateEmail', () => {
  it.each(['ada@example.com', '  Ada@Example.COM ', 'zoë@exämple.de', 'a+tag@sub.example.co.uk'])(
    'accepts %j',
    (email) => {
      expect(validateEmail(email)).toBeNull();
    },
  );

  it.each([
    ['NUL', 'ada\u0000@example.com'],
    ['backspace', 'ada\u0008x@example.com'],
    ['escape', 'ada@exa\u001bmple.com'],
    ['DEL', 'ada\u007f@example.com'],
    ['C1 control', 'ada\u0085@example.com'],
    ['right-to-left override', 'ada\u202e@example.com'],
    ['left-to-right embedding', '\u202aada@example.com'],
    ['pop directional formatting', 'ada@example\u202c.com'],
    ['right-to-left isolate', 'ada\u2067moc.elpmaxe@example.com'],
    ['pop directional isolate', 'ada@example.com\u2069'],
    ['right-to-left mark', 'ada\u200f@example.com'],
  ])('refuses an address with a %s with the spec message', (_name, email) => {
    expect(validateEmail(email)).toBe(MESSAGES.invalidEmail);
  });
});

describe('normalizeEmail', () => {
  it('trims, lowercases and composes (NFC), so both spellings of one address are the same', () => {
    const composed = 'zo\u00eb@example.com';
    const decomposed = 'Zoe\u0308@Example.com ';
    expect(normalizeEmail(decomposed)).toBe(composed);
    expect(normalizeEmail(composed)).toBe(composed);
  });
});

describe('the contact form', () => {
  const full = { name: 'Ada', email: 'ada@example.com', subject: 'Hi', message: 'Hello' };

  it('accepts a complete form', () => {
    expect(contactFieldErrors(full)).toEqual({});
    expect(validateContact(full)).toBeNull();
  });

  it('names every field that fails, each with its own message', () => {
    expect(contactFieldErrors({ name: ' ', email: '', subject: '\t', message: '' })).toEqual({
      name: CONTACT_MESSAGES.name,
      email: CONTACT_MESSAGES.emailMissing,
      subject: CONTACT_MESSAGES.subject,
      message: CONTACT_MESSAGES.message,
    });
    expect(contactFieldErrors({ ...full, email: 'ada-at-example.com' })).toEqual({
      email: CONTACT_MESSAGES.emailInvalid,
    });
  });

  it('answers one message for the API when any field fails', () => {
    expect(validateContact({ ...full, subject: ' ' })).toBe(MESSAGES.contactIncomplete);
    expect(validateContact({ ...full, email: 'nobody' })).toBe(MESSAGES.contactIncomplete);
  });
});
