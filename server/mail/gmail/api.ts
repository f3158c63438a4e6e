import { MailApiError } from '../provider.js';
// Gmail's REST API as the client sees it: the quota cost of each method, the shapes of its answers, and
// the error the client hands back for answers it does not handle itself.

/** Units per call, from Google's per-method quota table (15,000 units per user per minute). */
export const QUOTA_UNITS = {
  'messages.list': 5,
  'messages.get': 5,
  'history.list': 2,
  getProfile: 1,
  'labels.list': 1,
  'labels.get': 1,
  'labels.create': 5,
  'messages.batchModify': 50,
  'settings.filters.create': 5,
  'settings.filters.list': 1,
  'settings.filters.delete': 5,
  'messages.send': 100,
} as const;

export type GmailMethod = keyof typeof QUOTA_UNITS;

/** A Gmail answer the client does not handle itself (400 bad query, 404 unknown history id, …). */
export class GmailApiError extends MailApiError {
  constructor(
    message: string,
    readonly status: number,
    readonly reason: string | null,
  ) {
    super(message);
  }
}

export interface GmailHeader {
  name: string;
  value: string;
}

export interface GmailMessage {
  id: string;
  threadId?: string;
  labelIds?: string[];
  historyId?: string;
  internalDate?: string;
  payload?: { headers?: GmailHeader[] };
}

export interface GmailProfile {
  emailAddress: string;
  messagesTotal?: number;
  threadsTotal?: number;
  historyId: string;
}

export interface GmailLabel {
  id: string;
  name: string;
  /** `system` (INBOX, TRASH, CATEGORY_…) or `user`. */
  type?: string;
  /** Messages under the label (labels.get answers it; labels.list may not). */
  messagesTotal?: number;
}

/** Gmail's limit of ids per `messages.batchModify` request. */
export const BATCH_MODIFY_LIMIT = 1000;

export interface MessageList {
  ids: string[];
  nextPageToken: string | null;
  resultSizeEstimate: number;
}

export interface GmailFilterInput {
  criteria: { from?: string };
  action: { addLabelIds?: string[]; removeLabelIds?: string[] };
}

export interface GmailFilter extends GmailFilterInput {
  id: string;
}

export type HistoryType = 'messageAdded' | 'labelAdded' | 'labelRemoved';

export interface HistoryRecord {
  id: string;
  messagesAdded?: Array<{ message: { id: string; labelIds?: string[] } }>;
  /** Labels added to or removed from a message (UNREAD: the user marked it unread, or read). */
  labelsAdded?: Array<{ message: { id: string; labelIds?: string[] }; labelIds?: string[] }>;
  labelsRemoved?: Array<{ message: { id: string; labelIds?: string[] }; labelIds?: string[] }>;
}

export interface HistoryPage {
  history: HistoryRecord[];
  nextPageToken: string | null;
  historyId: string;
}

/** The most calls one batch request should carry (Google: up to 100, more than 50 invites rate limiting). */
export const BATCH_LIMIT = 50;
