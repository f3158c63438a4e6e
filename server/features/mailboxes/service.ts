import { randomUUID } from 'node:crypto';
import type { AddMailboxBody, EmailAccount, MailboxProvider } from '../../../contract/api.js';
import { API, SCREENS } from '../../../contract/routes.js';
import { validateAddMailbox, validateImapServer } from '../../../contract/validation.js';
import type { Db } from '../../db/index.js';
import { ForbiddenAddressError, type HostLookup, resolvePublicHost } from '../../lib/address-policy.js';
import type { SecretBox } from '../../lib/crypto.js';
import { badRequest, HttpError, notFound } from '../../lib/errors.js';
import type { ProviderFactory } from '../../mail/index.js';
import { MailAuthError, MailConnectionError } from '../../mail/provider.js';
import { normalizeEmail } from '../accounts/service.js';

// Connecting, listing and removing a user's mailboxes. Secrets are sealed before they are stored
// and never leave this feature and mail/index.ts.

export interface MailboxesDeps {
  db: Db;
  secrets: SecretBox;
  providers: ProviderFactory;
  /** Starts the first scan (or a rescan) of a mailbox after it is saved. */
  requestScan: (mailboxId: string) => Promise<void>;
  now?: () => number;
  /** Private hosts allowed as a user's IMAP server anyway (IMAP_ALLOWED_HOSTS). */
  allowedHosts?: ReadonlySet<string>;
  /** Resolver of the host typed (the same the connections use; tests play DNS). */
  lookup?: HostLookup;
}

const STATUS: Record<string, EmailAccount['status']> = {
  active: 'active',
  scanning: 'scanning',
  reauth: 'reauth',
  error: 'error',
};

/** The providers connected through OAuth; their secret is a refresh token. */
export type OAuthMailboxProvider = 'gmail' | 'outlook';

/** Stores a new sealed secret on a mailbox (a refresh token Microsoft rotated during a scan). */
export async function saveMailboxSecret(db: Db, mailboxId: string, sealed: string): Promise<void> {
  await db.updateTable('mailboxes').set({ secret: sealed }).where('id', '=', mailboxId).execute();
}

/** Where the user re-enters credentials for a mailbox whose password or grant stopped working. */
export function reauthUrl(mailbox: { provider: string; email: string }): string {
  // OAuth mailboxes go through the provider's consent again, as an added account of the signed-in user.
  if (mailbox.provider === 'gmail') return `${API.google}?intent=add`;
  if (mailbox.provider === 'outlook') return `${API.outlook}?intent=add`;
  return `${SCREENS.addMailbox}?provider=${encodeURIComponent(mailbox.provider)}&email=${encodeURIComponent(mailbox.email)}`;
}

