import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { codeChallenge, decodeFlow, encodeFlow, FLOW_TTL_MS, newFlow, sameState } from './flow.js';

describe('OAuth flow cookie', () => {
  const now = Date.UTC(2026, 0, 1);

  it('round-trips a flow and keeps the user only for intent add', () => {
    const add = newFlow('google', 'add', 'user-1', now);
    expect(decodeFlow(encodeFlow(add), 'google', now)).toEqual(add);
    expect(add.userId).toBe('user-1');
    expect(newFlow('google', 'signin', 'user-1', now).userId).toBeNull();
  });

  it('makes a fresh 43-character state and verifier each time', () => {
    const a = newFlow('outlook', 'signup', null, now);
    const b = newFlow('outlook', 'signup', null, now);
    expect(a.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.state).not.toBe(b.state);
    expect(a.verifier).not.toBe(b.verifier);
  });

  it('refuses an expired flow, one of another provider and garbage', () => {
    const flow = newFlow('google', 'signin', null, now);
    expect(decodeFlow(encodeFlow(flow), 'google', now + FLOW_TTL_MS - 1)).not.toBeNull();
    expect(decodeFlow(encodeFlow(flow), 'google', now + FLOW_TTL_MS)).toBeNull();
    expect(decodeFlow(encodeFlow(flow), 'outlook', now)).toBeNull();
    expect(decodeFlow('not-json', 'google', now)).toBeNull();
    const forged = Buffer.from(
      JSON.stringify({ p: 'google', s: 'x', v: 'y', i: 'admin', u: null, e: now + 1 }),
    );
    expect(decodeFlow(forged.toString('base64url'), 'google', now)).toBeNull();
  });

  it('derives the S256 challenge of RFC 7636 appendix B', () => {
    expect(codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    const v = 'abc';
    expect(codeChallenge(v)).toBe(createHash('sha256').update(v).digest('base64url'));
  });

  it('compares states exactly', () => {
    expect(sameState('abc', 'abc')).toBe(true);
    expect(sameState('abc', 'abd')).toBe(false);
    expect(sameState('abc', 'ab')).toBe(false);
    expect(sameState('abc', undefined)).toBe(false);
  });
});
