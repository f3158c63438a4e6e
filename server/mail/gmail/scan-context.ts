import type { GmailClient } from './client.js';

// What every step of the full scan (scan.ts, scan-senders.ts) is given, and the names its quota units are
// counted under.

export interface ScanContext {
  client: GmailClient;
  /** The mailbox's own address: never a subscription, excluded from discovery. */
  self: string;
  passes: readonly string[];
  /**
   * How deep into each sender's newest messages metadata may be fetched (default 5). Within them only what
   * exactness needs is fetched (wantedNext): usually the newest and one more.
   */
  detailPerSender: number;
  /**
   * Most unknown ids fetched per discovery round. Rounds start at 5 and then size themselves by how many
   * new senders the last one found: a get whose sender turns out to be another's in the same round is waste.
   */
  discoveryChunk: number;
  maxQueryLength: number;
}

/** What the scan's units buy, for quotaUnitsByKind (docs/benchmarks.md, "Gmail quota units"). */
export const SCAN_KINDS = {
  discoveryList: 'discovery: list',
  discoveryGet: 'discovery: get',
  senderList: 'sender: id listing',
  readList: 'senders: read-state listing',
  newestGet: 'sender: newest gets',
  resumeList: 'resume: id listing',
  history: 'end: history.list',
} as const;