export function createMailboxesService({
  db,
  secrets,
  providers,
  requestScan,
  now = Date.now,
  allowedHosts = new Set(),
  lookup,
}: MailboxesDeps) {
  /** A server the user typed must be on the public internet, unless the operator allowed it. */
  async function checkHost(host: string, port: number): Promise<void> {
    try {
      await resolvePublicHost(host, allowedHosts, lookup);
    } catch (e) {
      if (e instanceof ForbiddenAddressError) {
        throw badRequest('This mail server is on a private network that Inbox Genie may not connect to.');
      }
      throw new HttpError(502, `Could not reach the mail server at ${host}:${port}.`);
    }
  }

  return {
    /** POST /auth/{provider}: checks the form, logs in to verify, stores the mailbox and starts its scan. */
    async connectWithAppPassword(
      userId: string,
      provider: string,
      body: AddMailboxBody,
    ): Promise<{ redirectUrl: string }> {
      const error = validateAddMailbox({ provider, email: body.email, appPassword: body.appPassword });
      if (error) throw badRequest(error);
      const custom = provider === 'imap' || provider === 'protonmail';
      if (provider === 'imap' || (custom && body.host !== undefined)) {
        const serverError = validateImapServer({ host: body.host ?? '', port: body.port ?? 993 });
        if (serverError) throw badRequest(serverError);
      }
      if (custom && body.host) await checkHost(body.host.trim(), body.port ?? 993);
      const email = normalizeEmail(body.email);
      const existing = await db
        .selectFrom('mailboxes')
        .select('id')
        .where('user_id', '=', userId)
        .where('email', '=', email)
        .executeTakeFirst();
      const id = existing?.id ?? randomUUID();
      const candidate = {
        provider,
        email,
        secret: secrets.seal(body.appPassword),
        imap_host: custom && body.host ? body.host.trim() : null,
        imap_port: custom && body.host ? (body.port ?? 993) : null,
        imap_secure: custom && body.host ? (body.secure === false ? 0 : 1) : null,
      };
      const mail = providers({ id, ...candidate });
      try {
        await mail.verify();
      } catch (e) {
        if (e instanceof MailAuthError) throw badRequest(e.message);
        if (e instanceof MailConnectionError) throw new HttpError(502, e.message);
        throw e;
      } finally {
        await mail.close();
      }
      if (existing) {
        // Same mailbox again (a new app password after a revoked one): keep what was found.
        await db
          .updateTable('mailboxes')
          .set({ ...candidate, status: 'active', last_error: null })
          .where('id', '=', id)
          .execute();
      } else {
        await db
          .insertInto('mailboxes')
          .values({ id, user_id: userId, ...candidate, status: 'active', created_at: now() })
          .execute();
      }
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
      grant: { provider: OAuthMailboxProvider; email: string; refreshToken: string },
    ): Promise<{ mailboxId: string; created: boolean }> {
      const email = normalizeEmail(grant.email);
      const secret = secrets.seal(grant.refreshToken);
      const result = await db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('mailboxes')
          .select(['id', 'provider'])
          .where('user_id', '=', userId)
          .where('email', '=', email)
          .executeTakeFirst();
        if (!existing) {
          const id = randomUUID();
          const inserted = await trx
            .insertInto('mailboxes')
            .values({
              id,
              user_id: userId,
              email,
              provider: grant.provider,
              secret,
              status: 'active',
              created_at: now(),
            })
            .onConflict((oc) => oc.columns(['user_id', 'email']).doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { mailboxId: id, created: true };
        }
        // Present (or inserted by a concurrent callback of the same user a moment ago): refresh the grant.
        const row =
          existing ??
          (await trx
            .selectFrom('mailboxes')
            .select(['id', 'provider'])
            .where('user_id', '=', userId)
            .where('email', '=', email)
            .executeTakeFirstOrThrow());
        if (row.provider !== grant.provider) {
          await trx.deleteFrom('messages').where('mailbox_id', '=', row.id).execute();
          await trx.deleteFrom('scanned_messages').where('mailbox_id', '=', row.id).execute();
          await trx.deleteFrom('senders').where('mailbox_id', '=', row.id).execute();
        }
        await trx
          .updateTable('mailboxes')
          .set({
            provider: grant.provider,
            secret,
            status: 'active',
            last_error: null,
            imap_host: null,
            imap_port: null,
            imap_secure: null,
            ...(row.provider !== grant.provider
              ? { sync_state: null, scan_complete: 0, last_scanned_at: null }
              : {}),
          })
          .where('id', '=', row.id)
          .execute();
        return { mailboxId: row.id, created: false };
      });
      await requestScan(result.mailboxId);
      return result;
    },

    async list(userId: string): Promise<EmailAccount[]> {
      const rows = await db
        .selectFrom('mailboxes')
        .select(['email', 'provider', 'status', 'last_scanned_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({
        email: r.email,
        provider: r.provider as MailboxProvider,
        status: STATUS[r.status] ?? 'active',
        lastScannedAt: r.last_scanned_at === null ? null : new Date(r.last_scanned_at).toISOString(),
      }));
    },

    /** Removes a mailbox with all of its senders, message references and rules. */
    async remove(userId: string, emailInput: string): Promise<void> {
      const email = normalizeEmail(emailInput);
      const mailbox = await db
        .selectFrom('mailboxes')
        .select('id')
        .where('user_id', '=', userId)
        .where('email', '=', email)
        .executeTakeFirst();
      if (!mailbox) throw notFound('No connected mailbox has this address.');
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('messages').where('mailbox_id', '=', mailbox.id).execute();
        await trx.deleteFrom('scanned_messages').where('mailbox_id', '=', mailbox.id).execute();
        await trx.deleteFrom('senders').where('mailbox_id', '=', mailbox.id).execute();
        await trx.deleteFrom('mailboxes').where('id', '=', mailbox.id).execute();
      });
    },

    /** The first mailbox that needs the user to sign in again, if any. */
    async needingReauth(userId: string): Promise<{ provider: string; email: string } | undefined> {
      return db
        .selectFrom('mailboxes')
        .select(['provider', 'email'])
        .where('user_id', '=', userId)
        .where('status', '=', 'reauth')
        .executeTakeFirst();
    },
  };
}

export type MailboxesService = ReturnType<typeof createMailboxesService>;
