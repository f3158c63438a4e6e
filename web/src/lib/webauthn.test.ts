import { describe, expect, it } from 'vitest';
import { isPasskeyCancel, passkeysSupported } from './webauthn';

class FakeWebAuthnError extends Error {
  constructor(
    readonly code: string,
    override readonly cause: Error,
  ) {
    super(cause.message);
    this.name = cause.name;
  }
}

const domError = (name: string) =>
  Object.assign(new Error('The operation either timed out or was not allowed.'), { name });

describe('passkeysSupported', () => {
  it('follows window.PublicKeyCredential', () => {
    expect(passkeysSupported({ PublicKeyCredential: class {} })).toBe(true);
    expect(passkeysSupported({})).toBe(false);
  });
});

describe('isPasskeyCancel', () => {
  it('is true for a prompt closed, timed out or aborted, bare or wrapped by simplewebauthn', () => {
    expect(isPasskeyCancel(domError('NotAllowedError'))).toBe(true);
    expect(isPasskeyCancel(domError('AbortError'))).toBe(true);
    expect(
      isPasskeyCancel(
        new FakeWebAuthnError('ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY', domError('NotAllowedError')),
      ),
    ).toBe(true);
    expect(isPasskeyCancel({ code: 'ERROR_CEREMONY_ABORTED', name: 'Error' })).toBe(true);
  });

  it('is false for real failures', () => {
    expect(isPasskeyCancel(domError('SecurityError'))).toBe(false);
    expect(isPasskeyCancel(new FakeWebAuthnError('ERROR_INVALID_RP_ID', domError('SecurityError')))).toBe(
      false,
    );
    expect(
      isPasskeyCancel(
        new FakeWebAuthnError('ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED', domError('InvalidStateError')),
      ),
    ).toBe(false);
    expect(isPasskeyCancel(new Error('network'))).toBe(false);
    expect(isPasskeyCancel(null)).toBe(false);
    expect(isPasskeyCancel('NotAllowedError')).toBe(false);
  });
});
