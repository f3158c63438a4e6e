import { describe, expect, it } from 'vitest';
import { IdTokenError, identityFromClaims, readIdToken } from './id-token.js';
import { MICROSOFT_CONSUMER_TENANT, oauthProvider } from './providers.js';

const jwt = (claims: Record<string, unknown>) =>
  `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

const config = {
  publicUrl: 'https://app.example',
  google: { clientId: 'g-client', clientSecret: 's' },
  microsoft: { clientId: 'm-client', clientSecret: 's' },
  googleBaseUrl: null,
  microsoftBaseUrl: null,
};
const google = oauthProvider('google', config)!;
const microsoft = oauthProvider('outlook', config)!;
const now = Date.UTC(2026, 0, 1);
const exp = now / 1000 + 3600;

describe('id_token from the token endpoint', () => {
  const check = { clientId: 'g-client', issuerOk: google.issuerOk, now };
  const valid = {
    iss: 'https://accounts.google.com',
    aud: 'g-client',
    exp,
    email: 'A@Gmail.com',
    email_verified: true,
  };

  it('answers the claims of a token for us from the expected issuer', () => {
    expect(readIdToken(jwt(valid), check)).toMatchObject({ email: 'A@Gmail.com' });
    expect(readIdToken(jwt({ ...valid, aud: ['g-client', 'x'], azp: 'g-client' }), check)).toBeTruthy();
  });

  it('refuses another audience, another issuer, an expired token and a malformed one', () => {
    expect(() => readIdToken(jwt({ ...valid, aud: 'someone-else' }), check)).toThrow(IdTokenError);
    expect(() => readIdToken(jwt({ ...valid, aud: ['g-client', 'x'], azp: 'x' }), check)).toThrow(/azp/);
    expect(() => readIdToken(jwt({ ...valid, iss: 'https://evil.example' }), check)).toThrow(/issuer/);
    expect(() => readIdToken(jwt({ ...valid, exp: now / 1000 - 600 }), check)).toThrow(/expired/);
    expect(() => readIdToken(jwt({ ...valid, exp: undefined }), check)).toThrow(/expired/);
    expect(() => readIdToken('a.b', check)).toThrow(IdTokenError);
    expect(() => readIdToken('a.bm90IGpzb24.c', check)).toThrow(IdTokenError);
  });

  it('takes the Microsoft issuer of the tenant the token names', () => {
    const tid = '72f988bf-86f1-41af-91ab-2d7cd011db47';
    const m = { clientId: 'm-client', issuerOk: microsoft.issuerOk, now };
    const claims = { aud: 'm-client', exp, tid, iss: `https://login.microsoftonline.com/${tid}/v2.0` };
    expect(readIdToken(jwt(claims), m)).toBeTruthy();
    expect(() =>
      readIdToken(jwt({ ...claims, iss: 'https://login.microsoftonline.com/other/v2.0' }), m),
    ).toThrow(/issuer/);
  });
});

describe('the address a provider vouches for', () => {
  it('Google: email_verified (or verified_email of userinfo v2)', () => {
    expect(identityFromClaims('google', { email: 'a@gmail.com', email_verified: true })).toEqual({
      email: 'a@gmail.com',
      emailVerified: true,
    });
    expect(identityFromClaims('google', { email: 'a@gmail.com', verified_email: true })?.emailVerified).toBe(
      true,
    );
    expect(identityFromClaims('google', { email: 'a@gmail.com', email_verified: false })?.emailVerified).toBe(
      false,
    );
    expect(identityFromClaims('google', { sub: '1' })).toBeNull();
  });

  it('Microsoft: personal accounts and tenants that verified the domain only', () => {
    const email = 'a@contoso.com';
    expect(identityFromClaims('outlook', { email, tid: MICROSOFT_CONSUMER_TENANT })?.emailVerified).toBe(
      true,
    );
    expect(identityFromClaims('outlook', { email, tid: 'some-tenant' })?.emailVerified).toBe(false);
    expect(identityFromClaims('outlook', { email, tid: 'some-tenant', xms_edov: true })?.emailVerified).toBe(
      true,
    );
    expect(identityFromClaims('outlook', { email, tid: 'some-tenant', xms_edov: false })?.emailVerified).toBe(
      false,
    );
  });
});
