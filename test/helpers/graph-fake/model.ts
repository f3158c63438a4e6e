import { randomBytes } from 'node:crypto';
import { dkimSign } from '../dkim.js';
import { graphId, HttpError } from './http.js';
import type { FakeState, FakeUser, StoredFolder, StoredMessage } from './state.js';
import { CONSUMER_TENANT, type FakeAddress, type FakeMailbox, type FakeUserOptions } from './types.js';

// --- the mailbox model -------------------------------------------------------------------------

// The default folders Exchange Online provisions, by well-known name (resources/mailfolder). Sync Issues
// and its three children are listed like other folders; Recoverable Items lives outside msgfolderroot.
export const DEFAULT_FOLDERS: Array<[wellKnown: string, displayName: string, parent: string | null]> = [
  ['inbox', 'Inbox', null],
  ['drafts', 'Drafts', null],
  ['sentitems', 'Sent Items', null],
  ['deleteditems', 'Deleted Items', null],
  ['junkemail', 'Junk Email', null],
  ['outbox', 'Outbox', null],
  ['archive', 'Archive', null],
  ['conversationhistory', 'Conversation History', null],
  ['syncissues', 'Sync Issues', null],
  ['conflicts', 'Conflicts', 'syncissues'],
  ['localfailures', 'Local Failures', 'syncissues'],
  ['serverfailures', 'Server Failures', 'syncissues'],
];

// v1.0 property sets. `wellKnownName` is deliberately missing from folders: it exists only in beta.
export const FOLDER_PROPS = [
  'id',
  'displayName',
  'parentFolderId',
  'childFolderCount',
  'totalItemCount',
  'unreadItemCount',
  'isHidden',
];

export const MESSAGE_PROPS = [
  'id',
  'createdDateTime',
  'lastModifiedDateTime',
  'receivedDateTime',
  'sentDateTime',
  'subject',
  'from',
  'sender',
  'isRead',
  'parentFolderId',
  'internetMessageId',
  'internetMessageHeaders',
  'bodyPreview',
];

// Returned without $select: everything except the properties the docs say need $select.
export const MESSAGE_DEFAULT = MESSAGE_PROPS.filter((p) => p !== 'internetMessageHeaders');

export function folderOf(user: FakeUser, idOrName: string): StoredFolder {
  const direct = user.folders.get(idOrName);
  if (direct) return direct;
  const lower = idOrName.toLowerCase();
  const known = [...user.folders.values()].find((f) => f.wellKnownName === lower);
  if (known) return known;
  throw new HttpError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
}

/** Where Inbox rules put a message arriving in `folder` (resources/messagerule). */
export function ruledFolder(user: FakeUser, folder: StoredFolder, from: FakeAddress | null): StoredFolder {
  if (folder.wellKnownName !== 'inbox' || !from) return folder;
  let target = folder;
  const rules = user.rules.filter((r) => r.isEnabled).sort((a, b) => a.sequence - b.sequence);
  for (const rule of rules) {
    const senders = rule.conditions.fromAddresses ?? [];
    if (!senders.some((a) => a.emailAddress.address.toLowerCase() === from.address.toLowerCase())) continue;
    if (rule.actions.delete) target = folderOf(user, 'deleteditems');
    else if (rule.actions.moveToFolder) {
      // A rule whose folder was deleted since is in error in Outlook: it files nothing.
      const folder = user.folders.get(rule.actions.moveToFolder);
      if (!folder) continue;
      target = folder;
    }
    if (rule.actions.stopProcessingRules) break;
  }
  return target;
}

export function moveStored(user: FakeUser, m: StoredMessage, target: StoredFolder): void {
  user.tombstones.push({ id: m.id, folderId: m.folderId, seq: ++user.seq });
  m.folderId = target.id;
  m.createdSeq = m.updatedSeq = ++user.seq;
}

export function messagesOf(user: FakeUser, folderId: string): StoredMessage[] {
  return [...user.messages.values()].filter((m) => m.folderId === folderId);
}

export function folderJson(user: FakeUser, f: StoredFolder): Record<string, unknown> {
  const inside = messagesOf(user, f.id);
  return {
    id: f.id,
    displayName: f.displayName,
    parentFolderId: f.parentId ?? '',
    childFolderCount: [...user.folders.values()].filter((c) => c.parentId === f.id).length,
    totalItemCount: inside.length,
    unreadItemCount: inside.filter((m) => !m.isRead).length,
    isHidden: f.hidden,
  };
}

export function messageJson(m: StoredMessage): Record<string, unknown> {
  const from = m.from ? { emailAddress: { name: m.from.name, address: m.from.address } } : null;
  const messageId = m.headers?.find((h) => h.name.toLowerCase() === 'message-id')?.value ?? null;
  return {
    id: m.id,
    createdDateTime: m.receivedDateTime,
    lastModifiedDateTime: m.receivedDateTime,
    receivedDateTime: m.receivedDateTime,
    sentDateTime: m.receivedDateTime,
    subject: m.subject,
    from,
    sender: from,
    isRead: m.isRead,
    parentFolderId: m.folderId,
    internetMessageId: messageId,
    // Graph leaves the property out rather than sending an empty list when a message has none.
    ...(m.headers ? { internetMessageHeaders: m.headers.map((h) => ({ ...h })) } : {}),
    bodyPreview: '',
  };
}

