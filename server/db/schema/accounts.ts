import type { Generated } from 'kysely';

// The account: its user row, sign-in and its limits, sessions, tokens mailed, and what was done with it.
// Conventions (times, booleans, unions): ../schema.ts.

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  plan: Generated<string>;
  alert_manual_unsubscribe: Generated<number>;
  alert_after_unsubscribe: Generated<number>;
  /** 1: senders still sending after the grace period are blocked at the next check. */
  auto_block_still_sending: Generated<number>;
  /** Unsubscribes the free trial has used (reserved before the sender is contacted). */
  trial_unsubscribes_used: Generated<number>;
  /** 1 once the address is proven (docs/decisions/056-proven-addresses-and-takeover.md). */
  email_verified: Generated<number>;
  /** 1: the weekly report is mailed to the user (features/report); off by default. */
  weekly_report: Generated<number>;
  created_at: number;
  /**
   * Set only on the stand-in account of a sign-up with an address that has an account: the address typed,
   * while `email` is a placeholder (docs/decisions/057-sign-up-does-not-reveal-accounts.md).
   */
  duplicate_signup_email: string | null;
  /** The TOTP secret, sealed (lib/crypto SecretBox); set once two-step sign-in is on. */
  totp_secret: string | null;
  /** A secret between POST /auth/totp/setup and its first good code (enable), sealed. */
  totp_pending_secret: string | null;
  /** The last TOTP time step a code was accepted for: a code works once. */
  totp_last_step: number | null;
}

export interface SessionsTable {
  /** sha256 of the cookie token: a database leak does not yield usable cookies. */
  id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  /** The browser's User-Agent at sign-in, cut to 300 characters. */
  user_agent: string | null;
  /** Updated at most every few minutes while the session is used. */
  last_seen_at: number | null;
  /** sha256 of the browser's device cookie. */
  device: string | null;
}

export interface EmailVerificationsTable {
  token_hash: string;
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

/** Failed password sign-ins per address; `key` is the sha256 of the normalized address. */
export interface SigninFailuresTable {
  key: string;
  failures: number;
  last_at: number;
  locked_until: number;
}

/** Mails sent about an account unasked-for, by sha256 of the address, for the per-address budget. */
export interface AccountMailsTable {
  key: string;
  /** notice: verification links, sign-up notices, new sign-ins; reset: password-reset links. */
  kind: 'notice' | 'reset';
  sent_at: number;
}

/** The browsers a user signed in from: sha256 of a long-lived cookie's value. */
export interface UserDevicesTable {
  user_id: string;
  device_hash: string;
  first_seen_at: number;
}

/** What was done with an account as a whole, by its user (a data export); deleted with the account. */
export interface AccountAuditTable {
  id: string;
  user_id: string;
  action: 'export-json' | 'export-csv';
  created_at: number;
}

/**
 * A weekly report claimed for a user and a week (features/report): written before the mail is sent, so no
 * two instances send the same week; sent_at once the mail went out. token_hash: sha256 of that mail's
 * unsubscribe token (the link in its List-Unsubscribe).
 */
export interface WeeklyReportsTable {
  user_id: string;
  /** The ISO week reported, e.g. 2026-W47 (Monday to Sunday, UTC). */
  week: string;
  token_hash: string;
  claimed_at: number;
  sent_at: number | null;
}
