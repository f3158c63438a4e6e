import { randomUUID } from 'node:crypto';
import type { AddMailboxBody, AppPasswordProvider, EmailAccount, MailboxProvider } from '#contract/api.js';
import { BILLING_MESSAGES } from '#contract/api.js';
import {
  imapServerRule,
  type OAuthMailboxProvider,
  providerById,
  reauthUrl as providerReauthUrl,
} from '#contract/providers.js';
import { SCREENS } from '#contract/routes.js';
import {
  exactHost,
  ForbiddenAddressError,
  type HostLookup,
  resolvePublicHost,
} from '#server/lib/address-policy.js';
import type { SecretBox } from '#server/lib/crypto.js';
import {
  InvalidInputError,
  NotFoundError,
  PlanRequiredError,
  ReauthRequiredError,
  UpstreamUnavailableError,
} from '#server/lib/errors.js';
import { loginProvesAddress } from '#server/mail/imap/presets.js';
import type { ProviderFactory } from '#server/mail/index.js';
import { MailAuthError, MailConnectionError } from '#server/mail/provider.js';
import { normalizeEmail } from '../accounts/service.js';
import type { Repositories } from '../repositories.js';
import type { AppPasswordMailbox } from './mailbox.js';

// Connecting, listing and removing a user's mailboxes. Secrets are sealed before they are stored
// and never leave this feature and mail/index.ts.

export interface MailboxesDeps {
  repos: Pick<Repositories, 'mailboxes'>;
  secrets: SecretBox;
  providers: ProviderFactory;
  /** Starts the first scan (or a rescan) of a mailbox after it is saved. */
  requestScan: (mailboxId: string) => Promise<void>;
  now?: () => number;
  /** Private hosts allowed as a user's IMAP server anyway (IMAP_ALLOWED_HOSTS). */
  allowedHosts?: ReadonlySet<string>;
  /** Resolver of the host typed (the same the connections use; tests play DNS). */
  lookup?: HostLookup;
  /** How many mailboxes the user may have (the free trial's limit); null: no limit. */
  mailboxLimit?: (userId: string) => Promise<number | null>;
  /** A mailbox logged in with working credentials at `email` (accounts: proves the user's own address). */
  addressProven?: (userId: string, email: string) => Promise<void>;
  /** A mailbox was stored (billing: the free trial a deleted account used with that address counts). */
  mailboxAdded?: (userId: string, email: string) => Promise<void>;
  /** A mailbox was removed: its kept connections log out now (the preview pool). */
  mailboxRemoved?: (mailboxId: string) => void;
}

/** Adding another mailbox needs a plan; the add-account screen offers the plans on this text. */
export class MailboxLimitError extends PlanRequiredError {
  constructor() {
    super(BILLING_MESSAGES.subscriptionRequired);
  }
}

/** The providers connected through OAuth (contract/providers.ts); their secret is a refresh token. */
export type { OAuthMailboxProvider };

/**
 * Stores a new sealed secret on a mailbox in place of `replacing` (a refresh token Microsoft rotated during
 * a scan); false, storing nothing, when a new grant replaced it meanwhile.
 */
export async function saveMailboxSecret(
  repos: Pick<Repositories, 'mailboxes'>,
  mailboxId: string,
  sealed: string,
  replacing: string | null,
): Promise<boolean> {
  return repos.mailboxes.saveSecret(mailboxId, sealed, replacing);
}

/**
 * Where the user re-enters credentials for a mailbox whose password or grant stopped working (the
 * 401 redirectUrl and the unsubscribe answers' authUrl): the provider table's, the same the Email
 * Accounts screen's Reconnect opens.
 */
export function reauthUrl(mailbox: { provider: MailboxProvider; email: string }): string {
  return providerReauthUrl(mailbox);
}

