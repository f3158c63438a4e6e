// Sender rules and the Screener (features/organise): the rules and the messages they moved.
// Conventions (times, booleans, unions): ../schema.ts.

/** A sender's rule (features/organise): any of a folder, keep the newest N, remove after N days. */
export interface SenderRulesTable {
  sender_id: string;
  mailbox_id: string;
  /** The folder's path as the adapter's listFolders gives it, and its name for the screens. */
  folder: string | null;
  folder_name: string | null;
  keep_newest: number | null;
  expire_after_days: number | null;
  expire_action: 'trash' | 'archive' | null;
  /** The provider's own filter filing the sender's mail (Gmail filter, Graph messageRule), if any. */
  provider_ref: string | null;
  /** When a message of the sender next ages past expire_after_days; null: only new mail needs the rule. */
  next_due_at: number | null;
  /** What the rule keeps (ids, folders, dates as JSON), so a check need not search the mailbox; null: unknown. */
  tracked: string | null;
  created_at: number;
  updated_at: number;
}

/** A message a rule or the Screener moved: where it is now and where it was, for undo. Ids only. */
export interface MovedMessagesTable {
  mailbox_id: string;
  sender_id: string;
  cause: 'rule' | 'screener';
  /** The adapter's Destination as JSON. */
  destination: string;
  moved_id: string;
  origin: string;
  created_at: number;
}
