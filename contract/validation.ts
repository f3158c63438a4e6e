import { MESSAGES, MIN_PASSWORD_LENGTH } from './messages.js';
import { providerDomainError } from './providers.js';

// Validation rules and messages (docs/product.md §5), shared by the screens and the server so both
// say exactly the same thing. The request schemas of api.ts apply these rules; the server checks
// requests only through those schemas.

export { MESSAGES, MIN_PASSWORD_LENGTH } from './messages.js';

/** "text, at sign, text, dot, text" (docs/product.md §5). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Characters no address may carry: C0 and C1 controls and DEL (a NUL is refused by PostgreSQL, a CR/LF
 * ends a mail header), and the invisible bidi controls (embeddings, overrides, isolates, LRM/RLM/ALM)
 * that make an address display as another one.
 */
const EMAIL_FORBIDDEN = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export type ValidationResult = string | null;

export function validateEmail(email: string): ValidationResult {
  const trimmed = email.trim();
  return EMAIL_PATTERN.test(trimmed) && !EMAIL_FORBIDDEN.test(trimmed) ? null : MESSAGES.invalidEmail;
}

/**
 * The one stored and compared form of an address: trimmed, lowercased and composed (NFC), so the two
 * Unicode spellings of "zoë" are one account. Every server path that reads an address uses it.
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase().normalize('NFC');
}

export function validateNewPassword(password: string, confirm?: string): ValidationResult {
  if (password.length < MIN_PASSWORD_LENGTH) return MESSAGES.passwordTooShort;
  if (confirm !== undefined && confirm !== password) return MESSAGES.passwordsDoNotMatch;
  return null;
}

/** Create-account form: email, password, confirm password. */
export function validateSignup(input: {
  email: string;
  password: string;
  confirm?: string;
}): ValidationResult {
  return validateEmail(input.email) ?? validateNewPassword(input.password, input.confirm);
}

/** Sign-in form: a valid email and any non-empty password. */
export function validateSignin(input: { email: string; password: string }): ValidationResult {
  return validateEmail(input.email) ?? (input.password.length === 0 ? MESSAGES.passwordRequired : null);
}

/** Reset form: new password and its confirmation. */
export function validateReset(input: { password: string; confirm?: string }): ValidationResult {
  return validateNewPassword(input.password, input.confirm);
}

/**
 * Add-mailbox form: a valid address, then the provider's own address rule (the domains of its row in
 * providers.ts, e.g. Yahoo's yahoo.com), then the app password.
 */
export function validateAddMailbox(input: {
  provider: string;
  email: string;
  appPassword: string;
}): ValidationResult {
  const emailError = validateEmail(input.email);
  if (emailError) return emailError;
  const domainError = providerDomainError(input.provider, input.email);
  if (domainError) return domainError;
  if (input.appPassword.length === 0) return MESSAGES.appPasswordRequired;
  return null;
}

export interface ContactInput {
  name: string;
  email: string;
  subject: string;
  message: string;
}

/** The contact form's message under each field that fails its rule. */
export const CONTACT_MESSAGES = {
  name: 'Please enter your name.',
  emailMissing: 'Please enter your email address.',
  emailInvalid: MESSAGES.invalidEmail,
  subject: 'Please enter a subject.',
  message: 'Please enter a message.',
} as const;

/**
 * The contact form field by field (the dialog shows each message next to its field): every field
 * non-empty and the email contains an at sign. Empty when the form is complete.
 */
export function contactFieldErrors(input: ContactInput): Partial<Record<keyof ContactInput, string>> {
  const errors: Partial<Record<keyof ContactInput, string>> = {};
  if (!input.name.trim()) errors.name = CONTACT_MESSAGES.name;
  if (!input.email.trim()) errors.email = CONTACT_MESSAGES.emailMissing;
  else if (!input.email.includes('@')) errors.email = CONTACT_MESSAGES.emailInvalid;
  if (!input.subject.trim()) errors.subject = CONTACT_MESSAGES.subject;
  if (!input.message.trim()) errors.message = CONTACT_MESSAGES.message;
  return errors;
}

/** Contact form as one answer (the API's 400): the same rule as contactFieldErrors. */
export function validateContact(input: ContactInput): ValidationResult {
  return Object.keys(contactFieldErrors(input)).length === 0 ? null : MESSAGES.contactIncomplete;
}

/** "Name <address>" or a bare address: the address a contact form's `from` field carries, or ''. */
const CONTACT_FROM = /<([^<>\s]+@[^<>\s]+)>\s*$|^\s*([^<>\s]+@[^<>\s]+)\s*$/;

/**
 * The contact form as the API receives it (POST /send-email): `from` is "Name <address>" or a bare
 * address; the name defaults to the address. Same rule as the screen's `validateContact`.
 */
export function validateContactFrom(input: {
  from: string;
  subject: string;
  text: string;
}): ValidationResult {
  const match = CONTACT_FROM.exec(input.from);
  const email = match?.[1] ?? match?.[2] ?? '';
  const name = input.from.replace(/<[^>]*>\s*$/, '').trim() || email;
  return validateContact({ name, email, subject: input.subject, message: input.text });
}

/** Texts of the browser alerts and of the screens' default error banners (docs/product.md §8). */
export const ALERTS = {
  emailSent: 'Email sent successfully!',
  logoutFailed: 'Failed to log out...',
  fetchSettingsFailed: 'Failed to fetch settings...',
  updateSettingsFailed: 'Failed to update settings...',
  deleteAccountFailed: 'Failed to delete account...',
  fetchEmailAccountsFailed: 'Failed to fetch email accounts...',
  deleteEmailAccountFailed: 'Failed to delete email account...',
  keepFailed: 'Failed to keep the subscription...',
  keepRateLimited: 'You have reached the rate limit. Please try again later.',
  unsubscribeError:
    'Error during unsubscription. Please try again, if the issue continues please contact support.',
  unsubscribeFailed: 'Failed to process the unsubscription request...',
  manualUnsubscribeError: 'Error manually unsubscribing subscription...',
  manualUnsubscribeFailed: 'Failed to manually unsubscribe the subscription',
  rateLimited: 'You have reached the rate limit. Please try again later.',
} as const;

export const SCREEN_ERRORS = {
  signup: 'Signup failed.',
  signin: 'Sign in failed.',
  forgotPassword: 'Request failed.',
  resetPassword: 'Reset failed.',
  /** Add-mailbox screen: the server's message as given, else these (docs/product.md §8). */
  addMailbox: 'Add account failed',
  subscriptionRequired: 'Subscription required',
} as const;

/** Add-mailbox form of the providers that ask where the IMAP server is (providers.ts `server`). */
export const IMAP_MESSAGES = {
  hostRequired: 'Please enter the IMAP server of your mailbox.',
  portInvalid: 'The port must be a number from 1 to 65535.',
} as const;

/** The IMAP server fields of the add-mailbox form: a host and a port from 1 to 65535. */
export function validateImapServer(input: { host: string; port: string | number }): ValidationResult {
  if (input.host.trim().length === 0) return IMAP_MESSAGES.hostRequired;
  const port = typeof input.port === 'number' ? input.port : Number(input.port.trim() || Number.NaN);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return IMAP_MESSAGES.portInvalid;
  return null;
}