export function newUser(email: string, opts: FakeUserOptions = {}): FakeUser {
  const user: FakeUser = {
    id: randomBytes(16).toString('hex'),
    email,
    displayName: email.split('@')[0] ?? email,
    folders: new Map(),
    messages: new Map(),
    tombstones: [],
    rules: [],
    seq: 0,
    rootId: graphId('AQMkAD'),
    refuseGraph: false,
    noMailbox: false,
    tenantId: opts.tenantId ?? CONSUMER_TENANT,
    emailDomainVerified: opts.emailDomainVerified ?? null,
  };
  user.folders.set(user.rootId, {
    id: user.rootId,
    displayName: 'Top of Information Store',
    parentId: null,
    wellKnownName: 'msgfolderroot',
    hidden: false,
  });
  const byName = new Map<string, string>();
  for (const [wellKnownName, displayName, parent] of DEFAULT_FOLDERS) {
    const id = graphId('AQMkAD');
    byName.set(wellKnownName, id);
    const parentId = parent ? byName.get(parent)! : user.rootId;
    user.folders.set(id, { id, displayName, parentId, wellKnownName, hidden: false });
  }
  return user;
}

export function mailbox(s: FakeState, user: FakeUser): FakeMailbox {
  const message = (id: string) => {
    const m = user.messages.get(id);
    if (!m) throw new Error(`No message ${id}`);
    return m;
  };
  return {
    id: user.id,
    email: user.email,
    issueRefreshToken() {
      const token = `rt-${randomBytes(24).toString('base64url')}`;
      s.refreshTokens.set(token, { userId: user.id, revoked: false });
      return token;
    },
    revokeGrants() {
      for (const t of s.refreshTokens.values()) if (t.userId === user.id) t.revoked = true;
      for (const [token, t] of s.accessTokens) if (t.userId === user.id) s.accessTokens.delete(token);
    },
    refreshTokens: () =>
      [...s.refreshTokens.entries()].filter(([, t]) => t.userId === user.id).map(([token]) => token),
    refuseGraph(refuse) {
      user.refuseGraph = refuse;
    },
    removeMailbox() {
      user.noMailbox = true;
    },
    wellKnown: (name) => folderOf(user, name).id,
    addFolder(displayName, parent, opts = {}) {
      const parentId = parent ? folderOf(user, parent).id : user.rootId;
      const id = graphId('AQMkAD');
      user.folders.set(id, {
        id,
        displayName,
        parentId,
        wellKnownName: null,
        hidden: opts.hidden ?? false,
      });
      return id;
    },
    addMessage(folderId, input) {
      const folder = ruledFolder(user, folderOf(user, folderId), input.from);
      const id = graphId('AAMkAD');
      const seq = ++user.seq;
      user.messages.set(id, {
        id,
        folderId: folder.id,
        subject: input.subject,
        from: input.from,
        receivedDateTime: input.receivedDateTime ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        headers: input.headers === undefined ? [] : input.headers,
        isRead: input.isRead ?? false,
        raw: input.raw ?? null,
        createdSeq: seq,
        updatedSeq: seq,
      });
      return id;
    },
    markRead(id) {
      const m = message(id);
      m.isRead = true;
      m.updatedSeq = ++user.seq;
    },
    moveMessage(id, folderId) {
      const m = message(id);
      const target = folderOf(user, folderId);
      user.tombstones.push({ id, folderId: m.folderId, seq: ++user.seq });
      m.folderId = target.id;
      m.createdSeq = m.updatedSeq = ++user.seq;
    },
    deleteFolder(folderId) {
      const gone = new Set([folderOf(user, folderId).id]);
      // Children first found through their parents: the folder and everything below it.
      for (let grew = true; grew; ) {
        grew = false;
        for (const f of user.folders.values()) {
          if (f.parentId && gone.has(f.parentId) && !gone.has(f.id)) {
            gone.add(f.id);
            grew = true;
          }
        }
      }
      for (const m of [...user.messages.values()]) {
        if (!gone.has(m.folderId)) continue;
        user.messages.delete(m.id);
        user.tombstones.push({ id: m.id, folderId: m.folderId, seq: ++user.seq });
      }
      for (const id of gone) user.folders.delete(id);
    },
    deleteMessage(id) {
      const m = message(id);
      user.messages.delete(id);
      user.tombstones.push({ id, folderId: m.folderId, seq: ++user.seq });
    },
    sendersIn: (folderId) => messagesOf(user, folderOf(user, folderId).id).map((m) => m.from?.address ?? ''),
    rules: () => user.rules.map((r) => structuredClone(r)),
    messagesIn: (folderId) =>
      messagesOf(user, folderOf(user, folderId).id).map(({ id, subject, receivedDateTime }) => ({
        id,
        subject,
        receivedDateTime,
      })),
  };
}

export function mimeOf(m: StoredMessage): string {
  const from = m.from ? `${m.from.name} <${m.from.address}>` : 'unknown@example.com';
  const lines = [
    `From: ${from}`,
    `Subject: ${m.subject}`,
    `Date: ${new Date(m.receivedDateTime).toUTCString()}`,
    ...(m.headers ?? [])
      .filter((h) => !/^(from|subject|date)$/i.test(h.name))
      .map((h) => `${h.name}: ${h.value}`),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
  ];
  const raw = `${lines.join('\r\n')}\r\n\r\n${m.subject}\r\n`;
  // A sender offering one-click signs its mail (test/helpers/dkim.ts); Exchange keeps the signature.
  return (m.headers ?? []).some((h) => /^list-unsubscribe-post$/i.test(h.name)) ? dkimSign(raw) : raw;
}

export function byReceived(direction: 'asc' | 'desc') {
  // Ties fall back to arrival order so that paging is stable.
  const sign = direction === 'desc' ? -1 : 1;
  return (a: StoredMessage, b: StoredMessage) =>
    sign * (Date.parse(a.receivedDateTime) - Date.parse(b.receivedDateTime) || a.createdSeq - b.createdSeq);
}
