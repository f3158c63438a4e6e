import { USER_KEY } from '../../../lib/query-keys';

/** The rules' keys in the query cache, under the signed-in user's. */
export const ruleKeys = {
  list: [...USER_KEY, 'sender-rules'] as const,
  /** The blocked senders (the Unsubscribed list's blocks). */
  blocked: [...USER_KEY, 'blocked-senders'] as const,
  folders: (email: string) => [...USER_KEY, 'mailbox-folders', email] as const,
};
