import { MICROSOFT_CONSUMER_TENANT, type OAuthProviderName } from './providers.js';

// Reading the id_token of an authorization-code exchange.
//
// No signature check, on purpose: OpenID Connect Core 1.0 §3.1.3.7 (item 6) lets a client that received the
// id_token directly from the token endpoint over TLS use the TLS server validation in place of checking the
// token's signature. That is the only way this code receives id_tokens: from its own back-channel POST to
// the provider's token endpoint (https in production), authenticated with the client secret and bound to
// this browser by PKCE. Never pass it a token that arrived any other way (a query string, a form post, a
// request body). The claims that still matter are checked: the issuer, the audience (our client id, and
// `azp` when several audiences are named), and the expiry.

export interface OAuthIdentity {
  /** As the provider states it (not yet normalized). */
  email: string;
  /** Whether the provider vouches that the account owns the address (see `identityFromClaims`). */
  emailVerified: boolean;
}

export class IdTokenError extends Error {}

/** Tolerated clock difference between us and the provider. */
const CLOCK_SKEW_S = 300;

export function decodeJwtPayload(jwt: string): Record<string, unknown> {
  const parts = jwt.split('.');
  if (parts.length !== 3 || !parts[1]) throw new IdTokenError('The id_token is not a JWT.');
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    throw new IdTokenError('The id_token payload is not JSON.');
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new IdTokenError('The id_token payload is not an object.');
  }
  return payload as Record<string, unknown>;
}

export interface IdTokenCheck {
  clientId: string;
  issuerOk: (claims: Record<string, unknown>) => boolean;
  /** Epoch ms. */
  now: number;
}

/** The claims of an id_token from the token endpoint, after checking issuer, audience and expiry. */
export function readIdToken(jwt: string, check: IdTokenCheck): Record<string, unknown> {
  const claims = decodeJwtPayload(jwt);
  if (!check.issuerOk(claims)) throw new IdTokenError(`The id_token comes from an unexpected issuer.`);
  const aud = claims.aud;
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.includes(check.clientId))
    throw new IdTokenError('The id_token is meant for another client.');
  if (audiences.length > 1 && claims.azp !== check.clientId) {
    throw new IdTokenError('The id_token was issued to another party (azp).');
  }
  if (typeof claims.exp !== 'number' || claims.exp * 1000 + CLOCK_SKEW_S * 1000 <= check.now) {
    throw new IdTokenError('The id_token has expired.');
  }
  return claims;
}

const truthy = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1';

/**
 * The address a provider's claims (id_token or userinfo) name, and whether it is verified:
 * - Google: `email_verified` (`verified_email` in the v2 userinfo answer).
 * - Microsoft: the `email` claim of a work or school account is whatever an administrator of that tenant
 *   typed in, so it proves nothing by itself (the "nOAuth" confusion). It is taken as verified for personal
 *   Microsoft accounts (the consumer tenant, whose addresses Microsoft confirms) and when the optional claim
 *   `xms_edov` says the tenant owns the address's domain. Userinfo carries neither, so an address known only
 *   from there is not verified.
 */
export function identityFromClaims(
  provider: OAuthProviderName,
  claims: Record<string, unknown>,
): OAuthIdentity | null {
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (!email) return null;
  if (provider === 'google') {
    return { email, emailVerified: truthy(claims.email_verified) || truthy(claims.verified_email) };
  }
  return { email, emailVerified: claims.tid === MICROSOFT_CONSUMER_TENANT || truthy(claims.xms_edov) };
}
