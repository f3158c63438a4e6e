import type { OAuthErrorCode } from '#contract/oauth-errors.js';
import { normalizeEmail, validateEmail } from '#contract/validation.js';
import type { AccountsService, SessionMeta } from '../accounts/service.js';
import { type MailboxesService, MailboxLimitError } from '../mailboxes/service.js';
import { codeChallenge, newFlow, type OAuthFlow } from './flow.js';
import { IdTokenError, identityFromClaims, type OAuthIdentity, readIdToken } from './id-token.js';
import {
  type OAuthConfig,
  type OAuthIntent,
  type OAuthProviderName,
  type OAuthProviderSpec,
  oauthProvider,
  unavailableReason,
} from './providers.js';

// Sign-up, sign-in and add-account with Google (Gmail) and Microsoft (Outlook): the authorization code flow
// with PKCE. `begin` builds the authorization request; `complete` redeems the code, learns the address,
// finds or creates the user and stores the mailbox with its refresh token. The HTTP side (cookie, state
// check, redirects) is in http/routes/oauth.ts.

/**
 * A sign-in that cannot finish. The code travels to the screens, which show a fixed text for it
 * (contract/oauth-errors.ts); the detail goes to the log only.
 */
export class OAuthFailure extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly detail?: string,
  ) {
    super(code);
  }
}

export interface OAuthDeps {
  config: OAuthConfig;
  accounts: Pick<AccountsService, 'findOrCreateVerifiedUser' | 'openSession'>;
  mailboxes: Pick<MailboxesService, 'connectOAuth'>;
  fetchImpl?: typeof fetch;
  now?: () => number;
  /** Per call to the provider. */
  timeoutMs?: number;
}

export interface CompletedSignin {
  userId: string;
  /** null: a sign-in whose mailbox was not connected (the free trial has its one mailbox already). */
  mailboxId: string | null;
  /** A new session, for intents signin and signup. */
  sessionToken: string | null;
  /** Instead of a session: the account has two-step sign-in on, and the code is asked next. */
  secondStep: string | null;
  /** Whether a user was created (sign-up, or a first sign-in with this address). */
  userCreated: boolean;
  /** Whether this sign-in took over an account whose address was never proven (its password removed). */
  tookOver: boolean;
}

interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  id_token?: unknown;
  scope?: unknown;
  error?: unknown;
  error_description?: unknown;
}

