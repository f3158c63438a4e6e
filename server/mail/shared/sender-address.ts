import { normalizeEmail } from '#contract/validation.js';

// The one form of a sender's address every adapter matches mail by (imap/, gmail/, graph/).

/** Longest address a rule or a filter takes (RFC 5321 §4.5.3.1: 64 + 1 + 255, rounded). */
const MAX_ADDRESS = 320;

/**
 * The address a sender's mail is matched by: normalizeEmail's form (trimmed, lower case, NFC), not empty,
 * at most 320 characters, no C0 control nor DEL (it goes into IMAP searches, Gmail queries and OData filters).
 */
export function senderAddress(from: string): string {
  const address = normalizeEmail(from);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (!address || address.length > MAX_ADDRESS || /[\u0000-\u001f\u007f]/.test(address)) {
    throw new Error('A sender address is needed (at most 320 characters, no control characters)');
  }
  return address;
}
