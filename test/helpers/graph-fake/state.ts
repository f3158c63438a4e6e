import { generateKeyPairSync, type KeyPairKeyObjectResult, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type {
  FakeAddress,
  FakeHeader,
  FakeMessageRule,
  FakeSentMail,
  Fault,
  GraphFake,
  GraphFakeOptions,
  LoggedRequest,
} from './types.js';

// The fake's internal model: what a mailbox stores, and the state one running fake shares between its
// endpoints (tokens, codes, delta rounds, faults, the request log).

export interface StoredFolder {
  id: string;
  displayName: string;
  parentId: string | null;
  wellKnownName: string | null;
  hidden: boolean;
}

export interface StoredMessage {
  id: string;
  folderId: string;
  subject: string;
  from: FakeAddress | null;
  receivedDateTime: string;
  headers: FakeHeader[] | null;
  isRead: boolean;
  raw: string | null;
  /** Change sequence at which the message entered its folder, and of its last change. */
  createdSeq: number;
  updatedSeq: number;
}

export interface FakeUser {
  id: string;
  email: string;
  displayName: string;
  folders: Map<string, StoredFolder>;
  messages: Map<string, StoredMessage>;
  tombstones: Array<{ id: string; folderId: string; seq: number }>;
  rules: FakeMessageRule[];
  seq: number;
  rootId: string;
  /** When true every access token of the user is refused, even a fresh one (a disabled mailbox). */
  refuseGraph: boolean;
  /** An account without an Exchange Online mailbox: mail calls answer 404 MailboxNotEnabledForRESTAPI. */
  noMailbox: boolean;
  /** The directory (tenant) of the account: the consumer tenant for personal accounts. */
  tenantId: string;
  /** The optional `xms_edov` claim; left out of id_tokens when null. */
  emailDomainVerified: boolean | null;
}

/** An authorization code waiting to be redeemed (v2-oauth2-auth-code-flow). */
export interface PendingCode {
  userId: string;
  redirectUri: string;
  scope: string;
  challenge: string | null;
  method: 'S256' | 'plain';
  nonce: string | null;
  expiresAt: number;
  redeemed: boolean;
}

/** One round of a delta query: what it returns was fixed when the round began. */
export interface DeltaRound {
  userId: string;
  folderId: string;
  changeType: 'created' | 'updated' | 'deleted' | null;
  select: string[] | null;
  items: Array<{ removed: string } | { message: StoredMessage }>;
  /** The change sequence the round covers up to; the next round reports what came after. */
  watermark: number;
  offset: number;
  pageSize: number;
}

export interface DeltaState {
  userId: string;
  folderId: string;
  changeType: DeltaRound['changeType'];
  select: string[] | null;
  since: number;
}

/** Everything one running fake shares between its endpoints. */
export interface FakeState {
  clientId: string;
  clientSecret: string;
  /** Access token lifetime in seconds. */
  lifetime: number;
  rotate: boolean;
  redirectUris: string[] | undefined;
  codes: Map<string, PendingCode>;
  authorizations: GraphFake['authorizations'];
  signingKey: KeyPairKeyObjectResult;
  keyId: string;
  users: Map<string, FakeUser>;
  refreshTokens: Map<string, { userId: string; revoked: boolean }>;
  accessTokens: Map<string, { userId: string; expiresAt: number }>;
  rounds: Map<string, DeltaRound>;
  deltaTokens: Map<string, DeltaState>;
  invalid: Set<string>;
  faults: Fault[];
  requests: LoggedRequest[];
  sentMail: FakeSentMail[];
  owners: WeakMap<IncomingMessage, string>;
  /** Set once the server listens. */
  origin: string;
}

export function createState(options: GraphFakeOptions): FakeState {
  return {
    clientId: options.clientId ?? `client-${randomBytes(4).toString('hex')}`,
    clientSecret: options.clientSecret ?? `secret-${randomBytes(8).toString('hex')}`,
    lifetime: options.accessTokenLifetime ?? 3599,
    rotate: options.rotateRefreshTokens ?? true,
    redirectUris: options.redirectUris,
    codes: new Map(),
    authorizations: [],
    // id_tokens are signed RS256 like Microsoft's (the keys are served at /{tenant}/discovery/v2.0/keys).
    signingKey: generateKeyPairSync('rsa', { modulusLength: 2048 }),
    keyId: randomBytes(8).toString('hex'),
    users: new Map(),
    refreshTokens: new Map(),
    accessTokens: new Map(),
    rounds: new Map(),
    deltaTokens: new Map(),
    invalid: new Set(),
    faults: [],
    requests: [],
    sentMail: [],
    owners: new WeakMap(),
    origin: '',
  };
}
