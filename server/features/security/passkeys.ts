import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Passkey } from '#contract/api/security.js';
import { SECURITY_MESSAGES } from '#contract/api/security.js';
import { hashToken, randomToken } from '#server/lib/crypto.js';
import { InvalidInputError, NotAuthenticatedError, NotFoundError } from '#server/lib/errors.js';
import type { SecurityRepository, StoredPasskey } from './repository.js';

// Passkeys (WebAuthn), a sign-in method of their own: discoverable credentials (resident keys) with user
// verification, so the browser offers the account's passkey without an address typed. The relying party
// is PUBLIC_URL's host. Each ceremony's challenge is stored server-side, bound to the browser by a cookie
// token (its hash is the row's id), used once and alive for CHALLENGE_TTL_MS.

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const RP_NAME = 'Inbox Genie';

export interface PasskeysDeps {
  repo: SecurityRepository;
  /** PUBLIC_URL: its origin is the expected origin, its host the RP ID. */
  publicUrl: string;
  emailOf: (userId: string) => Promise<string>;
  now?: () => number;
}

/** A ceremony's options for the browser, and the token for its cookie. */
export interface Ceremony<T> {
  options: T;
  token: string;
}

const present = (p: StoredPasskey): Passkey => ({
  id: p.id,
  name: p.name,
  createdAt: new Date(p.createdAt).toISOString(),
  lastUsedAt: p.lastUsedAt === null ? null : new Date(p.lastUsedAt).toISOString(),
});

const transportsOf = (p: StoredPasskey) => p.transports as AuthenticatorTransport[] | undefined;

export function createPasskeys({ repo, publicUrl, emailOf, now = Date.now }: PasskeysDeps) {
  const origin = new URL(publicUrl).origin;
  const rpID = new URL(publicUrl).hostname;

  async function storeChallenge(
    kind: 'registration' | 'authentication',
    challenge: string,
    userId: string | null,
  ): Promise<string> {
    const token = randomToken();
    await repo.insertWebauthnChallenge({
      id: hashToken(token),
      userId,
      challenge,
      kind,
      expiresAt: now() + CHALLENGE_TTL_MS,
    });
    return token;
  }

  async function takeChallenge(kind: 'registration' | 'authentication', token: string | undefined) {
    const found = token ? await repo.takeWebauthnChallenge(hashToken(token), kind, now()) : undefined;
    if (!found) throw new InvalidInputError(SECURITY_MESSAGES.passkeyExpired);
    return found;
  }

  return {
    async list(userId: string): Promise<Passkey[]> {
      return (await repo.passkeysOf(userId)).map(present);
    },

    async registrationOptions(userId: string): Promise<Ceremony<PublicKeyCredentialCreationOptionsJSON>> {
      const existing = await repo.passkeysOf(userId);
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID,
        userName: await emailOf(userId),
        userID: new TextEncoder().encode(userId),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p) })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      return { options, token: await storeChallenge('registration', options.challenge, userId) };
    },

    async register(
      userId: string,
      token: string | undefined,
      response: Record<string, unknown>,
      name: string | undefined,
    ): Promise<Passkey> {
      const challenge = await takeChallenge('registration', token);
      if (challenge.userId !== userId) throw new InvalidInputError(SECURITY_MESSAGES.passkeyExpired);
      let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verified = await verifyRegistrationResponse({
          response: response as unknown as RegistrationResponseJSON,
          expectedChallenge: challenge.challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch {
        throw new InvalidInputError(SECURITY_MESSAGES.passkeyFailed);
      }
      if (!verified.verified) throw new InvalidInputError(SECURITY_MESSAGES.passkeyFailed);
      const { credential } = verified.registrationInfo;
      const stored = {
        id: credential.id,
        userId,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports,
        name: name?.trim() || `Passkey ${(await repo.passkeysOf(userId)).length + 1}`,
        createdAt: now(),
      };
      if (await repo.passkeyById(stored.id)) throw new InvalidInputError(SECURITY_MESSAGES.passkeyFailed);
      await repo.insertPasskey(stored);
      return present({ ...stored, lastUsedAt: null });
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await repo.deletePasskey(userId, id))) throw new NotFoundError(SECURITY_MESSAGES.passkeyNotFound);
    },

    /** Signed out: options with no credentials named (the browser offers the discoverable ones). */
    async authenticationOptions(): Promise<Ceremony<PublicKeyCredentialRequestOptionsJSON>> {
      const options = await generateAuthenticationOptions({
        rpID,
        allowCredentials: [],
        userVerification: 'required',
      });
      return { options, token: await storeChallenge('authentication', options.challenge, null) };
    },

    /** Verifies an assertion; answers the user it signs in. */
    async authenticate(token: string | undefined, response: Record<string, unknown>): Promise<string> {
      const challenge = await takeChallenge('authentication', token);
      const id = typeof response.id === 'string' ? response.id : '';
      const passkey = id ? await repo.passkeyById(id) : undefined;
      if (!passkey) throw new NotAuthenticatedError(SECURITY_MESSAGES.passkeyUnknown);
      let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
      try {
        verified = await verifyAuthenticationResponse({
          response: response as unknown as AuthenticationResponseJSON,
          expectedChallenge: challenge.challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          credential: {
            id: passkey.id,
            publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
            counter: passkey.counter,
            transports: transportsOf(passkey),
          },
          requireUserVerification: true,
        });
      } catch {
        throw new NotAuthenticatedError(SECURITY_MESSAGES.passkeyFailed);
      }
      if (!verified.verified) throw new NotAuthenticatedError(SECURITY_MESSAGES.passkeyFailed);
      await repo.recordPasskeyUse(passkey.id, verified.authenticationInfo.newCounter, now());
      return passkey.userId;
    },
  };
}

export type Passkeys = ReturnType<typeof createPasskeys>;
