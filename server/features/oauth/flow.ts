import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { OAUTH_INTENTS, type OAuthIntent, type OAuthProviderName } from './providers.js';

// One authorization request in flight: its `state`, its PKCE code verifier (RFC 7636, S256) and what the
// user set out to do. It travels in a short-lived, signed, HttpOnly cookie, so nothing is stored server-side
// for a sign-in that is never finished, and a callback can only complete in the browser that started it.

/** How long a started sign-in stays valid (the cookie's Max-Age too). */
export const FLOW_TTL_MS = 10 * 60 * 1000;

export interface OAuthFlow {
  provider: OAuthProviderName;
  state: string;
  verifier: string;
  intent: OAuthIntent;
  /** For intent add: who started it; the callback must come back to the same signed-in user. */
  userId: string | null;
  expiresAt: number;
}

export function flowCookieName(provider: OAuthProviderName): string {
  return `ig_oauth_${provider}`;
}

export function newFlow(
  provider: OAuthProviderName,
  intent: OAuthIntent,
  userId: string | null,
  now: number,
): OAuthFlow {
  return {
    provider,
    state: randomBytes(32).toString('base64url'),
    // 32 random bytes → 43 characters of the unreserved set, the shortest verifier RFC 7636 allows.
    verifier: randomBytes(32).toString('base64url'),
    intent,
    userId: intent === 'add' ? userId : null,
    expiresAt: now + FLOW_TTL_MS,
  };
}

/** code_challenge for code_challenge_method=S256: BASE64URL(SHA256(verifier)). */
export function codeChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** The cookie value (before signing): the flow as base64url JSON. */
export function encodeFlow(flow: OAuthFlow): string {
  const { provider, state, verifier, intent, userId, expiresAt } = flow;
  return Buffer.from(
    JSON.stringify({ p: provider, s: state, v: verifier, i: intent, u: userId, e: expiresAt }),
  ).toString('base64url');
}

/** The flow of a (verified) cookie value, or null when it is malformed, for another provider or expired. */
export function decodeFlow(value: string, provider: OAuthProviderName, now: number): OAuthFlow | null {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  if (r.p !== provider || typeof r.s !== 'string' || typeof r.v !== 'string') return null;
  if (!(OAUTH_INTENTS as readonly unknown[]).includes(r.i)) return null;
  if (typeof r.e !== 'number' || r.e <= now) return null;
  if (r.u !== null && typeof r.u !== 'string') return null;
  return {
    provider,
    state: r.s,
    verifier: r.v,
    intent: r.i as OAuthIntent,
    userId: r.u as string | null,
    expiresAt: r.e,
  };
}

/** Compares the returned state with the stored one without leaking where they differ. */
export function sameState(expected: string, received: string | undefined): boolean {
  if (!received) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}
