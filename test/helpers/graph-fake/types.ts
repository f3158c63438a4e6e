// The public types of the Graph fake (see index.ts for what it implements and the docs it follows).

export interface FakeAddress {
  name: string;
  address: string;
}

export interface FakeHeader {
  name: string;
  value: string;
}

export interface FakeMessageInput {
  subject: string;
  from: FakeAddress | null;
  /** ISO 8601; defaults to now. */
  receivedDateTime?: string;
  /** null: a message that came with no internet headers (Graph omits them for some internal mail). */
  headers?: FakeHeader[] | null;
  isRead?: boolean;
  /** The MIME source `GET /me/messages/{id}/$value` answers; built from the fields when unset. */
  raw?: string;
}

/** Personal Microsoft accounts (Outlook.com, Hotmail): the consumer tenant. */
export const CONSUMER_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

export interface FakeUserOptions {
  /** Tenant of the account; default the consumer tenant (a personal Outlook.com account). */
  tenantId?: string;
  /** Adds the optional claim `xms_edov` with this value to the user's id_tokens. */
  emailDomainVerified?: boolean;
}

export type FaultKind = 'throttle' | 'unavailable' | 'error' | 'hang';

export interface Fault {
  kind: FaultKind;
  /** How many matching requests get the fault. */
  count: number;
  /** Which requests (method + path + query, e.g. `GET /v1.0/me/mailFolders/…`); all when unset. */
  match?: RegExp;
  /** Retry-After seconds for throttle / unavailable (1 by default). */
  retryAfter?: number;
}

export interface LoggedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  status: number | 'hang';
  at: number;
  /** The user whose token the request carried, when it carried a known one. */
  userId: string | null;
}

export interface GraphFakeOptions {
  clientId?: string;
  clientSecret?: string;
  /** Access token lifetime in seconds (3599 like the real endpoint). */
  accessTokenLifetime?: number;
  /** Issue a new refresh token on every refresh, as Microsoft does. Default true. */
  rotateRefreshTokens?: boolean;
  /** Registered redirect URIs of the app; any http(s) URI is accepted when unset. */
  redirectUris?: string[];
}

/** A message sent through `POST /me/sendMail`. */
export interface FakeSentMail {
  userId: string;
  from: string;
  to: string[];
  subject: string;
  body: { contentType: string; content: string };
  saveToSentItems: boolean;
  at: number;
}

export interface FakeMessageRule {
  id: string;
  displayName: string;
  sequence: number;
  isEnabled: boolean;
  conditions: { fromAddresses?: Array<{ emailAddress: { name?: string; address: string } }> };
  actions: { moveToFolder?: string; delete?: boolean; stopProcessingRules?: boolean };
}

export interface GraphFake {
  /** The origin to put in MICROSOFT_BASE_URL. */
  url: string;
  /** Every message sent with sendMail, oldest first. */
  sentMail: FakeSentMail[];
  clientId: string;
  clientSecret: string;
  requests: LoggedRequest[];
  addUser(email: string, options?: FakeUserOptions): FakeMailbox;
  /** Authorization codes issued so far (for assertions on the authorization requests). */
  authorizations: Array<{ userId: string; scope: string; codeChallengeMethod: string | null }>;
  /** Makes the next matching requests fail. */
  fault(fault: Fault): void;
  /** Every outstanding delta and skip token of the folder (of every folder when unset) answers 410. */
  invalidateDeltaTokens(folderId?: string): void;
  /** Every access token issued so far is expired. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

export interface FakeMailbox {
  id: string;
  email: string;
  /** A refresh token as the authorization code flow would have issued it. */
  issueRefreshToken(): string;
  /** Revokes every refresh and access token of the user (password reset, consent withdrawn). */
  revokeGrants(): void;
  /** Refresh tokens that the token endpoint has issued, oldest first. */
  refreshTokens(): string[];
  /** Refuse Graph calls even with valid tokens (401), or stop doing so. */
  refuseGraph(refuse: boolean): void;
  /** Make the account one without a mailbox Graph can reach (404 MailboxNotEnabledForRESTAPI). */
  removeMailbox(): void;
  /** Folder id of a well-known folder (inbox, junkemail, …). */
  wellKnown(name: string): string;
  addFolder(displayName: string, parent?: string, options?: { hidden?: boolean }): string;
  addMessage(folderId: string, input: FakeMessageInput): string;
  markRead(messageId: string): void;
  moveMessage(messageId: string, folderId: string): void;
  deleteMessage(messageId: string): void;
  /** The folder, its children and the mail in them, gone for good (deleted, then emptied from the trash). */
  deleteFolder(folderId: string): void;
  messagesIn(folderId: string): Array<{ id: string; subject: string; receivedDateTime: string }>;
  /** Sender address of each message of a folder (for assertions on moves). */
  sendersIn(folderId: string): string[];
  /** The Inbox message rules of the user. */
  rules(): FakeMessageRule[];
}
