import type { Generated } from 'kysely';
import type { BulkAction } from '#contract/api.js';

// What the product did to a user's mail, for the Activity screen and its Undo (features/activity).
// Conventions (times, booleans, unions): ../schema.ts.

/** The kinds of rows: those listed, and a bulk Keep's items ('keep'), which are listed under their bulk. */
export type ActivityRowKind = 'block' | 'unsubscribe' | 'rule' | 'screener' | 'bulk' | 'keep';

export interface ActivityTable {
  id: string;
  user_id: string;
  kind: ActivityRowKind;
  /** The sender acted on; null for a bulk's own row. */
  sender_id: string | null;
  /** An item of this bulk (its own row has kind 'bulk' and this id as `id`). */
  bulk_id: string | null;
  /** A bulk's own row: its action and how many senders it was asked for (kept after the bulk is pruned). */
  bulk_action: BulkAction | null;
  bulk_total: number | null;
  /** 1 when a check did it (a rule, the Screener, an automatic block), 0 when the user asked. */
  by_check: Generated<number>;
  /** Messages it moved. */
  moved: Generated<number>;
  at: number;
  /** When it was undone (from the Activity screen, a toast's Undo, Keep, or removing a rule with its mail). */
  undone_at: number | null;
}
