import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  addMailboxBodySchema,
  blockingBodySchema,
  contactBodySchema,
  oauthCallbackQuerySchema,
  oauthStartQuerySchema,
  resetPasswordBodySchema,
  settingsUpdateSchema,
  signinBodySchema,
  signupBodySchema,
  subscriptionRefBodySchema,
  subscriptionSchema,
  subscriptionsQuerySchema,
} from './api.js';
import { IMAP_MESSAGES, MESSAGES } from './validation.js';

/** The message the API answers for a body: the first issue's. */
const first = (schema: z.ZodType, body: unknown) => schema.safeParse(body).error?.issues[0]?.message ?? null;

describe('signupBodySchema', () => {
  it.each([
    [{ email: 'not-an-email', password: 'long enough' }, MESSAGES.invalidEmail],
    [{ password: 'long enough' }, MESSAGES.invalidEmail],
    [{ email: 42, password: 'long enough' }, MESSAGES.invalidEmail],
    [{ email: 'ok@example.com', password: 'short' }, MESSAGES.passwordTooShort],
    [{ email: 'ok@example.com' }, MESSAGES.passwordRequired],
    // Field types are checked before the rules: a missing password wins over a malformed address.
    [{ email: 'bad' }, MESSAGES.passwordRequired],
    [{ email: 'bad', password: 'short' }, MESSAGES.invalidEmail],
    [{ email: 'ok@example.com', password: 'long enough' }, null],
  ])('%j → %s', (body, message) => {
    expect(first(signupBodySchema, body)).toBe(message);
  });
});

describe('signinBodySchema', () => {
  it.each([
    [{ email: 'bad', password: 'x' }, MESSAGES.invalidEmail],
    [{ email: 'ok@example.com', password: '' }, MESSAGES.passwordRequired],
    [{ email: 'ok@example.com', password: 'x' }, null],
  ])('%j → %s', (body, message) => {
    expect(first(signinBodySchema, body)).toBe(message);
  });
});

describe('resetPasswordBodySchema', () => {
  it.each([
    [{ password: 'long enough' }, MESSAGES.resetTokenInvalid],
    [{ token: '', password: 'long enough' }, MESSAGES.resetTokenInvalid],
    [{ token: 'x', password: 'short' }, MESSAGES.passwordTooShort],
    [{ token: '', password: 'short' }, MESSAGES.passwordTooShort],
    [{ token: 'x', password: 'long enough' }, null],
  ])('%j → %s', (body, message) => {
    expect(first(resetPasswordBodySchema, body)).toBe(message);
  });
});

describe('addMailboxBodySchema', () => {
  it.each([
    ['yahoo', { email: 'me@gmail.com', appPassword: 'x' }, 'Please enter your Yahoo email address.'],
    ['icloud', { email: 'me@icloud.com', appPassword: '' }, MESSAGES.appPasswordRequired],
    ['imap', { email: 'me@example.net', appPassword: 'x' }, IMAP_MESSAGES.hostRequired],
    ['imap', { email: 'me@example.net', appPassword: 'x', host: 'h', port: 0 }, IMAP_MESSAGES.portInvalid],
    ['imap', { email: 'me@example.net', appPassword: 'x', port: 'x' }, IMAP_MESSAGES.portInvalid],
    ['protonmail', { email: 'me@proton.me', appPassword: 'x' }, null],
    ['protonmail', { email: 'me@proton.me', appPassword: 'x', host: ' ' }, IMAP_MESSAGES.hostRequired],
    ['yahoo', { email: 'me@yahoo.com', appPassword: 'x' }, null],
  ] as const)('%s %j → %s', (provider, body, message) => {
    expect(first(addMailboxBodySchema(provider), body)).toBe(message);
  });
});

describe('contactBodySchema', () => {
  it.each([
    [{ from: 'Ada <ada-at-example.com>', subject: 's', text: 't' }, MESSAGES.contactIncomplete],
    [{ from: 'ada@example.com', subject: ' ', text: 't' }, MESSAGES.contactIncomplete],
    [{ subject: 's', text: 't' }, MESSAGES.contactIncomplete],
    [{ from: 'Ada <ada@example.com>', subject: 's', text: 't' }, null],
  ])('%j → %s', (body, message) => {
    expect(first(contactBodySchema, body)).toBe(message);
  });
});

describe('settingsUpdateSchema', () => {
  it('names the field that is not a boolean, and lets a body leave the auto-block out, as the body of the spec does', () => {
    expect(
      first(settingsUpdateSchema, { alertManualUnsubscribe: 'no', alertAfterUnsubscribe: true }),
    ).toContain('alertManualUnsubscribe');
    expect(
      first(settingsUpdateSchema, { alertManualUnsubscribe: true, alertAfterUnsubscribe: true }),
    ).toBeNull();
  });
});

describe('subscription references', () => {
  it('reads subscriptionId, or messageId from older screens, and requires one', () => {
    expect(subscriptionRefBodySchema.parse({ messageId: 'a' })).toEqual({ subscriptionId: 'a' });
    expect(first(subscriptionRefBodySchema, {})).toBe('subscriptionId is required.');
    // moveToTrash absent is the spec's default; false and true are the user's choice (decision 100).
    expect(blockingBodySchema.parse({ subscriptionId: 'a' })).toEqual({
      subscriptionId: 'a',
      confirmBlock: false,
      moveToTrash: undefined,
    });
    expect(blockingBodySchema.parse({ subscriptionId: 'a', moveToTrash: false }).moveToTrash).toBe(false);
  });
});

describe('queries', () => {
  it('defaults the category and the intent, and names an unknown one', () => {
    expect(subscriptionsQuerySchema.parse({})).toEqual({
      category: 'uncategorized',
      sort: 'newest',
      group: 'sender',
    });
    expect(first(subscriptionsQuerySchema, { sort: 'oldest' })).toBe('Unknown sort oldest.');
    expect(subscriptionsQuerySchema.parse({ limit: '50', q: '  shop ' })).toMatchObject({
      limit: 50,
      q: 'shop',
    });
    expect(first(subscriptionsQuerySchema, { limit: '201' })).toBeTruthy();
    expect(first(subscriptionsQuerySchema, { category: 'bogus' })).toBe('Unknown category bogus.');
    expect(first(subscriptionsQuerySchema, { group: 'domain' })).toBe('Unknown group domain.');
    expect(oauthStartQuerySchema.parse({})).toEqual({ intent: 'signin' });
    expect(first(oauthStartQuerySchema, { intent: 'steal' })).toBe(
      'Unknown intent steal: use signin, signup or add.',
    );
  });

  it('treats a callback parameter given twice as absent', () => {
    expect(oauthCallbackQuerySchema.parse({ code: ['a', 'b'], state: 's' })).toEqual({ state: 's' });
  });
});

describe('response schemas', () => {
  it('whitelist what leaves the server', () => {
    const row = {
      id: 's1',
      address: 'news@example.com',
      senderName: 'News',
      messageCount: 2,
      category: 'kept',
      lastMessageAt: null,
      account: 'me@example.com',
      secret: 'not for the screens',
    };
    expect(subscriptionSchema.encode(row as z.input<typeof subscriptionSchema>)).not.toHaveProperty('secret');
  });
});
