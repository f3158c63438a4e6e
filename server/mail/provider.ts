import type { HeaderFields } from './headers/headers.js';

// The small, neutral port between the product and a user's mailbox (docs/ARCHITECTURE.md, the mail port). Adapters: imap/,
// gmail/, graph/. Scans only ever see HeaderFields, never bodies.

/** The header fields a scan reads (and all that detection needs); adapters ask for exactly these. */
export const SCAN_HEADER_FIELDS = [
  'From',
  'Date',
  'Subject',
  'Message-ID',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'List-Id',
  'Precedence',
  // The posting address of a discussion list: a poster's mail is shown with the list it came through.
  'List-Post',
] as const;

/** One message as a scan sees it: where it is, and the header fields detection needs. */
export interface MessageHeaders {
  /** Provider id, stable within the mailbox (IMAP: `<folder>/<uidvalidity>/<uid>`). */
  id: string;
  folder: string;
  /** Epoch ms from the Date header, else the server's internal date, else null. */
  date: number | null;
  fields: HeaderFields;
  /** Read by the user (IMAP \Seen, Gmail without UNREAD, Graph isRead); null or absent when unknown. */
  seen?: boolean | null;
}

/** The read state of a message the product may already know, as the provider has it now. */
export interface ReadStateChange {
  /** Provider id, as in MessageHeaders. */
  id: string;
  seen: boolean;
}

/**
 * Adapter-specific position of a scan or of the daily check, JSON-serialisable. It is stored after
 * each committed batch, so a scan killed midway resumes after the last batch it saved.
 */
export type SyncState = Record<string, unknown>;

export interface HeaderBatch {
  messages: MessageHeaders[];
  /** The state to store once this batch is committed. */
  state: SyncState;
  /** Messages seen so far and the total expected (for the progress event). */
  progress: { scanned: number; total: number };
  /**
   * The daily check's flag changes: read states of messages handed out before (by an earlier scan or
   * check), applied by id to the references the product keeps; ids it does not keep are ignored. May
   * repeat a state already known, never report one older than the batch's messages.
   */
  flags?: ReadStateChange[];
}

/** What the daily check may ask of the product while it runs. */
export interface ChangesOptions {
  /**
   * Provider ids of the messages whose read state the product keeps (the references of subscription
   * senders). IMAP servers without CONDSTORE have no cheaper way to report flag changes than a flags-only
   * fetch of these; the other adapters never call it.
   */
  knownMessages?: () => Promise<string[]>;
}

export interface Folder {
  path: string;
  name: string;
  specialUse: string | null;
  /** Excluded from scans: \Trash, \Junk, \Sent, \Drafts, \All. */
  scanned: boolean;
  /** Kept by the provider for itself (Gmail's system labels: UNREAD, CATEGORY_…): nothing is filed there. */
  system?: boolean;
}

export interface MailProvider {
  /** Logs in and out; throws MailAuthError or MailConnectionError. */
  verify(): Promise<void>;
  listFolders(): Promise<Folder[]>;
  /** Every message of the scanned folders, newest first, in batches; resumes from a stored state. */
  scan(from: SyncState | null): AsyncIterable<HeaderBatch>;
  /**
   * Only what arrived since a completed scan's state (the daily check), and the read states that
   * changed since (HeaderBatch.flags).
   */
  changesSince(state: SyncState, options?: ChangesOptions): AsyncIterable<HeaderBatch>;
  /**
   * Sends a message from the user's own mailbox (the mailto unsubscribe request). Throws
   * MailSendUnavailableError when the mailbox has no way to send (a custom IMAP host without SMTP).
   */
  send(message: OutgoingMessage): Promise<SendResult>;
  /**
   * Moves the existing mail of a sender (every scanned folder) to the trash. `onMoved` is told, as each
   * group of messages lands there, where each one went, where it came from and the id it had there
   * (`previous`), so that restoreFromTrash can move it back and the product's references follow it (what
   * was moved before a failure is reported too).
   */
  moveToTrash(
    query: { from: string },
    onMoved?: (moved: MovedMessage[]) => Promise<void>,
  ): Promise<TrashResult>;
  /**
   * Moves messages moveToTrash put in the trash back to where they came from (undoing a block). Messages no
   * longer in the trash (deleted for good, or moved by the user) are skipped and counted as `missing`.
   * `ruleSince`: the block's provider-side rule (createBlockRule) has sent the sender's mail arriving
   * since then (epoch ms) to the trash; what of it is still there goes back to the inbox too, counted in
   * `restored`. Providers without such rules ignore it (their checks' moves are in `messages`).
   */
  restoreFromTrash(query: {
    from: string;
    messages: TrashedMessage[];
    ruleSince?: number;
    /** As restoreMoved's: every message moved back, group by group. */
    onRestored?: (moved: MovedMessage[]) => Promise<void>;
  }): Promise<RestoreResult>;
  /**
   * A provider-side rule sending the sender's future mail to the trash; null when the provider has none
   * (IMAP: the product applies its own rule at every check).
   */
  createBlockRule(address: string): Promise<{ ref: string } | null>;
  /**
   * Removes a rule createBlockRule made (Keep lifts a block). A rule already gone (deleted by the user in
   * the provider's settings) counts as removed.
   */
  removeBlockRule(ref: string): Promise<void>;
  /**
   * A sender's messages (exact From address, as moveToTrash matches it), newest first, with where each is
   * and its date. `scope` 'inbox': the inbox only; 'mail': every scanned folder; `{folder}`: that folder
   * (its path as listFolders gives it; none when it is gone). `before` (epoch ms): only messages dated
   * before it. The sender rules and the Screener choose from this what to move.
   */
  findSenderMessages(query: {
    from: string;
    scope: 'inbox' | 'mail' | { folder: string };
    before?: number;
  }): Promise<FoundMessage[]>;
  /**
   * Moves messages findSenderMessages found to a destination. `onMoved` is told, group by group, where each
   * landed and where it came from (as for moveToTrash), so that restoreMoved can put it back. A message no
   * longer where it was found is skipped.
   */
  moveMessages(
    messages: FoundMessage[],
    destination: Destination,
    onMoved?: (moved: MovedMessage[]) => Promise<void>,
  ): Promise<TrashResult>;
  /**
   * Puts back messages moveMessages sent to `destination`: only those still there move (to their origin;
   * to the inbox when the origin is gone); the others are counted `missing`. `onRestored` hears, group by
   * group, of every message moved back: `id` its id now, `origin` the folder it went back to, `previous`
   * the id it had at the destination (the same id where the provider's ids do not change with folders).
   */
  restoreMoved(
    messages: TrashedMessage[],
    destination: Destination,
    onRestored?: (moved: MovedMessage[]) => Promise<void>,
  ): Promise<RestoreResult>;
  /** The folder (Gmail: label) of this name, created when the mailbox has none. */
  createFolder(name: string): Promise<Folder>;
  /**
   * A provider-side rule filing the sender's future mail in a folder (`path` as listFolders gives it) and
   * out of the inbox; null when the provider has none (IMAP: the product files at every check). Removed
   * with removeBlockRule.
   */
  createFolderRule(address: string, path: string): Promise<{ ref: string } | null>;
  /**
   * The raw RFC 822 source of one message by its provider id (the preview); null when the message no
   * longer exists (deleted, moved, IMAP UIDVALIDITY changed).
   */
  fetchMessage(id: string): Promise<Buffer | null>;
  close(): Promise<void>;
}

