import { RULE_LIMITS } from '#contract/api/rules.js';

// The one check of a new folder's (or Gmail label's) name, before any adapter asks its server to make it.
// What only one provider refuses stays in its adapter: `/` for Outlook, `*` and `%` for IMAP.

/** Longest name taken: the folder picker's own limit (contract/api/rules.ts), counted as the picker counts. */
export const MAX_FOLDER_NAME = RULE_LIMITS.folderName;

// C0 controls, DEL and C1 controls (U+0000-001F, U+007F-009F): never part of a folder name a user typed.
const CONTROL = /\p{Cc}/u;

/** The name trimmed; refused when empty, longer than MAX_FOLDER_NAME or holding a control character. */
export function checkFolderName(name: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (!trimmed || trimmed.length > MAX_FOLDER_NAME || CONTROL.test(trimmed)) {
    throw new Error(`A folder name needs 1 to ${MAX_FOLDER_NAME} characters, without control characters`);
  }
  return trimmed;
}
