import type { EmailAccount, MailboxProvider } from '#contract/api.js';
import type { MailboxCredentials, MailServer } from '#server/mail/index.js';
import type { SyncState } from '#server/mail/provider.js';

// A connected mailbox as the features see it. The mailboxes repository makes it from the stored row
// (toMailbox), so no feature reads columns, 0/1 flags or the checkpoint's JSON. The endpoint the user named
// (MailServer) says which protocol it speaks (`kind`); the adapter of that kind reads its fields.

/** active | scanning | reauth (the password or grant no longer works) | error (the last check failed) */
export type MailboxStatus = EmailAccount['status'];

export type { MailServer };

export interface Mailbox extends MailboxCredentials {
  userId: string;
  provider: MailboxProvider;
  status: MailboxStatus;
  /** The adapter's checkpoint: where a scan stopped, then the daily check's position. */
  syncState: SyncState | null;
  /** The full scan has finished; the daily check then looks only for new mail. */
  scanComplete: boolean;
  lastScannedAt: number | null;
  lastError: string | null;
  /** New senders' mail found by a check waits in the Screener folder (features/organise). */
  screener: boolean;
  createdAt: number;
}

/** What is stored of a mailbox connected with an app password (IMAP). */
export interface AppPasswordMailbox {
  provider: MailboxProvider;
  email: string;
  /** The app password, sealed. */
  secret: string;
  server: MailServer | null;
}
