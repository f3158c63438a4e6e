import { RULE_COLUMNS, ruleOfColumns } from '../organise/rule-repository.js';
import { tableExport } from './table-repository.js';
import { flag, iso, isoOf, parsed, strings } from './values.js';

// What each table read page by page gives the export (docs/decisions/081-data-export.md): its columns,
// whose rows they are, its keyset and the item a row becomes. Columns are named one by one: secrets
// (users.password_hash, mailboxes.secret) and bookkeeping (mailboxes.sync_state, sender_rules.tracked) are
// never selected. The generic reader is table-repository.ts.

/** Every sender, subscriptions and personal ones alike. */
export const senders = tableExport({
  table: 'senders',
  owner: 'user_id',
  key: 'id',
  start: '',
  columns: [
    'id',
    'mailbox_id',
    'address',
    'sender_name',
    'is_subscription',
    'category',
    'message_count',
    'list_message_count',
    'recent_count',
    'last_message_at',
    'read_count',
    'read_known',
    'unsubscribe_http',
    'unsubscribe_mailto',
    'unsubscribe_seen_at',
    'one_click',
    'unsubscribed_at',
    'still_sending',
    'via',
    'list_id',
    'brand',
    'screened',
    'created_at',
    'updated_at',
  ],
  item: (r) => ({
    id: r.id,
    mailboxId: r.mailbox_id,
    address: r.address,
    name: r.sender_name,
    isSubscription: Number(r.is_subscription) === 1,
    category: r.category,
    messageCount: Number(r.message_count),
    listMessageCount: Number(r.list_message_count),
    recentCount: Number(r.recent_count),
    lastMessageAt: iso(r.last_message_at),
    readCount: Number(r.read_count),
    readKnown: Number(r.read_known),
    unsubscribeHttp: strings(r.unsubscribe_http),
    unsubscribeMailto: strings(r.unsubscribe_mailto),
    unsubscribeSeenAt: iso(r.unsubscribe_seen_at),
    oneClick: Number(r.one_click) === 1,
    unsubscribedAt: iso(r.unsubscribed_at),
    stillSending: Number(r.still_sending) === 1,
    via: r.via,
    listId: r.list_id,
    brand: r.brand,
    screened: Number(r.screened) === 1,
    createdAt: isoOf(r.created_at),
    updatedAt: isoOf(r.updated_at),
  }),
});

export const messages = tableExport({
  table: 'messages',
  owner: 'mailbox_id',
  key: 'provider_id',
  start: '',
  columns: ['mailbox_id', 'provider_id', 'sender_id', 'folder', 'subject', 'date', 'seen'],
  item: (r) => ({
    mailboxId: r.mailbox_id,
    id: r.provider_id,
    senderId: r.sender_id,
    folder: r.folder,
    subject: r.subject,
    date: iso(r.date),
    seen: flag(r.seen),
  }),
});

export const senderRules = tableExport({
  table: 'sender_rules',
  owner: 'mailbox_id',
  key: 'sender_id',
  start: '',
  columns: [
    'sender_id',
    'mailbox_id',
    ...RULE_COLUMNS,
    'provider_ref',
    'next_due_at',
    'created_at',
    'updated_at',
  ],
  item: (r) => ({
    senderId: r.sender_id,
    mailboxId: r.mailbox_id,
    ...ruleOfColumns(r),
    providerRef: r.provider_ref,
    nextDueAt: iso(r.next_due_at),
    createdAt: isoOf(r.created_at),
    updatedAt: isoOf(r.updated_at),
  }),
});

export const movedMessages = tableExport({
  table: 'moved_messages',
  owner: 'mailbox_id',
  key: 'moved_id',
  start: '',
  columns: ['mailbox_id', 'sender_id', 'cause', 'destination', 'moved_id', 'origin', 'created_at'],
  item: (r) => ({
    mailboxId: r.mailbox_id,
    senderId: r.sender_id,
    cause: r.cause,
    destination: parsed(r.destination),
    id: r.moved_id,
    origin: r.origin,
    createdAt: isoOf(r.created_at),
  }),
});

export const trashedMessages = tableExport({
  table: 'trashed_messages',
  owner: 'mailbox_id',
  key: 'trash_id',
  start: '',
  columns: ['mailbox_id', 'address', 'trash_id', 'origin', 'created_at'],
  item: (r) => ({
    mailboxId: r.mailbox_id,
    address: r.address,
    id: r.trash_id,
    origin: r.origin,
    createdAt: isoOf(r.created_at),
  }),
});

export const blockRules = tableExport({
  table: 'block_rules',
  owner: 'mailbox_id',
  key: 'address',
  start: '',
  columns: ['mailbox_id', 'address', 'provider_ref', 'created_at'],
  item: (r) => ({
    mailboxId: r.mailbox_id,
    address: r.address,
    providerRef: r.provider_ref,
    createdAt: isoOf(r.created_at),
  }),
});

/** Receipts of every action: unsubscribes, blocks, keeps (unblock), failed ones too. */
export const unsubscribeReceipts = tableExport({
  table: 'unsubscribe_receipts',
  owner: 'user_id',
  key: 'id',
  start: '',
  columns: ['id', 'sender_id', 'method', 'target', 'recipient', 'ok', 'pending', 'detail', 'created_at'],
  item: (r) => ({
    id: r.id,
    senderId: r.sender_id,
    method: r.method,
    target: r.target,
    recipient: r.recipient,
    ok: Number(r.ok) === 1,
    pending: Number(r.pending) === 1,
    detail: r.detail,
    createdAt: isoOf(r.created_at),
  }),
});

export const bulkActions = tableExport({
  table: 'bulk_actions',
  owner: 'user_id',
  key: 'id',
  start: '',
  columns: ['id', 'action', 'move_to_trash', 'total', 'created_at', 'finished_at'],
  item: (r) => ({
    id: r.id,
    action: r.action,
    moveToTrash: Number(r.move_to_trash) === 1,
    total: Number(r.total),
    createdAt: isoOf(r.created_at),
    finishedAt: iso(r.finished_at),
  }),
});

/** The activity history: what was done to the user's mail, with its undo (features/activity). */
export const activity = tableExport({
  table: 'activity',
  owner: 'user_id',
  key: 'id',
  start: '',
  columns: [
    'id',
    'kind',
    'sender_id',
    'bulk_id',
    'bulk_action',
    'bulk_total',
    'by_check',
    'moved',
    'at',
    'undone_at',
  ],
  item: (r) => ({
    id: r.id,
    kind: r.kind,
    senderId: r.sender_id,
    bulkId: r.bulk_id,
    bulkAction: r.bulk_action,
    bulkTotal: r.bulk_total === null ? null : Number(r.bulk_total),
    byCheck: Number(r.by_check) === 1,
    moved: Number(r.moved),
    at: isoOf(r.at),
    undoneAt: iso(r.undone_at),
  }),
});

/** Items of the user's bulk actions, bulk after bulk, by (bulk_id, position). */
export const bulkItems = tableExport({
  table: 'bulk_items',
  owner: 'bulk_id',
  key: 'position',
  start: -1,
  columns: ['bulk_id', 'position', 'subscription_id', 'outcome', 'result', 'done_at'],
  item: (r) => ({
    bulkId: r.bulk_id,
    position: Number(r.position),
    subscriptionId: r.subscription_id,
    outcome: r.outcome,
    result: parsed(r.result),
    doneAt: iso(r.done_at),
  }),
});
