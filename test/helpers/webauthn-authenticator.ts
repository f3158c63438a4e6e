import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

// A software passkey authenticator for the API tests (the e2e tests use Chromium's virtual authenticator):
// one ES256 key pair per credential, resident, with user verification, "none" attestation, and a signature
// counter. It answers the JSON the browser's navigator.credentials would give @simplewebauthn/browser, built
// as the WebAuthn Level 3 specification lays out authenticator data, attestation objects and assertions.

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** Flags: user present (0x01), user verified (0x04), attested credential data included (0x40). */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  x: Buffer;
  y: Buffer;
  userHandle: string;
  rpId: string;
  counter: number;
}

export interface SoftAuthenticator {
  /** Answers PublicKeyCredentialCreationOptionsJSON as navigator.credentials.create would. */
  register(options: Record<string, unknown>, origin: string): Record<string, unknown>;
  /** Answers PublicKeyCredentialRequestOptionsJSON with the credential it holds for the RP (discoverable). */
  authenticate(options: Record<string, unknown>, origin: string): Record<string, unknown>;
  credentials(): number;
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

function counterBytes(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

export function softAuthenticator(): SoftAuthenticator {
  const held: Credential[] = [];
  return {
    credentials: () => held.length,

    register(options, origin) {
      const rp = options.rp as { id: string };
      const user = options.user as { id: string };
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cred: Credential = {
        id: randomBytes(16),
        privateKey,
        x: Buffer.from(jwk.x!, 'base64url'),
        y: Buffer.from(jwk.y!, 'base64url'),
        userHandle: user.id,
        rpId: rp.id,
        counter: 0,
      };
      held.push(cred);
      const cose = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, new Uint8Array(cred.x)],
          [-3, new Uint8Array(cred.y)],
        ]),
      );
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(cred.id.length);
      const authData = Buffer.concat([
        sha256(cred.rpId),
        Buffer.from([UP | UV | AT]),
        counterBytes(cred.counter),
        Buffer.alloc(16),
        idLength,
        cred.id,
        Buffer.from(cose),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(authData)],
        ]) as never,
      );
      return {
        id: b64url(cred.id),
        rawId: b64url(cred.id),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge as string, origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },

    authenticate(options, origin) {
      const rpId = options.rpId as string;
      const cred = held.findLast((c) => c.rpId === rpId);
      if (!cred) throw new Error(`no passkey for ${rpId}`);
      cred.counter += 1;
      const authData = Buffer.concat([sha256(rpId), Buffer.from([UP | UV]), counterBytes(cred.counter)]);
      const data = clientData('webauthn.get', options.challenge as string, origin);
      const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), cred.privateKey);
      return {
        id: b64url(cred.id),
        rawId: b64url(cred.id),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: cred.userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}