export function createMailboxesService({
  repos,
  secrets,
  providers,
  requestScan,
  now = Date.now,
  allowedHosts = new Set(),
  lookup,
  mailboxLimit = async () => null,
  addressProven = async () => {},
  mailboxAdded = async () => {},
  mailboxRemoved = () => {},
}: MailboxesDeps) {
  const repo = repos.mailboxes;

  /**
   * A server the user typed must be on the public internet, unless the operator allowed it, or it is
   * exactly the form's own default (Proton Mail Bridge on 127.0.0.1: a name resolving there is refused).
   */
  async function checkHost(host: string, port: number, provider: AppPasswordProvider): Promise<void> {
    const preset = providerById(provider)?.addMailbox?.server;
    const allowed =
      preset?.asks === 'optional'
        ? new Set([...allowedHosts, exactHost(preset.defaults.host)])
        : allowedHosts;
    try {
      await resolvePublicHost(host, allowed, lookup);
    } catch (e) {
      if (e instanceof ForbiddenAddressError) {
        throw new InvalidInputError(
          'This mail server is on a private network that Inbox Genie may not connect to.',
        );
      }
      throw new UpstreamUnavailableError(`Could not reach the mail server at ${host}:${port}.`);
    }
  }

  return {
    /** POST /auth/{provider}: checks the form, logs in to verify, stores the mailbox and starts its scan. */
    async connectWithAppPassword(
      userId: string,
      provider: AppPasswordProvider,
      body: AddMailboxBody,
    ): Promise<{ redirectUrl: string }> {
      // The form's rules (the provider's address domain, the app password, the IMAP server) were checked
      // by the route, with the contract's addMailboxBodySchema(provider).
      // Providers whose form asks where the IMAP server is may carry the server the user typed.
      const custom = imapServerRule(provider) !== null;
      if (custom && body.host) await checkHost(body.host.trim(), body.port ?? 993, provider);
      const email = normalizeEmail(body.email);
      const existing = await repo.findByEmail(userId, email);
      // Re-connecting a mailbox is always allowed; a new one may need a plan. Checked before logging in to
      // the mail server, and again when storing (two adds at once).
      const limit = existing ? null : await mailboxLimit(userId);
      if (limit !== null && (await repo.listForUser(userId)).length >= limit) throw new MailboxLimitError();
      const id = existing?.id ?? randomUUID();
      const candidate: AppPasswordMailbox = {
        provider,
        email,
        secret: secrets.seal(body.appPassword),
        server:
          custom && body.host
            ? { kind: 'imap', host: body.host.trim(), port: body.port ?? 993, secure: body.secure !== false }
            : null,
      };
      const mail = providers({ id, ...candidate });
      try {
        await mail.verify();
      } catch (e) {
        if (e instanceof MailAuthError) throw new InvalidInputError(e.message);
        if (e instanceof MailConnectionError) throw new UpstreamUnavailableError(e.message);
        throw e;
      } finally {
        await mail.close();
      }
      // Same mailbox again (a new app password after a revoked one): keep what was found.
      if (existing) await repo.reconnectImap(id, candidate);
      else if (!(await repo.insertImap(id, userId, candidate, now(), limit))) throw new MailboxLimitError();
      // A login at the provider's own server proves an address of the provider's own domains; one at a
      // server the user typed does not (anyone can run a server that accepts any password for any address),
      // nor does Proton Mail Bridge (it accepts whatever account its operator signed in with).
      const proven = !candidate.server && loginProvesAddress(provider, email);
      await repo.setAddressProven(id, proven);
      if (proven) await addressProven(userId, email);
      await mailboxAdded(userId, email);
      await requestScan(id);
      return { redirectUrl: SCREENS.subscriptions };
    },

    /**
     * Stores the mailbox an OAuth sign-in (Gmail, Outlook) granted, with its refresh token sealed, and starts
     * its scan. The same address again (a new grant after a revoked one) keeps what was found; an address
     * that was connected through another provider before starts over, because the stored checkpoint and
     * message ids belong to the other provider's adapter and would count the mail twice.
     */
    async connectOAuth(
      userId: string,
      grant: {
        provider: OAuthMailboxProvider;
        email: string;
        refreshToken: string;
        /** Whether the identity provider vouched that the address is verified (oauth/id-token.ts). */
        emailVerified: boolean;
      },
    ): Promise<{ mailboxId: string; created: boolean }> {
      const email = normalizeEmail(grant.email);
      const secret = secrets.seal(grant.refreshToken);
      const result = await repo.upsertOAuth(
        userId,
        { provider: grant.provider, email, secret },
        now(),
        await mailboxLimit(userId),
      );
      if ('limited' in result) throw new MailboxLimitError();
      // A grant proves the address only when its identity provider says the address is verified: a
      // Microsoft work tenant's `email` claim is whatever its administrator typed (nOAuth), whatever the
      // intent of the flow.
      await repo.setAddressProven(result.mailboxId, grant.emailVerified);
      if (grant.emailVerified) await addressProven(userId, email);
      await mailboxAdded(userId, email);
      await requestScan(result.mailboxId);
      return result;
    },

    async list(userId: string): Promise<EmailAccount[]> {
      const rows = await repo.listForUser(userId);
      return rows.map((r) => ({
        email: r.email,
        provider: r.provider,
        status: r.status,
        lastScannedAt: r.lastScannedAt === null ? null : new Date(r.lastScannedAt).toISOString(),
        error: r.status === 'error' || r.status === 'reauth' ? r.lastError : null,
        lastCheckedAt: r.lastScannedAt === null ? null : new Date(r.lastScannedAt).toISOString(),
        screener: r.screener,
      }));
    },

    /**
     * "Check now" (POST /mailboxes/check): the mailbox's check queued at once. A mailbox whose password or
     * grant was refused is not checked again until the user signs in to it: the answer says where.
     */
    async checkNow(userId: string, emailInput: string): Promise<void> {
      const email = normalizeEmail(emailInput);
      const mailbox = (await repo.listForUser(userId)).find((m) => m.email === email);
      if (!mailbox) throw new NotFoundError('No connected mailbox has this address.');
      if (mailbox.status === 'reauth') {
        throw new ReauthRequiredError(`Please sign in to ${mailbox.email} again.`, {
          redirectUrl: reauthUrl(mailbox),
        });
      }
      await requestScan(mailbox.id);
    },

    /** Removes a mailbox with all of its senders, message references and rules. */
    async remove(userId: string, emailInput: string): Promise<void> {
      const mailbox = await repo.findByEmail(userId, normalizeEmail(emailInput));
      if (!mailbox) throw new NotFoundError('No connected mailbox has this address.');
      await repo.remove(mailbox.id);
      mailboxRemoved(mailbox.id);
    },

    /** The first mailbox that needs the user to sign in again, if any. */
    async needingReauth(userId: string): Promise<{ provider: MailboxProvider; email: string } | undefined> {
      return repo.firstNeedingReauth(userId);
    },
  };
}

export type MailboxesService = ReturnType<typeof createMailboxesService>;