export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
}

export interface SendResult {
  accepted: boolean;
  /** The provider's answer, for the receipt (SMTP reply line, Gmail message id, Graph status). */
  response: string;
}

export interface TrashResult {
  /** Messages moved to the trash. */
  moved: number;
  /** Provider calls that moved them (IMAP MOVE commands, Gmail batchModify, Graph move requests). */
  calls: number;
  /**
   * Moved messages whose place in the trash is not known, so an undo cannot bring them back (an IMAP server
   * without UIDPLUS, and a message without a Message-ID to find it by). Absent when there are none.
   */
  untracked?: number;
}

/**
 * A message moveToTrash moved: `id` in the trash (IMAP `<trash>/<uidvalidity>/<uid>`, Gmail the message id,
 * Graph the moved message's id) and `origin`, where it was (IMAP the folder path, Gmail the labels the move
 * took off, comma-separated: `INBOX`, `INBOX,Label_5`, '' for none; Graph the source folder's id). Ids only,
 * never content.
 */
export interface TrashedMessage {
  id: string;
  origin: string;
}

/**
 * A message of a sender where findSenderMessages found it: provider id, the adapter's folder reference (IMAP
 * the folder path, Gmail `INBOX` or '', Graph the folder id), date (epoch ms).
 */
export interface FoundMessage {
  id: string;
  folder: string;
  date: number | null;
}

/**
 * Where moveMessages sends mail: a folder by its listFolders path, the trash, the archive (IMAP \Archive,
 * else the folder named Archive, created when missing; Gmail: out of the inbox; Graph: the well-known
 * `archive` folder).
 */
export type Destination = { kind: 'folder'; path: string } | { kind: 'trash' } | { kind: 'archive' };

/**
 * An origin every adapter's restoreMoved reads as the inbox: for mail a provider-side rule filed, which the
 * product never saw in the inbox (IMAP's INBOX, Gmail's INBOX label, Graph's well-known `inbox`).
 */
export const INBOX_ORIGIN = 'INBOX';

/**
 * A message moveMessages moved: as TrashedMessage (`id` at the destination, `origin` where it was), with
 * `previous`, its provider id before the move. IMAP ids change with the folder; the product re-points its
 * reference so the next check does not count the message again in its new folder.
 */
export interface MovedMessage extends TrashedMessage {
  previous: string;
}

export interface RestoreResult {
  /** Messages moved back out of the trash. */
  restored: number;
  /** Messages recorded as trashed that were no longer there. */
  missing: number;
}

/** The mailbox refused the credentials (wrong app password, revoked grant): the user must act. */
export class MailAuthError extends Error {
  readonly kind = 'auth';
}

/** The server could not be reached or dropped the connection: retrying later may work. */
export class MailConnectionError extends Error {
  readonly kind = 'connection';
}

/** The mailbox cannot send mail through the product (a custom IMAP host with no SMTP settings). */
export class MailSendUnavailableError extends Error {
  readonly kind = 'send-unavailable';
}

/** A provider's API answered with an error the adapter does not handle itself (Gmail's, Graph's). */
export class MailApiError extends Error {}

/**
 * Whether an error comes from the mail side (the server, the provider's API, the credentials): its message is
 * written for the user and names what failed. Anything else is a fault of ours.
 */
export function isMailError(error: unknown): boolean {
  return (
    error instanceof MailAuthError ||
    error instanceof MailConnectionError ||
    error instanceof MailSendUnavailableError ||
    error instanceof MailApiError
  );
}
