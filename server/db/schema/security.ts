// Second factors (features/security): TOTP, its recovery codes, passkeys and their challenges.
// Conventions (times, booleans, unions): ../schema.ts.

export interface TotpRecoveryCodesTable {
  user_id: string;
  /** sha256 of the normalized code. */
  code_hash: string;
  used_at: number | null;
}

/** A sign-in past its password (or provider) waiting for the second factor; id: sha256 of the cookie token. */
export interface SigninChallengesTable {
  id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

/** A WebAuthn credential: its id and public key (base64url), never a secret. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  public_key: string;
  counter: number;
  /** JSON array of AuthenticatorTransport, or null. */
  transports: string | null;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn challenge handed to one browser; id: sha256 of the cookie token; single use. */
export interface WebauthnChallengesTable {
  id: string;
  /** The signed-in user registering a passkey; null for a sign-in. */
  user_id: string | null;
  challenge: string;
  kind: 'registration' | 'authentication';
  expires_at: number;
}
