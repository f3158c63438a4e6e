// What GET /mailbox-settings suggests for an address: the IMAP server and where the suggestion came from
// (the answer's shape is contract/api/mailbox-settings.ts).

export interface ImapSettings {
  host: string;
  port: number;
  /** true: TLS from the first byte (IMAPS, port 993); false: STARTTLS. */
  secure: boolean;
}

export type SuggestionSource = 'srv' | 'autoconfig' | 'table';

export interface Suggestion {
  imap: ImapSettings | null;
  source: SuggestionSource | null;
}

export const NO_SUGGESTION: Suggestion = { imap: null, source: null };
