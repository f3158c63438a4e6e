import type { Generated } from 'kysely';

// Table types for Kysely. Times are epoch milliseconds (bigint in PostgreSQL, integer in SQLite);
// booleans are 0/1 integers so one schema serves both dialects.

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  plan: Generated<string>;
  alert_manual_unsubscribe: Generated<number>;
  alert_after_unsubscribe: Generated<number>;
  created_at: number;
}

export interface SessionsTable {
  /** sha256 of the cookie token: a database leak does not yield usable cookies. */
  id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface MailboxesTable {
  id: string;
  user_id: string;
  email: string;
  /** gmail | outlook | yahoo | icloud | aol | imap */
  provider: string;
  /** active | reauth (the grant was revoked or expired) */
  status: Generated<string>;
  /** App password or refresh token, sealed with AES-256-GCM (lib/crypto SecretBox). */
  secret: string | null;
  created_at: number;
}

export interface Database {
  mailboxes: MailboxesTable;
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
}