export function createOAuthService({
  config,
  accounts,
  mailboxes,
  fetchImpl = fetch,
  now = Date.now,
  timeoutMs = 15_000,
}: OAuthDeps) {
  function spec(name: OAuthProviderName): OAuthProviderSpec {
    const found = oauthProvider(name, config);
    if (!found) throw new Error(unavailableReason(name, config) ?? `${name} is not configured`);
    return found;
  }

  async function call(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new OAuthFailure('unreachable', `${url}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async function redeem(p: OAuthProviderSpec, code: string, verifier: string): Promise<TokenAnswer> {
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: p.redirectUri,
      client_id: p.clientId,
      client_secret: p.clientSecret,
      code_verifier: verifier,
    });
    if (p.scopeInTokenRequest) form.set('scope', p.scopes.join(' '));
    const res = await call(p.tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form,
    });
    const answer = (await res.json().catch(() => ({}))) as TokenAnswer;
    if (res.ok && typeof answer.access_token === 'string') return answer;
    const error = typeof answer.error === 'string' ? answer.error : `HTTP ${res.status}`;
    const detail = `token endpoint: ${error} ${typeof answer.error_description === 'string' ? answer.error_description.split(/\r?\n/)[0] : ''}`;
    throw new OAuthFailure(error === 'invalid_grant' ? 'grant_rejected' : 'token_failed', detail);
  }

  async function identify(p: OAuthProviderSpec, tokens: TokenAnswer): Promise<OAuthIdentity> {
    if (typeof tokens.id_token === 'string') {
      let claims: Record<string, unknown>;
      try {
        claims = readIdToken(tokens.id_token, { clientId: p.clientId, issuerOk: p.issuerOk, now: now() });
      } catch (err) {
        if (!(err instanceof IdTokenError)) throw err;
        throw new OAuthFailure('unconfirmed', err.message);
      }
      const identity = identityFromClaims(p.name, claims);
      if (identity) return identity;
    }
    // No id_token, or one without the email claim: the userinfo endpoint with the new access token.
    const res = await call(p.userinfoUrl, {
      headers: { Authorization: `Bearer ${String(tokens.access_token)}`, Accept: 'application/json' },
    });
    const claims = res.ok ? ((await res.json().catch(() => null)) as Record<string, unknown> | null) : null;
    // Userinfo claims are not bound to a tenant: Microsoft's are never taken as verified.
    const identity = claims ? identityFromClaims(p.name, { ...claims, tid: undefined }) : null;
    if (!identity) {
      throw new OAuthFailure('no_email', `userinfo answered ${res.status}`);
    }
    return identity;
  }

  return {
    /** null when the provider can be used; else the message naming the variables to set. */
    unavailable(name: OAuthProviderName): string | null {
      return unavailableReason(name, config);
    },

    /** The flow to keep in the browser's cookie and the provider's authorization URL to send it to. */
    begin(
      name: OAuthProviderName,
      intent: OAuthIntent,
      userId: string | null,
    ): { flow: OAuthFlow; url: string } {
      const p = spec(name);
      const flow = newFlow(name, intent, userId, now());
      const url = new URL(p.authorizeUrl);
      const params: Record<string, string> = {
        client_id: p.clientId,
        redirect_uri: p.redirectUri,
        response_type: 'code',
        scope: p.scopes.join(' '),
        state: flow.state,
        code_challenge: codeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        ...p.authorizeParams,
      };
      for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
      return { flow, url: url.toString() };
    },

    /**
     * Redeems the code of a callback whose state matched `flow`, then signs in (signin, signup) or uses
     * `flow.userId` (add, checked against the session by the caller), and stores the mailbox.
     */
    async complete(flow: OAuthFlow, code: string, meta: SessionMeta = {}): Promise<CompletedSignin> {
      const p = spec(flow.provider);
      const tokens = await redeem(p, code, flow.verifier);
      if (typeof tokens.refresh_token !== 'string' || !tokens.refresh_token) {
        // Google sends a refresh token only with access_type=offline on a consent screen (prompt=consent);
        // Microsoft only for the offline_access scope. Without it the mailbox could be read for an hour.
        throw new OAuthFailure('no_refresh_token', 'token answer without refresh_token');
      }
      if (typeof tokens.scope === 'string') {
        const granted = new Set(tokens.scope.split(/\s+/).filter(Boolean).map(p.normalizeScope));
        const missing = p.requiredScopes.filter((s) => !granted.has(p.normalizeScope(s)));
        if (missing.length > 0) {
          throw new OAuthFailure('missing_scopes', `scopes not granted: ${missing.join(' ')}`);
        }
      }
      const identity = await identify(p, tokens);
      const email = normalizeEmail(identity.email);
      if (validateEmail(email)) {
        throw new OAuthFailure('invalid_email', email);
      }
      if (p.name === 'google' && !identity.emailVerified) {
        throw new OAuthFailure('unverified_email', 'Google account with email_verified false');
      }
      let userId: string;
      let userCreated = false;
      let tookOver = false;
      if (flow.intent === 'add') {
        if (!flow.userId) throw new OAuthFailure('signin_required', 'add flow without a user');
        userId = flow.userId;
      } else {
        if (!identity.emailVerified) {
          throw new OAuthFailure(
            'unverified_work_account',
            'unverified Microsoft email (not a personal account, no xms_edov)',
          );
        }
        ({ userId, created: userCreated, tookOver } = await accounts.findOrCreateVerifiedUser(email));
      }
      let mailboxId: string | null = null;
      try {
        ({ mailboxId } = await mailboxes.connectOAuth(userId, {
          provider: p.mailboxProvider,
          email,
          refreshToken: tokens.refresh_token,
          emailVerified: identity.emailVerified,
        }));
      } catch (error) {
        if (!(error instanceof MailboxLimitError)) throw error;
        // Adding a mailbox needs a plan; signing in does not: the user gets in with the mailbox they have.
        if (flow.intent === 'add')
          throw new OAuthFailure('subscription_required', 'mailbox limit of the free trial');
      }
      if (flow.intent === 'add') {
        return { userId, mailboxId, sessionToken: null, secondStep: null, userCreated, tookOver };
      }
      const outcome = await accounts.openSession(userId, meta);
      return 'secondStep' in outcome
        ? { userId, mailboxId, sessionToken: null, secondStep: outcome.secondStep, userCreated, tookOver }
        : { userId, mailboxId, sessionToken: outcome.token, secondStep: null, userCreated, tookOver };
    },
  };
}

export type OAuthService = ReturnType<typeof createOAuthService>;
